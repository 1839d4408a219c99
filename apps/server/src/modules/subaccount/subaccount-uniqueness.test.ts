import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createMaster, login, post } from '../../test/factories.js';

/**
 * Usernames are unique among all accounts; email and phone among one master's accounts, so that a
 * refusal never reveals another master's accounts (docs/api.md, "Uniqueness").
 */
describeDb('sub-accounts: uniqueness (fbox.user)', () => {
  let t: TestApp;
  let token: string;
  let northId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app, { username: 'boss' });
    token = await login(t.app, master);
    await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { email: 'boss@example.com', mobile: '1 5550000' },
      { token },
    );
    northId = (await createArea(t.app, master.id, 'North')).id;
  });
  afterEach(() => t.close());

  const valid = (overrides: Record<string, unknown> = {}) => ({
    username: 'op_anna',
    password: 'anna-pass-1',
    nickname: 'Anna',
    mobile: '86 13800138000',
    email: 'anna@example.com',
    status: 'enabled',
    authority: 'operator',
    area_ids: [northId],
    rules: ['minerControl'],
    ...overrides,
  });
  const create = (body: Record<string, unknown>) =>
    post(t.app, '/index/fbox.user/create', body, { token }).then((r) => r.json());
  const snapshot = async () => ({
    users: await t.app.db.selectFrom('users').selectAll().orderBy('id').execute(),
    areas: await t.app.db.selectFrom('user_areas').selectAll().orderBy('user_id').execute(),
  });

  it('refuses a taken username (any case) of any account, and an email or phone of its own account; writes nothing', async () => {
    const other = await createMaster(t.app, { username: 'someone' });
    await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { email: 'taken@example.com', mobile: '44 7700900000' },
      { token: await login(t.app, other) },
    );
    expect(
      (await create(valid({ username: 'op_zoe', email: 'zoe@example.com', mobile: '1 5550199' }))).code,
    ).toBe(1);
    const before = await snapshot();
    // Usernames are global login names: a taken one is refused without saying whose it is.
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'SOMEONE' }, 'This username is not available; choose another'],
      [{ username: 'boss' }, 'This username is not available; choose another'],
      [{ email: 'Boss@Example.com' }, 'This email is already used by another account'],
      [{ email: 'zoe@example.com' }, 'This email is already used by another account'],
      [{ mobile: '1 5550000' }, 'This phone number is already used by another account'],
      [{ mobile: '1 5550199' }, 'This phone number is already used by another account'],
    ];
    for (const [overrides, msg] of cases) {
      // The refusal names the field that caused it, so the form says it there.
      const field = Object.keys(overrides)[0];
      expect(await create(valid(overrides))).toMatchObject({
        code: Code.CONFLICT,
        msg,
        data: { errors: [{ field, message: msg }] },
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('parallel creates with one email: one wins, the others are told the email is taken', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(valid({ username: `op_race${i}`, mobile: `1 555010${i}` }))),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    for (const a of answers.filter((a) => a.code !== 1)) {
      expect(a).toMatchObject({
        code: Code.CONFLICT,
        msg: 'This email is already used by another account',
        data: { errors: [{ field: 'email' }] },
      });
    }
  });

  it("does not reveal another master's accounts: their email and phone are free here", async () => {
    const other = await createMaster(t.app, { username: 'someone' });
    const theirs = await login(t.app, other);
    await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { email: 'taken@example.com', mobile: '44 7700900000' },
      { token: theirs },
    );
    const res = await create(valid({ email: 'Taken@Example.com', mobile: '44 7700900000' }));
    expect(res).toMatchObject({ code: 1, data: { email: 'Taken@Example.com', mobile: '44 7700900000' } });
    // Nor is this master's sub-account a reason to refuse the other master's edit.
    const edit = await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { email: 'anna@example.com' },
      { token: theirs },
    );
    expect(edit.json().code).toBe(1);
  });
});
