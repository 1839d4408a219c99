import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMaster, get, login, post, type TestUser } from '../../test/factories.js';

const LOGIN = '/index/index/login';
const INFO = '/index/fbox.user/getuserinfo';
const FAILED = 'Incorrect username, password or Google Authenticator code';

describeDb('login and sessions', () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    user = await createMaster(t.app, { username: 'alice', password: 'alice-pass-1' });
  });
  afterEach(() => t.close());

  it('logs in with a form post and returns a token that opens the API', async () => {
    const res = await post(t.app, LOGIN, { username: '  alice ', password: 'alice-pass-1' }, { form: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(body).toMatchObject({ code: Code.OK });
    expect(body.data.logintoken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const info = await get(t.app, INFO, {}, { token: body.data.logintoken });
    expect(info.json()).toMatchObject({ code: 1, data: { username: 'alice' } });
  });

  it('answers unknown user and wrong password the same way', async () => {
    const unknown = (await post(t.app, LOGIN, { username: 'nobody', password: 'whatever1' })).json();
    const wrong = (await post(t.app, LOGIN, { username: 'alice', password: 'wrong-pass' })).json();
    expect(unknown).toEqual({ code: Code.LOGIN_FAILED, msg: FAILED, data: null });
    expect(wrong).toEqual(unknown);
  });

  it('locks an account after 5 failures, tells when to retry, and reopens after the lock', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post(t.app, LOGIN, { username: 'alice', password: `bad-${i}` })).json().code).toBe(-1);
    }
    const locked = (await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json();
    expect(locked).toEqual({
      code: Code.RATE_LIMITED,
      msg: 'Too many login attempts, retry in 900 s',
      data: { retryAfter: 900 },
    });
    t.clock.advance(600_000);
    const later = (await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json();
    expect(later.data.retryAfter).toBe(300);
    t.clock.advance(300_000);
    await login(t.app, user);
  });

  it('locks an IP after 20 failures across accounts', async () => {
    const ip = { remoteAddress: '203.0.113.9' };
    for (let i = 0; i < 20; i++) {
      await post(t.app, LOGIN, { username: `ghost${i}`, password: 'nope-nope' }, ip);
    }
    const res = (await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' }, ip)).json();
    expect(res.code).toBe(Code.RATE_LIMITED);
    expect(res.data.retryAfter).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json().code).toBe(1);
  });

  it('a success clears the account counter', async () => {
    for (let i = 0; i < 4; i++) await post(t.app, LOGIN, { username: 'alice', password: 'bad-pass' });
    await login(t.app, user);
    for (let i = 0; i < 4; i++) await post(t.app, LOGIN, { username: 'alice', password: 'bad-pass' });
    expect((await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json().code).toBe(1);
  });

  it('expires a session after the TTL and slides it while used', async () => {
    const token = await login(t.app, user);
    t.clock.advance(1439 * 60_000);
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(1);
    t.clock.advance(1439 * 60_000);
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(1);
    t.clock.advance(1441 * 60_000);
    const expired = await get(t.app, INFO, {}, { token });
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({
      code: -9000,
      msg: 'Please log in again',
      info: 'Please log in again',
      data: null,
    });
  });

  it('ends a session SESSION_MAX_HOURS (default 168) after login even while it is used', async () => {
    const token = await login(t.app, user);
    const hour = 3_600_000;
    for (let h = 0; h < 167; h += 12) {
      t.clock.advance(12 * hour);
      if (h + 12 < 168) expect((await get(t.app, INFO, {}, { token })).json().code, `${h + 12} h`).toBe(1);
    }
    // 168 h minus one second: still open (and now cached), then the bound ends it, cache or not.
    const opened = await t.app.db.selectFrom('sessions').select('created_at').executeTakeFirstOrThrow();
    t.clock.ms = Number(opened.created_at) + 168 * hour - 1000;
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(1);
    t.clock.advance(1000);
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(-9000);
    // A fresh login opens a new session.
    expect((await get(t.app, INFO, {}, { token: await login(t.app, user) })).json().code).toBe(1);
  });

  it('revokes the token on logout', async () => {
    const token = await login(t.app, user);
    expect((await post(t.app, '/index/index/logout', {}, { token })).json()).toMatchObject({ code: 1 });
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(-9000);
    expect((await post(t.app, '/index/index/logout', {}, { token })).json().code).toBe(-9000);
  });

  it('refuses a disabled account', async () => {
    const token = await login(t.app, user);
    await t.app.db.updateTable('users').set({ status: 0 }).where('id', '=', user.id).execute();
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(-9000);
    expect((await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json().msg).toBe(
      FAILED,
    );
  });

  it('accepts the cookie for GET only (CSRF defence)', async () => {
    const token = await login(t.app, user);
    const cookies = { 'Admin-Token': token };
    expect((await get(t.app, INFO, {}, { cookies })).json().code).toBe(1);
    const viaCookie = await post(t.app, '/index/fbox.user/setuserinfo', { nickname: 'Mallory' }, { cookies });
    expect(viaCookie.json().code).toBe(-9000);
    expect((await get(t.app, INFO, {}, { token })).json().data.nickname).toBe('alice');
    expect((await get(t.app, INFO, {}, { cookies: { 'Admin-Token': 'forged' } })).json().code).toBe(-9000);
  });

  it('changes the password: checks the old one and the length, then ends every session', async () => {
    const token = await login(t.app, user);
    const other = await login(t.app, user);
    const url = '/index/fbox.total/changepassword';
    const wrong = (
      await post(t.app, url, { oldpassword: 'nope', password: 'new-pass-123' }, { token })
    ).json();
    expect(wrong).toMatchObject({ code: Code.VALIDATION, msg: 'The old password is wrong' });
    expect(wrong.data.errors[0]).toMatchObject({ field: 'oldpassword' });
    const refusals: [string, string][] = [
      ['short', 'Password: Please input a new password of at least 8 characters'],
      ['x'.repeat(129), 'Password: must be at most 128 characters'],
      ['iloveyou', 'Password: is one of the most common passwords; choose another'],
      ['Sunshine1', 'Password: is one of the most common passwords; choose another'],
    ];
    for (const [password, msg] of refusals) {
      const res = (await post(t.app, url, { oldpassword: 'alice-pass-1', password }, { token })).json();
      expect(res).toMatchObject({ code: -2, msg, data: { errors: [{ field: 'password' }] } });
    }
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(1);
    // A 64-character passphrase is welcome.
    const passphrase = 'correct horse battery staple '.repeat(3).slice(0, 64);
    const ok = (
      await post(t.app, url, { oldpassword: 'alice-pass-1', password: passphrase }, { token })
    ).json();
    expect(ok).toMatchObject({ code: 1, msg: 'Password changed, please log in again' });
    expect((await get(t.app, INFO, {}, { token })).json().code).toBe(-9000);
    expect((await get(t.app, INFO, {}, { token: other })).json().code).toBe(-9000);
    expect((await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json().code).toBe(-1);
    await login(t.app, { ...user, password: passphrase });
  });
});
