import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
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

const LIST = '/index/fbox.area/index';

describeDb('areas (mines)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
  });
  afterEach(() => t.close());

  const list = async (tk = token) => (await get(t.app, LIST, {}, { token: tk })).json().data;

  it('creates, lists in id order, renames and deletes', async () => {
    const a = (
      await post(
        t.app,
        '/index/fbox.area/create',
        { area_name: ' North ', electricity_price: '0.08' },
        { token, form: true },
      )
    ).json();
    expect(a).toMatchObject({ code: 1, data: { area_name: 'North', electricity_hz: 50 } });
    const b = (
      await post(
        t.app,
        '/index/fbox.area/create',
        { area_name: 'South', electricity_hz: 60, electricity_price: 0.1 },
        { token },
      )
    ).json();
    expect(await list()).toEqual([a.data, b.data]);

    const edit = await post(
      t.app,
      '/index/fbox.area/edit',
      { id: a.data.id, area_name: 'North 2' },
      { token, form: true },
    );
    expect(edit.json()).toMatchObject({
      code: 1,
      data: { id: a.data.id, area_name: 'North 2', electricity_hz: 50 },
    });
    const del = await post(
      t.app,
      '/index/fbox.area/deleted',
      { id: String(b.data.id) },
      { token, form: true },
    );
    expect(del.json()).toMatchObject({ code: 1, data: null });
    expect(await list()).toEqual([{ id: a.data.id, area_name: 'North 2', electricity_hz: 50 }]);
  });

  it('refuses a duplicate name of the same owner, allows it for another owner', async () => {
    await createArea(t.app, master.id, 'Alpha');
    const beta = await createArea(t.app, master.id, 'Beta');
    const dup = await post(
      t.app,
      '/index/fbox.area/create',
      { area_name: 'Alpha', electricity_price: 1 },
      { token },
    );
    // Said on the field that caused it.
    expect(dup.json()).toEqual({
      code: Code.CONFLICT,
      msg: 'A mine with this name already exists',
      data: {
        errors: [
          { field: 'area_name', rule: 'api.areaNameTaken', message: 'A mine with this name already exists' },
        ],
      },
    });
    const rename = await post(t.app, '/index/fbox.area/edit', { id: beta.id, area_name: 'Alpha' }, { token });
    expect(rename.json().code).toBe(Code.CONFLICT);
    const other = await login(t.app, await createMaster(t.app));
    expect(
      (
        await post(
          t.app,
          '/index/fbox.area/create',
          { area_name: 'Alpha', electricity_price: 1 },
          { token: other },
        )
      ).json().code,
    ).toBe(1);
  });

  it("hides another master's areas: not found, nothing changes", async () => {
    const mine = await createArea(t.app, master.id, 'Mine A');
    const intruder = await login(t.app, await createMaster(t.app));
    expect(await list(intruder)).toEqual([]);
    for (const [url, body] of [
      ['/index/fbox.area/edit', { id: mine.id, area_name: 'Stolen' }],
      ['/index/fbox.area/deleted', { id: mine.id }],
      ['/index/fbox.area/edit', { id: 999_999, area_name: 'Ghost' }],
    ] as const) {
      expect((await post(t.app, url, body, { token: intruder })).json()).toEqual({
        code: Code.NOT_FOUND,
        msg: 'Not found',
        data: null,
      });
    }
    expect(await list()).toEqual([mine]);
  });

  it('lets a sub-account list its assigned areas; an operator changes none', async () => {
    const a = await createArea(t.app, master.id, 'A');
    await createArea(t.app, master.id, 'B');
    const sub = await login(t.app, await createSubAccount(t.app, master, [a.id]));
    expect(await list(sub)).toEqual([a]);
    const res = (
      await post(t.app, '/index/fbox.area/create', { area_name: 'C', electricity_price: 1 }, { token: sub })
    ).json();
    expect(res).toEqual({ code: Code.FORBIDDEN, msg: 'You are not allowed to do this', data: null });
    expect((await post(t.app, '/index/fbox.area/deleted', { id: a.id }, { token: sub })).json().code).toBe(
      -4,
    );
    expect(
      (await post(t.app, '/index/fbox.area/edit', { id: a.id, area_name: 'Z' }, { token: sub })).json().code,
    ).toBe(-4);
    expect(await list()).toHaveLength(2);
  });

  it('validates the body', async () => {
    const empty = (await post(t.app, '/index/fbox.area/create', {}, { token })).json();
    expect(empty).toMatchObject({ code: -2, msg: 'Mine name: is required' });
    const hz = (
      await post(
        t.app,
        '/index/fbox.area/create',
        { area_name: 'X', electricity_hz: 55, electricity_price: 1 },
        { token },
      )
    ).json();
    expect(hz).toMatchObject({ code: -2, msg: 'Electricity frequency: must be 50 or 60' });
    const long = (
      await post(
        t.app,
        '/index/fbox.area/create',
        { area_name: 'x'.repeat(51), electricity_price: 1 },
        { token },
      )
    ).json();
    expect(long).toMatchObject({ code: -2, msg: 'Mine name: must be at most 50 characters' });
    const id = (await post(t.app, '/index/fbox.area/deleted', { id: '1 OR 1=1' }, { token })).json();
    expect(id).toMatchObject({ code: -2, msg: 'Id: is invalid' });
    expect(await list()).toEqual([]);
  });
});

describeDb('unread messages', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('counts unread messages of the caller, per area plus area-less ones', async () => {
    t = await buildTestApp();
    const user = await createMaster(t.app);
    const other = await createMaster(t.app);
    const a = await createArea(t.app, user.id, 'A');
    const b = await createArea(t.app, user.id, 'B');
    const row = { level: 1, title: 't', content: 'c', created_at: 1 };
    await t.app.db
      .insertInto('messages')
      .values([
        { ...row, user_id: user.id, area_id: a.id },
        { ...row, user_id: user.id, area_id: b.id },
        { ...row, user_id: user.id, area_id: null },
        { ...row, user_id: user.id, area_id: a.id, read_at: 2 },
        { ...row, user_id: other.id, area_id: null },
      ])
      .execute();
    const token = await login(t.app, user);
    const count = async (query: Record<string, string> = {}) =>
      (await get(t.app, '/index/fbox.message/unread', query, { token })).json();
    expect(await count()).toEqual({ code: 1, msg: 'Success', data: { count: 3 } });
    expect((await count({ area_id: String(a.id) })).data.count).toBe(2);
    expect((await count({ area_id: 'abc' })).code).toBe(-2);
  });
});
