import { Code } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

/**
 * Reading the log: who sees which records, filters, paging and the CSV export. A master sees its
 * account's records; an administrator those in its mines plus its own; an operator only its own.
 */
describeDb('operation log: reading', () => {
  let t: TestApp;
  let master: TestUser;
  let admin: TestUser;
  let operator: TestUser;
  let other: TestUser;
  const tokens: Record<'master' | 'admin' | 'operator' | 'other', string> = {
    master: '',
    admin: '',
    operator: '',
    other: '',
  };
  let north: number;
  let south: number;
  let foreign: number;

  beforeAll(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app, { username: 'boss' });
    other = await createMaster(t.app, { username: 'stranger' });
    north = (await createArea(t.app, master.id, 'North')).id;
    south = (await createArea(t.app, master.id, 'South')).id;
    foreign = (await createArea(t.app, other.id, 'Elsewhere')).id;
    admin = await createSubAccount(t.app, master, [north], { authority: 'administrator' });
    operator = await createSubAccount(t.app, master, [north]);
    // One call per user, 1 minute apart, so the order is known.
    const step = () => t.clock.advance(60_000);
    tokens.master = await login(t.app, master);
    step();
    tokens.admin = await login(t.app, admin);
    step();
    tokens.operator = await login(t.app, operator);
    step();
    tokens.other = await login(t.app, other);
    step();
    const as = (who: keyof typeof tokens, path: string, body: Record<string, unknown>) =>
      post(t.app, path, body, { token: tokens[who] }).then((r) => r.json());
    expect(
      (await as('master', '/index/fbox.boxlist/create', { area_id: south, name: '=cmd|calc', kind: 'air' }))
        .code,
    ).toBe(1);
    step();
    expect(
      (await as('master', '/index/fbox.boxlist/create', { area_id: north, name: 'N1', kind: 'air' })).code,
    ).toBe(1);
    step();
    expect(
      (await as('admin', '/index/fbox.boxlist/create', { area_id: north, name: 'N2', kind: 'air' })).code,
    ).toBe(1);
    step();
    expect((await as('operator', '/index/fbox.miner/restart', { area_id: north, ids: [999] })).code).toBe(1);
    step();
    expect(
      (await as('other', '/index/fbox.boxlist/create', { area_id: foreign, name: 'F1', kind: 'air' })).code,
    ).toBe(1);
    step();
    expect((await as('master', '/index/fbox.area/edit', { id: north, area_name: 'North' })).code).toBe(1);
  });
  afterAll(() => t.close());

  const list = async (who: keyof typeof tokens, query: Record<string, string | number> = {}) => {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return (await get(t.app, '/index/fbox.oplog/index', q, { token: tokens[who] })).json();
  };
  const summary = (items: { username: string; action: string; target: string }[]) =>
    items.map((i) => `${i.username} ${i.action} ${i.target}`.trim());

  it("shows a master its own and its sub-accounts' records, newest first", async () => {
    const res = await list('master');
    expect(res.code).toBe(1);
    expect(summary(res.data.items)).toEqual([
      `boss areaEdit #${north} North`,
      `${operator.username} minerRestart #999`,
      `${admin.username} fboxCreate N2`,
      'boss fboxCreate N1',
      'boss fboxCreate =cmd|calc',
      `${operator.username} login ${operator.username}`,
      `${admin.username} login ${admin.username}`,
      'boss login boss',
    ]);
    expect(res.data.total).toBe(8);
  });

  it('shows an administrator the records of its mines and its own, an operator only its own', async () => {
    expect(summary((await list('admin')).data.items)).toEqual([
      `${operator.username} minerRestart #999`,
      `${admin.username} fboxCreate N2`,
      'boss fboxCreate N1',
      `${admin.username} login ${admin.username}`,
    ]);
    expect(summary((await list('operator')).data.items)).toEqual([
      `${operator.username} minerRestart #999`,
      `${operator.username} login ${operator.username}`,
    ]);
    expect(summary((await list('other')).data.items)).toEqual([
      'stranger fboxCreate F1',
      'stranger login stranger',
    ]);
  });

  it('filters by user, action, mine, outcome and time, and pages', async () => {
    expect(summary((await list('master', { user_id: admin.id })).data.items)).toEqual([
      `${admin.username} fboxCreate N2`,
      `${admin.username} login ${admin.username}`,
    ]);
    expect((await list('master', { action: 'fboxCreate' })).data.total).toBe(3);
    expect(summary((await list('master', { mine_id: south })).data.items)).toEqual([
      'boss fboxCreate =cmd|calc',
    ]);
    expect((await list('master', { outcome: 'failed' })).data.total).toBe(0);
    const start = Date.UTC(2025, 0, 1);
    // [start + 4 min, start + 6 min): the two creates of 4 and 5 minutes after the start.
    expect(
      summary((await list('master', { from: start + 240_000, to: start + 360_000 })).data.items),
    ).toEqual(['boss fboxCreate N1', 'boss fboxCreate =cmd|calc']);
    const page2 = (await list('master', { page: 2, limit: 3 })).data;
    expect(page2).toMatchObject({ page: 2, limit: 3, total: 8 });
    expect(summary(page2.items)).toEqual([
      'boss fboxCreate N1',
      'boss fboxCreate =cmd|calc',
      `${operator.username} login ${operator.username}`,
    ]);
    expect((await list('master', { from: 5, to: 5 })).code).toBe(Code.VALIDATION);
  });

  it('answers "not found" for a user or mine filter outside the reader\'s scope', async () => {
    expect((await list('master', { user_id: other.id })).code).toBe(Code.NOT_FOUND);
    expect((await list('master', { mine_id: foreign })).code).toBe(Code.NOT_FOUND);
    expect((await list('admin', { mine_id: south })).code).toBe(Code.NOT_FOUND);
    expect((await list('operator', { user_id: master.id })).code).toBe(Code.NOT_FOUND);
    expect((await list('operator', { user_id: operator.id })).code).toBe(1);
  });

  it("lists the users of the reader's records for the user filter", async () => {
    const users = async (who: keyof typeof tokens) =>
      (await get(t.app, '/index/fbox.oplog/users', {}, { token: tokens[who] })).json().data;
    expect(await users('master')).toEqual(
      [
        { id: master.id, username: 'boss' },
        { id: admin.id, username: admin.username },
        { id: operator.id, username: operator.username },
      ].sort((a, b) => a.username.localeCompare(b.username)),
    );
    expect(await users('operator')).toEqual([{ id: operator.id, username: operator.username }]);
  });

  it("exports the filtered records as CSV in the reader's language and time zone", async () => {
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+8' }).where('id', '=', master.id).execute();
    const res = await get(
      t.app,
      '/index/fbox.oplog/export',
      { action: 'fboxCreate' },
      {
        token: tokens.master,
        headers: { lang: 'zh-cn' },
      },
    );
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('operation-log-2025-01-01.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('时间（UTC+8）,用户,IP,矿场,操作,对象,参数,结果,信息');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      /^2025-01-01 08:06:00,[^,]+,[^,]*,North,新建 FBOX,N2,"\{""area_id"":\d+,""name"":""N2"",""kind"":""air""\}",成功,修改成功$/,
    );
    // A name starting with "=" cannot run as a spreadsheet formula.
    expect(lines[3]).toContain(",'=cmd|calc,");
    const foreignFilter = await get(
      t.app,
      '/index/fbox.oplog/export',
      { mine_id: String(foreign) },
      { token: tokens.master },
    );
    expect(foreignFilter.json().code).toBe(Code.NOT_FOUND);
  });
});
