import { Code, SubAccountSchema } from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const LIST = '/index/fbox.user/index';
const CREATE = '/index/fbox.user/create';
const EDIT = '/index/fbox.user/edit';
const DELETE = '/index/fbox.user/deleted';
const COMMON = 'Password: is one of the most common passwords; choose another';

describeDb('sub-accounts (fbox.user)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let north: { id: number; area_name: string };
  let south: { id: number; area_name: string };
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app, { username: 'boss' });
    token = await login(t.app, master);
    await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { email: 'boss@example.com', mobile: '1 5550000' },
      { token },
    );
    north = await createArea(t.app, master.id, 'North');
    south = await createArea(t.app, master.id, 'South');
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
    area_ids: [north.id],
    rules: ['minerControl', 'tankControl'],
    ...overrides,
  });
  const create = (body: Record<string, unknown>, options: { token?: string; form?: boolean } = {}) =>
    post(t.app, CREATE, body, { token, ...options }).then((r) => r.json());
  const edit = (body: Record<string, unknown>, tk = token) =>
    post(t.app, EDIT, body, { token: tk }).then((r) => r.json());
  const list = (query: Record<string, string> = {}, tk = token) =>
    get(t.app, LIST, query, { token: tk }).then((r) => r.json());
  const userRows = () => t.app.db.selectFrom('users').selectAll().orderBy('id').execute();
  const areaRows = () => t.app.db.selectFrom('user_areas').selectAll().orderBy('user_id').execute();
  const snapshot = async () => ({ users: await userRows(), areas: await areaRows() });
  const signIn = async (username: string, password: string) =>
    (await post(t.app, '/index/index/login', { username, password })).json();

  it('creates an operator with every field; it signs in, sees its role and rules, never a secret', async () => {
    const res = await create(valid(), { form: true });
    expect(res).toMatchObject({ code: 1, msg: 'Modified successfully' });
    const item = SubAccountSchema.strict().parse(res.data);
    expect(item).toMatchObject({
      username: 'op_anna',
      nickname: 'Anna',
      mobile: '86 13800138000',
      email: 'anna@example.com',
      status: 'enabled',
      authority: 'operator',
      areas: [{ id: north.id, area_name: 'North' }],
      rules: ['minerControl', 'tankControl'],
      last_login_at: null,
      last_login_ip: null,
    });
    expect(JSON.stringify(res)).not.toMatch(/password|totp|argon/i);

    const login = await signIn('op_anna', 'anna-pass-1');
    expect(login.code).toBe(1);
    const sub = login.data.logintoken as string;
    expect((await get(t.app, '/index/fbox.user/getuserinfo', {}, { token: sub })).json().data).toMatchObject({
      is_masterID: 0,
      roles: ['operator'],
    });
    expect((await get(t.app, '/index/fbox.user/getrule', {}, { token: sub })).json()).toEqual({
      code: 1,
      msg: 'Success',
      data: {
        role: 'operator',
        rules: ['minerControl', 'tankControl'],
        all: ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'],
      },
    });
    expect((await get(t.app, '/index/fbox.area/index', {}, { token: sub })).json().data).toEqual([
      { id: north.id, area_name: 'North', electricity_hz: 50 },
    ]);
    // The list now shows the login time and address.
    const [row] = (await list()).data.items;
    expect(row).toMatchObject({ id: item.id, last_login_at: expect.any(Number), last_login_ip: '127.0.0.1' });
  });

  it('answers the master its own rule list and the caller its address', async () => {
    expect((await get(t.app, '/index/fbox.user/getrule', {}, { token })).json().data).toEqual({
      role: 'master',
      rules: ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'],
      all: ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'],
    });
    const ip = await get(t.app, '/index/fbox.user/getrealip', {}, { token, remoteAddress: '203.0.113.7' });
    expect(ip.json()).toEqual({ code: 1, msg: 'Success', data: { ip: '203.0.113.7' } });
  });

  it('creates an administrator for several mines from a JSON body, storing no rules for it', async () => {
    const res = await create(
      valid({ authority: 'administrator', area_ids: [south.id, north.id, north.id], rules: ['minerPool'] }),
    );
    expect(res.data).toMatchObject({
      authority: 'administrator',
      rules: [],
      areas: [
        { id: north.id, area_name: 'North' },
        { id: south.id, area_name: 'South' },
      ],
    });
    const sub = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
    expect((await get(t.app, '/index/fbox.user/getrule', {}, { token: sub })).json().data).toMatchObject({
      role: 'administrator',
      rules: ['minerControl', 'minerPool', 'tankControl', 'taskControl', 'alertRules'],
    });
  });

  it('accepts the form encodings of lists: "1,2", JSON text and an empty rule list', async () => {
    const a = await create(valid({ area_ids: `${north.id},${south.id}`, rules: '' }), { form: true });
    expect(a.data).toMatchObject({ rules: [], areas: [{ id: north.id }, { id: south.id }] });
    const b = await create(
      valid({
        username: 'op_bob',
        email: 'bob@example.com',
        mobile: '1 5550101',
        area_ids: JSON.stringify([south.id]),
        rules: JSON.stringify(['minerPool']),
        status: 'disabled',
      }),
      { form: true },
    );
    expect(b.data).toMatchObject({ status: 'disabled', rules: ['minerPool'], areas: [{ id: south.id }] });
  });

  const rejects: [string, Record<string, unknown>, string][] = [
    ['username required', { username: '  ' }, 'Username: is required'],
    ['username at least 3', { username: 'ab' }, 'Username: must be at least 3 characters'],
    ['username at most 50', { username: 'a'.repeat(51) }, 'Username: must be at most 50 characters'],
    ['username characters', { username: 'anna smith' }, 'Username: may use letters, digits and . _ @ - only'],
    ['password required', { password: '' }, 'Password: is required'],
    ['password 8+', { password: 'short1' }, 'Password: Please input a new password of at least 8 characters'],
    ['password 128-', { password: 'x'.repeat(129) }, 'Password: must be at most 128 characters'],
    ['password common', { password: 'Password123' }, COMMON],
    ['nickname required', { nickname: ' ' }, 'Nickname: is required'],
    ['nickname at most 50', { nickname: 'n'.repeat(51) }, 'Nickname: must be at most 50 characters'],
    ['phone required', { mobile: '' }, 'Phone: is required'],
    ['phone country code', { mobile: '8612 13800138000' }, 'Phone: number must be digits without spaces'],
    ['phone without spaces', { mobile: '86 138 0013 8000' }, 'Phone: number must be digits without spaces'],
    ['email required', { email: '' }, 'Email: is required'],
    ['email valid', { email: 'anna@' }, 'Email: must be a valid email address'],
    ['status', { status: 'paused' }, 'Status: must be enabled or disabled'],
    ['authority required', { authority: undefined }, 'Access authority: must be administrator or operator'],
    ['authority known', { authority: 'root' }, 'Access authority: must be administrator or operator'],
    ['mines required', { area_ids: [] }, 'Managed mines: choose at least one mine'],
    ['mines missing', { area_ids: undefined }, 'Managed mines: choose at least one mine'],
    ['mine ids', { area_ids: ['x'] }, 'Managed mines: is invalid'],
    ['rules known', { rules: ['minerControl', 'rootShell'] }, 'Permissions: must be a known permission'],
  ];

  for (const [name, overrides, msg] of rejects) {
    it(`rejects on create: ${name}, and writes nothing`, async () => {
      const before = await snapshot();
      const res = await create(valid(overrides));
      expect(res).toMatchObject({ code: Code.VALIDATION, msg });
      expect(res.data.errors[0].rule).toMatch(/^rule\./);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("answers another master's mine as not found and writes nothing", async () => {
    const other = await createMaster(t.app);
    const foreign = await createArea(t.app, other.id, 'Foreign');
    const before = await snapshot();
    for (const area_ids of [[foreign.id], [north.id, foreign.id], [999_999]]) {
      expect(await create(valid({ area_ids }))).toEqual({
        code: Code.NOT_FOUND,
        msg: 'Not found',
        data: null,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  describe('list', () => {
    const seed = async () => {
      const rows = [
        {
          username: 'zed',
          nickname: 'Zed Night',
          email: 'zed@mine.io',
          mobile: '1 5550001',
          status: 'enabled',
        },
        {
          username: 'amy',
          nickname: 'Amy Day',
          email: 'amy@farm.io',
          mobile: '1 5550002',
          status: 'disabled',
        },
        {
          username: 'kim',
          nickname: 'Kim 100%',
          email: 'kim@mine.io',
          mobile: '49 1510003',
          status: 'enabled',
        },
      ];
      const ids: number[] = [];
      for (const [i, row] of rows.entries()) {
        const authority = i === 1 ? 'administrator' : 'operator';
        ids.push((await create(valid({ ...row, authority }))).data.id);
      }
      // Another master's sub-account never shows.
      const other = await createMaster(t.app);
      await createSubAccount(t.app, other, [(await createArea(t.app, other.id)).id]);
      return ids;
    };
    const names = (res: { data: { items: { username: string }[] } }) => res.data.items.map((i) => i.username);

    it('pages, sorts and shows only the master own sub-accounts, newest first by default', async () => {
      await seed();
      const all = await list();
      expect(all.data).toMatchObject({ total: 3, page: 1, limit: 20 });
      expect(names(all)).toEqual(['kim', 'amy', 'zed']);
      expect(names(await list({ sort: 'username' }))).toEqual(['amy', 'kim', 'zed']);
      expect(names(await list({ sort: '-nickname' }))).toEqual(['zed', 'kim', 'amy']);
      const page2 = await list({ sort: 'username', page: '2', limit: '2' });
      expect(page2.data).toMatchObject({ total: 3, page: 2, limit: 2 });
      expect(names(page2)).toEqual(['zed']);
    });

    it('searches username, nickname, phone and email in any case, and filters by status and authority', async () => {
      await seed();
      expect(names(await list({ keyword: 'ZED' }))).toEqual(['zed']);
      expect(names(await list({ keyword: 'day' }))).toEqual(['amy']);
      expect(names(await list({ keyword: '49 151' }))).toEqual(['kim']);
      expect(names(await list({ keyword: 'MINE.IO', sort: 'username' }))).toEqual(['kim', 'zed']);
      expect(names(await list({ keyword: '100%' }))).toEqual(['kim']);
      expect(names(await list({ keyword: '%' }))).toEqual(['kim']);
      expect(names(await list({ status: 'disabled' }))).toEqual(['amy']);
      expect(names(await list({ status: 'enabled', sort: 'id' }))).toEqual(['zed', 'kim']);
      expect(names(await list({ authority: 'administrator' }))).toEqual(['amy']);
      expect(names(await list({ keyword: '', status: '' })).length).toBe(3);
    });

    it('validates the query', async () => {
      expect(await list({ sort: 'password_hash' })).toMatchObject({
        code: -2,
        msg: 'Sort: must be a sortable column',
      });
      expect(await list({ status: 'gone' })).toMatchObject({
        code: -2,
        msg: 'Status: must be enabled or disabled',
      });
      expect(await list({ limit: '501' })).toMatchObject({ code: -2 });
      expect(await list({ keyword: 'k'.repeat(101) })).toMatchObject({ code: -2 });
    });
  });

  describe('edit', () => {
    let id: number;
    beforeEach(async () => {
      id = (await create(valid())).data.id;
    });

    it('changes every field; an empty password keeps the old one', async () => {
      const res = await edit({
        id,
        username: 'op_anna2',
        password: '',
        nickname: 'Anna B',
        mobile: '49 1510000',
        email: 'anna.b@example.com',
        authority: 'operator',
        area_ids: [south.id],
        rules: ['minerPool'],
      });
      expect(res).toMatchObject({
        code: 1,
        data: {
          id,
          username: 'op_anna2',
          nickname: 'Anna B',
          mobile: '49 1510000',
          email: 'anna.b@example.com',
          areas: [{ id: south.id, area_name: 'South' }],
          rules: ['minerPool'],
        },
      });
      expect((await signIn('op_anna2', 'anna-pass-1')).code).toBe(1);
      // Its own values are not duplicates; administrators keep no rules.
      const admin = await edit({ id, email: 'ANNA.B@example.com', authority: 'administrator' });
      expect(admin.data).toMatchObject({ authority: 'administrator', rules: [] });
      expect((await edit({ id, authority: 'operator', rules: ['taskControl'] })).data.rules).toEqual([
        'taskControl',
      ]);
    });

    it('applies new rules and mines to the next request of a signed-in operator', async () => {
      const sub = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
      const rules = () =>
        get(t.app, '/index/fbox.user/getrule', {}, { token: sub }).then((r) => r.json().data.rules);
      expect(await rules()).toEqual(['minerControl', 'tankControl']);
      await edit({ id, rules: [] });
      expect(await rules()).toEqual([]);
      await edit({ id, area_ids: [south.id] });
      expect((await get(t.app, '/index/fbox.area/index', {}, { token: sub })).json().data).toEqual([
        { id: south.id, area_name: 'South', electricity_hz: 50 },
      ]);
    });

    it('ends every session at once on disable or a new password; a disabled account cannot sign in', async () => {
      const a = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
      const b = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
      const areas = (tk: string) =>
        get(t.app, '/index/fbox.area/index', {}, { token: tk }).then((r) => r.json().code);
      expect([await areas(a), await areas(b)]).toEqual([1, 1]);
      expect((await edit({ id, status: 'disabled' })).data.status).toBe('disabled');
      expect([await areas(a), await areas(b)]).toEqual([Code.NOT_LOGGED_IN, Code.NOT_LOGGED_IN]);
      const revoked = await t.app.db
        .selectFrom('sessions')
        .select('revoked_at')
        .where('user_id', '=', id)
        .execute();
      expect(revoked.every((s) => s.revoked_at !== null)).toBe(true);
      expect((await signIn('op_anna', 'anna-pass-1')).code).toBe(Code.LOGIN_FAILED);

      await edit({ id, status: 'enabled' });
      const c = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
      expect(await areas(c)).toBe(1);
      await edit({ id, password: 'new-anna-pass' });
      expect(await areas(c)).toBe(Code.NOT_LOGGED_IN);
      expect((await signIn('op_anna', 'new-anna-pass')).code).toBe(1);
    });

    const editRejects: [string, Record<string, unknown>, string][] = [
      ['id', { id: 'abc' }, 'Id: is invalid'],
      ['username', { username: 'a b' }, 'Username: may use letters, digits and . _ @ - only'],
      ['password', { password: 'short' }, 'Password: Please input a new password of at least 8 characters'],
      ['common password', { password: 'qwertyuiop' }, COMMON],
      ['nickname', { nickname: '' }, 'Nickname: is required'],
      ['phone', { mobile: '86' }, 'Phone: number must be digits without spaces'],
      ['email', { email: 'nope' }, 'Email: must be a valid email address'],
      ['status', { status: 'on hold' }, 'Status: must be enabled or disabled'],
      ['authority', { authority: 'owner' }, 'Access authority: must be administrator or operator'],
      ['mines', { area_ids: [] }, 'Managed mines: choose at least one mine'],
      ['rules', { rules: ['x'] }, 'Permissions: must be a known permission'],
    ];
    for (const [name, body, msg] of editRejects) {
      it(`rejects on edit: ${name}, and changes nothing`, async () => {
        const before = await snapshot();
        expect(await edit({ id, nickname: 'Changed', ...body })).toMatchObject({ code: -2, msg });
        expect(await snapshot()).toEqual(before);
      });
    }

    it('refuses duplicates and foreign mines on edit, and changes nothing', async () => {
      await create(valid({ username: 'op_bob', email: 'bob@example.com', mobile: '1 5550101' }));
      const other = await createMaster(t.app);
      const foreign = await createArea(t.app, other.id);
      const before = await snapshot();
      expect((await edit({ id, nickname: 'X', username: 'OP_BOB' })).code).toBe(Code.CONFLICT);
      expect((await edit({ id, nickname: 'X', email: 'bob@example.com' })).code).toBe(Code.CONFLICT);
      expect((await edit({ id, nickname: 'X', mobile: '1 5550101' })).code).toBe(Code.CONFLICT);
      expect((await edit({ id, nickname: 'X', area_ids: [foreign.id] })).code).toBe(Code.NOT_FOUND);
      expect(await snapshot()).toEqual(before);
    });
  });

  it("answers another master's sub-account, a master or an unknown id as not found", async () => {
    const other = await createMaster(t.app);
    const theirs = await createSubAccount(t.app, other, [(await createArea(t.app, other.id)).id]);
    const before = await snapshot();
    for (const target of [theirs.id, other.id, master.id, 999_999]) {
      expect(await edit({ id: target, nickname: 'Stolen' })).toEqual({
        code: -3,
        msg: 'Not found',
        data: null,
      });
      const del = (await post(t.app, DELETE, { id: target }, { token })).json();
      expect(del).toEqual({ code: -3, msg: 'Not found', data: null });
    }
    expect(await snapshot()).toEqual(before);
    expect((await login(t.app, theirs)).length).toBeGreaterThan(0);
  });

  it('deletes a sub-account and ends its sessions at once', async () => {
    const { id } = (await create(valid())).data;
    const sub = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
    const res = (await post(t.app, DELETE, { id: String(id) }, { token, form: true })).json();
    expect(res).toEqual({ code: 1, msg: 'Modified successfully', data: null });
    expect((await get(t.app, '/index/fbox.area/index', {}, { token: sub })).json().code).toBe(
      Code.NOT_LOGGED_IN,
    );
    expect((await list()).data.total).toBe(0);
    expect(await areaRows()).toEqual([]);
    expect((await signIn('op_anna', 'anna-pass-1')).code).toBe(Code.LOGIN_FAILED);
    // The username is free again.
    expect((await create(valid())).code).toBe(1);
  });

  it('drops a deleted mine from the sub-accounts that managed it', async () => {
    const { id } = (await create(valid({ area_ids: [north.id, south.id] }))).data;
    const sub = (await signIn('op_anna', 'anna-pass-1')).data.logintoken;
    expect((await post(t.app, '/index/fbox.area/deleted', { id: north.id }, { token })).json().code).toBe(1);
    expect((await list()).data.items[0]).toMatchObject({ id, areas: [{ id: south.id, area_name: 'South' }] });
    expect((await get(t.app, '/index/fbox.area/index', {}, { token: sub })).json().data).toEqual([
      { id: south.id, area_name: 'South', electricity_hz: 50 },
    ]);
  });

  it('refuses every sub-account endpoint to sub-accounts, administrators included; nothing changes', async () => {
    const admin = await createSubAccount(t.app, master, [north.id], { authority: 'administrator' });
    const adminToken = await login(t.app, admin);
    const before = await snapshot();
    expect((await list({}, adminToken)).code).toBe(Code.FORBIDDEN);
    expect((await create(valid(), { token: adminToken })).code).toBe(Code.FORBIDDEN);
    expect((await edit({ id: admin.id, authority: 'administrator' }, adminToken)).code).toBe(Code.FORBIDDEN);
    expect((await post(t.app, DELETE, { id: admin.id }, { token: adminToken })).json().code).toBe(
      Code.FORBIDDEN,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses sub-account changes in the service itself when the caller is not a master', async () => {
    const admin = await createSubAccount(t.app, master, [north.id], { authority: 'administrator' });
    const caller = { id: admin.id, role: 'administrator' as const };
    await expect(t.app.subAccounts.list(caller, { page: 1, limit: 20 })).rejects.toMatchObject({
      code: Code.FORBIDDEN,
    });
    await expect(t.app.subAccounts.delete(caller, admin.id)).rejects.toMatchObject({ code: Code.FORBIDDEN });
    expect((await userRows()).map((u) => u.id)).toContain(admin.id);
  });
});
