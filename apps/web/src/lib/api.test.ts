import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call } from './api';
import { setMessageApi, setStaticMessageApi } from './feedback';
import { setNavigator } from './navigation';
import { selectArea } from './session';

const toasts: { kind: string; text: string; seconds: number }[] = [];
const toast = (kind: string) => (text: unknown, seconds: unknown, onClose?: () => void) => {
  toasts.push({ kind, text: String(text), seconds: Number(seconds) });
  onClose?.();
  return Promise.resolve(true);
};
const navigations: string[] = [];

const answer = (body: unknown, status = 200) =>
  vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );

describe('api client', () => {
  beforeEach(() => {
    toasts.length = 0;
    navigations.length = 0;
    const fake = {
      success: toast('success'),
      error: toast('error'),
      warning: toast('warning'),
      info: toast('info'),
    } as never;
    setMessageApi(fake);
    setStaticMessageApi(fake);
    setNavigator((to) => navigations.push(to));
    Cookies.set('Admin-Token', 'tok-1');
    selectArea({ id: 7, area_name: 'North', electricity_hz: 50 });
    window.history.replaceState(null, '', '/index?tab=2');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('posts form-encoded fields with output=json, area_id and the session headers', async () => {
    const fetchMock = answer({ code: 1, msg: 'ok', data: { count: 3 } });
    vi.stubGlobal('fetch', fetchMock);
    await call('setUserInfo', {
      pushContent: {
        alertLevel: [1],
        checkList: [],
        emailList: [],
        mobileList: [],
        teamsUrlList: [],
        telegramList: [],
      },
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/index/fbox.user/setuserinfo');
    const body = new URLSearchParams(String(init.body));
    expect(body.get('output')).toBe('json');
    expect(body.get('area_id')).toBe('7');
    expect(JSON.parse(body.get('pushContent') ?? '')).toMatchObject({ alertLevel: [1] });
    expect(init.headers).toMatchObject({ logintoken: 'tok-1', lang: 'en-us' });
  });

  it('puts GET parameters in the query and resolves the data', async () => {
    const fetchMock = answer({ code: 1, msg: 'ok', data: { count: 3 } });
    vi.stubGlobal('fetch', fetchMock);
    await expect(call('unreadCount', {})).resolves.toEqual({ count: 3 });
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toBe(
      '/index/fbox.message/unread?output=json&area_id=7',
    );
  });

  it('treats an answer without code as success', async () => {
    vi.stubGlobal('fetch', answer({ data: [] }));
    await expect(call('areaList', {})).resolves.toEqual([]);
  });

  it('clears the session on -9000 and sends the user to /login with the page to come back to', async () => {
    vi.stubGlobal('fetch', answer({ code: -9000, msg: 'not logged in', data: null }));
    await expect(call('unreadCount', {})).rejects.toMatchObject({
      message: 'Please log in again',
      kind: 'session',
    });
    expect(Cookies.get('Admin-Token')).toBeUndefined();
    expect(navigations).toEqual(['/login?redirect=%2Findex%3Ftab%3D2']);
    expect(toasts).toEqual([{ kind: 'error', text: 'Please log in again', seconds: 2 }]);
  });

  it('ends the session once when requests sent together all answer -9000: one toast, one redirect', async () => {
    vi.stubGlobal('fetch', answer({ code: -9000, msg: 'not logged in', data: null }));
    const calls = Array.from({ length: 12 }, () => call('unreadCount', {}));
    for (const c of calls) await expect(c).rejects.toMatchObject({ kind: 'session' });
    expect(navigations).toEqual(['/login?redirect=%2Findex%3Ftab%3D2']);
    expect(toasts).toEqual([{ kind: 'error', text: 'Please log in again', seconds: 2 }]);
  });

  it('shows the same failure of requests made together once while it is on screen', async () => {
    const open: (() => void)[] = [];
    const lingering = (text: unknown, seconds: unknown, onClose?: () => void) => {
      toasts.push({ kind: 'error', text: String(text), seconds: Number(seconds) });
      if (onClose) open.push(onClose);
      return Promise.resolve(true);
    };
    setMessageApi({ success: lingering, error: lingering, warning: lingering, info: lingering } as never);
    vi.stubGlobal('fetch', answer({ code: -1, msg: 'Server busy', data: null }));
    await Promise.allSettled([call('unreadCount', {}), call('unreadCount', {}), call('unreadCount', {})]);
    expect(toasts).toEqual([{ kind: 'error', text: 'Server busy', seconds: 2 }]);
    // Once it closed, the same failure is news again.
    for (const close of open) close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await call('unreadCount', {}).catch(() => undefined);
    expect(toasts).toHaveLength(2);
  });

  it('gives a form the field a conflict names (a username taken), without a toast as well', async () => {
    const errors = [
      {
        field: 'username',
        rule: 'api.usernameTaken',
        message: 'This username is not available; choose another',
      },
    ];
    vi.stubGlobal('fetch', answer({ code: -5, msg: errors[0]!.message, data: { errors } }));
    const error = await call('subAccountCreate', {} as never, { quietValidation: true }).catch(
      (e: unknown) => e,
    );
    expect((error as ApiError).fieldErrors).toEqual(errors);
    expect(toasts).toEqual([]);
  });

  it('rejects -2 with the field errors so forms can show them', async () => {
    const errors = [{ field: 'pushContent.emailList.0', rule: 'rule.email', message: 'rule.email' }];
    vi.stubGlobal('fetch', answer({ code: -2, msg: 'Emails: invalid', data: { errors } }));
    const error = await call('setUserInfo', {}, { quietValidation: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(-2);
    expect((error as ApiError).fieldErrors).toEqual(errors);
    expect(toasts).toEqual([]);
  });

  it('shows the message of other codes, and the info of info calls for 2 s', async () => {
    vi.stubGlobal(
      'fetch',
      answer({ code: -5, msg: 'This email is already used by another account', data: null }),
    );
    await expect(call('setUserInfo', {})).rejects.toMatchObject({ code: -5 });
    vi.stubGlobal('fetch', answer({ code: -3, msg: 'Not found', info: 'No such user', data: null }));
    await expect(call('getUserInfo', {})).rejects.toMatchObject({ code: -3 });
    expect(toasts).toEqual([
      { kind: 'error', text: 'This email is already used by another account', seconds: 2 },
      { kind: 'error', text: 'No such user', seconds: 2 },
    ]);
  });

  it('shows a failed login for 5 s, then ends the local session', async () => {
    vi.stubGlobal('fetch', answer({ code: -1, msg: 'Incorrect username or password', data: null }));
    await expect(call('login', { username: 'a', password: 'b' })).rejects.toMatchObject({ code: -1 });
    expect(toasts).toEqual([{ kind: 'error', text: 'Incorrect username or password', seconds: 5 }]);
    await Promise.resolve();
    expect(Cookies.get('Admin-Token')).toBeUndefined();
  });

  it('gives up after the timeout with an error toast', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = call('areaList', {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(120_000);
    const error = (await pending) as ApiError;
    expect(error.kind).toBe('timeout');
    expect(toasts).toEqual([{ kind: 'error', text: 'The request timed out after 120 s', seconds: 5 }]);
  });

  it('shows network and HTTP failures for 5 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(call('areaList', {})).rejects.toMatchObject({ kind: 'network' });
    vi.stubGlobal('fetch', answer({}, 404));
    await expect(call('areaList', {})).rejects.toMatchObject({ kind: 'http' });
    expect(toasts).toEqual([
      { kind: 'error', text: 'Failed to fetch', seconds: 5 },
      { kind: 'error', text: 'Request failed with status code 404', seconds: 5 },
    ]);
  });
});
