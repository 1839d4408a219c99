import { describe, expect, it } from 'vitest';
import { decideAccess } from './guard';

describe('decideAccess', () => {
  it('lets visitors open /login and /auth-redirect', () => {
    expect(decideAccess('/login', '', false)).toEqual({ kind: 'allow', needsSession: false });
    expect(decideAccess('/auth-redirect', '?x=1', false)).toEqual({ kind: 'allow', needsSession: false });
  });

  it('sends visitors to /login with the wanted path and query, URL-encoded', () => {
    expect(decideAccess('/index', '?a=1&b=two', false)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Findex%3Fa%3D1%26b%3Dtwo',
    });
    expect(decideAccess('/no/such/page', '', false)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fno%2Fsuch%2Fpage',
    });
  });

  it('lets a visitor open a built board by its kiosk link, and nothing else with one', () => {
    const kiosk = `?kiosk=${'a'.repeat(43)}`;
    for (const path of [
      '/dataBoard',
      '/dataBoardNew',
      '/minerBoard',
      '/minerBigScreen',
      '/minerBoardTest',
      '/tankBoard',
    ])
      expect(decideAccess(path, kiosk, false)).toEqual({ kind: 'allow', needsSession: false });
    expect(decideAccess('/dataBoard', '?id=1&area_id=1', false)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2FdataBoard%3Fid%3D1%26area_id%3D1',
    });
    expect(decideAccess('/index', kiosk, false).kind).toBe('redirect');
    expect(decideAccess('/board/boardList', kiosk, false).kind).toBe('redirect');
  });

  it('sends a signed-in user away from /login to /', () => {
    expect(decideAccess('/login', '?redirect=%2Findex', true)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('sends the empty path and / to /index', () => {
    expect(decideAccess('/', '', true)).toEqual({ kind: 'redirect', to: '/index' });
    expect(decideAccess('', '', true)).toEqual({ kind: 'redirect', to: '/index' });
  });

  it('sends unknown pages to /error/404', () => {
    expect(decideAccess('/nope', '', true)).toEqual({ kind: 'redirect', to: '/error/404' });
  });

  it('opens available pages, loading the session for pages in the layout', () => {
    expect(decideAccess('/index', '', true)).toEqual({ kind: 'allow', needsSession: true });
    expect(decideAccess('/redirect/index', '', true)).toEqual({ kind: 'allow', needsSession: true });
    expect(decideAccess('/error/404', '', true)).toEqual({ kind: 'allow', needsSession: false });
    expect(decideAccess('/401', '', true)).toEqual({ kind: 'allow', needsSession: false });
  });
});

describe('decideAccess with roles', () => {
  it('opens the sub-account page to masters (admin) only; sub-accounts go to /401', () => {
    expect(decideAccess('/set/subAccount', '', true, ['admin'])).toEqual({
      kind: 'allow',
      needsSession: true,
    });
    expect(decideAccess('/set/subAccount', '', true, ['operator'])).toEqual({ kind: 'redirect', to: '/401' });
    expect(decideAccess('/set/subAccount', '', true, ['administrator'])).toEqual({
      kind: 'redirect',
      to: '/401',
    });
  });

  it('leaves the role check to the session loader while the roles are unknown', () => {
    expect(decideAccess('/set/subAccount', '', true, null)).toEqual({ kind: 'allow', needsSession: true });
    expect(decideAccess('/set/subAccount', '', false, null)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fset%2FsubAccount',
    });
  });

  it('opens pages without a role list to every signed-in role', () => {
    for (const roles of [['admin'], ['administrator'], ['operator']])
      expect(decideAccess('/device/boxList', '', true, roles)).toEqual({ kind: 'allow', needsSession: true });
  });
});
