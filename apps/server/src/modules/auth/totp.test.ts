import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { totpCode } from '../../lib/totp.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMaster, enableTotp, get, login, post, type TestUser } from '../../test/factories.js';

const LOGIN = '/index/index/login';

describeDb('Google Authenticator (TOTP)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    user = await createMaster(t.app);
  });
  afterEach(() => t.close());

  const attempt = (googleCode: string) =>
    post(t.app, LOGIN, { username: user.username, password: user.password, googleCode }).then((r) =>
      r.json(),
    );

  it('enrols, then requires a fresh code at every login', async () => {
    const token = await login(t.app, user);
    const setup = (await post(t.app, '/index/fbox.user/totp_setup', {}, { token })).json();
    expect(setup.code).toBe(1);
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.otpauth_url).toContain(`FBOX%20Cloud%3A${user.username}`);
    const secret: string = setup.data.secret;

    const badEnable = await post(t.app, '/index/fbox.user/totp_enable', { code: '000000' }, { token });
    expect(badEnable.json()).toMatchObject({ code: Code.TOTP_INVALID });
    const enable = await post(
      t.app,
      '/index/fbox.user/totp_enable',
      { code: totpCode(secret, t.clock.now()) },
      { token },
    );
    expect(enable.json().code).toBe(1);
    expect((await get(t.app, '/index/fbox.user/getuserinfo', {}, { token })).json().data.google_auth).toBe(1);

    // A right password with a missing or wrong code answers like a wrong password: no oracle.
    const wrongPassword = (
      await post(t.app, LOGIN, { username: user.username, password: 'not-the-password', googleCode: '' })
    ).json();
    expect(wrongPassword).toEqual({
      code: -1,
      msg: 'Incorrect username, password or Google Authenticator code',
      data: null,
    });
    expect(await attempt('')).toEqual(wrongPassword);
    expect(await attempt('000000')).toEqual(wrongPassword);
    // The code used to enable is spent.
    expect((await attempt(totpCode(secret, t.clock.now()))).code).toBe(-1);
    t.clock.advance(30_000);
    const fresh = totpCode(secret, t.clock.now());
    expect((await attempt(fresh)).code).toBe(1);
    expect((await attempt(fresh)).code).toBe(-1);
    t.clock.advance(30_000);
    expect((await attempt(totpCode(secret, t.clock.now()))).code).toBe(1);
  });

  it('counts wrong codes as login failures', async () => {
    await enableTotp(t.app, user.id);
    for (let i = 0; i < 5; i++) expect((await attempt('123456')).code).toBe(-1);
    expect((await attempt('123456')).code).toBe(Code.RATE_LIMITED);
  });

  it('disables only with a valid, unused code', async () => {
    const secret = await enableTotp(t.app, user.id);
    const token = await login(t.app, user, totpCode(secret, t.clock.now()));
    const url = '/index/fbox.user/totp_disable';
    expect((await post(t.app, url, { code: totpCode(secret, t.clock.now()) }, { token })).json().code).toBe(
      Code.TOTP_INVALID,
    );
    expect((await post(t.app, url, { code: 'abc' }, { token })).json()).toMatchObject({
      code: -2,
      msg: 'Code: must be a 6-digit code',
    });
    t.clock.advance(30_000);
    expect((await post(t.app, url, { code: totpCode(secret, t.clock.now()) }, { token })).json().code).toBe(
      1,
    );
    expect((await attempt('')).code).toBe(1);
    expect((await post(t.app, url, { code: '123456' }, { token })).json()).toMatchObject({
      code: Code.CONFLICT,
      msg: 'Google Authenticator is not enabled',
    });
  });

  it('refuses to enable without setup or twice', async () => {
    const token = await login(t.app, user);
    expect(
      (await post(t.app, '/index/fbox.user/totp_enable', { code: '123456' }, { token })).json(),
    ).toMatchObject({
      code: Code.CONFLICT,
      msg: 'Start Google Authenticator setup first',
    });
  });
});
