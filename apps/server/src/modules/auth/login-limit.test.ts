import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMaster, login, post, type TestUser } from '../../test/factories.js';

const LOGIN = '/index/index/login';
const attacker = { remoteAddress: '203.0.113.66' };

describeDb('login limits', () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    user = await createMaster(t.app, { username: 'alice', password: 'alice-pass-1' });
  });
  afterEach(() => t.close());

  const codes = async (count: number, options = attacker) => {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        post(t.app, LOGIN, { username: 'alice', password: `wrong-pass-${i}` }, options),
      ),
    );
    return answers.map((res) => res.json().code as number);
  };

  it('checks at most the limit of 200 parallel wrong passwords; the rest are refused unchecked', async () => {
    const answered = await codes(200);
    // Every answer "login failed" is a password that was hashed and compared; the others were refused
    // before the hash.
    const checked = answered.filter((code) => code === Code.LOGIN_FAILED).length;
    expect(checked).toBe(5);
    expect(answered.filter((code) => code === Code.RATE_LIMITED)).toHaveLength(195);
  }, 60_000);

  it('an attacker on one address does not lock the owner out on another', async () => {
    for (let round = 0; round < 3; round++) {
      if (round > 0) t.clock.advance(16 * 60_000);
      await codes(20);
    }
    const blocked = (
      await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' }, attacker)
    ).json();
    expect(blocked.code).toBe(Code.RATE_LIMITED);
    await login(t.app, user);
  }, 60_000);

  it('throttles an account for every address after 100 failures within an hour from many addresses', async () => {
    for (let i = 0; i < 20; i++) {
      const answered = await codes(5, { remoteAddress: `198.51.100.${i + 1}` });
      expect(answered.every((code) => code === Code.LOGIN_FAILED)).toBe(true);
    }
    const owner = (await post(t.app, LOGIN, { username: 'alice', password: 'alice-pass-1' })).json();
    expect(owner).toMatchObject({ code: Code.RATE_LIMITED, data: { retryAfter: 900 } });
    t.clock.advance(900_000);
    await login(t.app, user);
  }, 60_000);

  it('a refused attempt is not counted against the address or the account', async () => {
    // The pair lock refuses 15 of these 20 before they count anywhere else: the address stays open.
    await codes(20);
    const other = await createMaster(t.app, { username: 'bob', password: 'bob-pass-12' });
    const res = await post(t.app, LOGIN, { username: other.username, password: other.password }, attacker);
    expect(res.json().code).toBe(Code.OK);
  }, 60_000);
});
