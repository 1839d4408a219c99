import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMiners } from '../../test/device-factories.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const CREATE = '/index/fbox.area/create';
const EDIT = '/index/fbox.area/edit';
const DELETE = '/index/fbox.area/deleted';
const MINES = '/index/fbox.area/mines';
const AREAS = '/index/fbox.area/index';
const PREVIEW = '/index/fbox.area/delete_preview';
const REGENERATE = '/index/fbox.area/regenerate_key';

describeDb('Manage Mines', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
  });
  afterEach(() => t.close());

  const mines = async (tk = token) => (await get(t.app, MINES, {}, { token: tk })).json();
  const valid = {
    area_name: 'North',
    electricity_hz: 60,
    electricity_price: '0.065',
    comment: 'c',
    contact: 'Ana +1 555',
  };

  it('creates a mine with every field and a fresh 128-bit Agent Key', async () => {
    const res = (await post(t.app, CREATE, valid, { token, form: true })).json();
    expect(res).toMatchObject({ code: 1, data: { area_name: 'North', electricity_hz: 60 } });
    const list = (await mines()).data;
    expect(list).toEqual([
      {
        id: res.data.id,
        area_name: 'North',
        electricity_hz: 60,
        electricity_price: 0.065,
        comment: 'c',
        contact: 'Ana +1 555',
        agent_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        created_at: t.clock.ms,
      },
    ]);
    // The selector's list keeps its shape: no management fields, no Agent Key.
    expect((await get(t.app, AREAS, {}, { token })).json().data).toEqual([
      { id: res.data.id, area_name: 'North', electricity_hz: 60 },
    ]);
    const other = (await post(t.app, CREATE, { ...valid, area_name: 'South' }, { token })).json();
    const keys = (await mines()).data.map((m: { agent_key: string }) => m.agent_key);
    expect(other.code).toBe(1);
    expect(new Set(keys).size).toBe(2);
  });

  it('validates every field of a new mine and writes nothing on failure', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ area_name: 'A' }, 'Electricity price: is required'],
      [{ area_name: 'A', electricity_price: '' }, 'Electricity price: is required'],
      [{ area_name: 'A', electricity_price: '  ' }, 'Electricity price: is required'],
      [{ area_name: 'A', electricity_price: 'abc' }, 'Electricity price: must be a valid number'],
      [{ area_name: 'A', electricity_price: '1e3' }, 'Electricity price: must be a valid number'],
      [{ area_name: 'A', electricity_price: '0x10' }, 'Electricity price: must be a valid number'],
      // Plain decimals only (issue 10): padding is not part of a number.
      [{ area_name: 'A', electricity_price: ' 12 ' }, 'Electricity price: must be a valid number'],
      [{ area_name: 'A', electricity_price: true }, 'Electricity price: must be a valid number'],
      [{ area_name: 'A', electricity_price: '0' }, 'Electricity price: must be a number greater than 0'],
      [{ area_name: 'A', electricity_price: 0 }, 'Electricity price: must be a number greater than 0'],
      [{ area_name: 'A', electricity_price: '-1' }, 'Electricity price: must be a number greater than 0'],
      [{ area_name: 'A', electricity_price: -0.5 }, 'Electricity price: must be a number greater than 0'],
      [{ area_name: 'A', electricity_price: 2_000_000 }, 'Electricity price: must be at most 1000000'],
      [{ area_name: '', electricity_price: 1 }, 'Mine name: is required'],
      [{ area_name: '   ', electricity_price: 1 }, 'Mine name: is required'],
      [{ area_name: 'x'.repeat(51), electricity_price: 1 }, 'Mine name: must be at most 50 characters'],
      [
        { area_name: 'A', electricity_price: 1, electricity_hz: 55 },
        'Electricity frequency: must be 50 or 60',
      ],
      [
        { area_name: 'A', electricity_price: 1, electricity_hz: 'x' },
        'Electricity frequency: must be 50 or 60',
      ],
      [
        { area_name: 'A', electricity_price: 1, comment: 'c'.repeat(501) },
        'Comment: must be at most 500 characters',
      ],
      [
        { area_name: 'A', electricity_price: 1, contact: 'c'.repeat(201) },
        'Coordinator contact: must be at most 200 characters',
      ],
    ];
    for (const [body, msg] of cases) {
      for (const form of [false, true]) {
        if (form && typeof body.electricity_price !== 'string' && body.electricity_price !== undefined)
          continue;
        const res = (await post(t.app, CREATE, body, { token, form })).json();
        expect({ body, form, res }).toMatchObject({ res: { code: Code.VALIDATION, msg } });
      }
    }
    expect((await mines()).data).toEqual([]);
    // A valid price of each spelling passes.
    for (const [name, price, stored] of [
      ['P1', '0.5', 0.5],
      ['P2', '12', 12],
      ['P3', '.25', 0.25],
      ['P4', 3, 3],
    ] as const) {
      expect(
        (await post(t.app, CREATE, { area_name: name, electricity_price: price }, { token })).json().code,
      ).toBe(1);
      expect(
        (await mines()).data.find((m: { area_name: string }) => m.area_name === name).electricity_price,
      ).toBe(stored);
    }
  });

  it('edits the fields sent, with the same rules, and nothing on a bad one', async () => {
    const { id } = (await post(t.app, CREATE, valid, { token })).json().data;
    const before = (await mines()).data[0];
    for (const [body, msg] of [
      [{ electricity_price: '0' }, 'Electricity price: must be a number greater than 0'],
      [{ electricity_price: 'cheap' }, 'Electricity price: must be a valid number'],
      [{ electricity_price: '' }, 'Electricity price: is required'],
      [{ area_name: '' }, 'Mine name: is required'],
      [{ electricity_hz: 40 }, 'Electricity frequency: must be 50 or 60'],
      [{ comment: 'x'.repeat(501) }, 'Comment: must be at most 500 characters'],
    ] as const) {
      expect((await post(t.app, EDIT, { id, ...body }, { token })).json()).toMatchObject({ code: -2, msg });
    }
    expect((await mines()).data[0]).toEqual(before);
    const res = await post(
      t.app,
      EDIT,
      { id, electricity_price: '0.07', comment: '', contact: 'Bo' },
      { token, form: true },
    );
    expect(res.json()).toEqual({
      code: 1,
      msg: 'Modified successfully',
      data: { id, area_name: 'North', electricity_hz: 60 },
    });
    expect((await mines()).data[0]).toEqual({
      ...before,
      electricity_price: 0.07,
      comment: '',
      contact: 'Bo',
    });
  });

  it('gives internal callers the default price 0.05 per kWh', async () => {
    await createArea(t.app, master.id, 'Seeded');
    expect((await mines()).data[0]).toMatchObject({ area_name: 'Seeded', electricity_price: 0.05 });
  });

  it('scopes mines to sub-accounts: administrators manage theirs, operators never see an Agent Key', async () => {
    const a = await createArea(t.app, master.id, 'A');
    const b = await createArea(t.app, master.id, 'B');
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [a.id], { authority: 'administrator' }),
    );
    const operator = await login(t.app, await createSubAccount(t.app, master, [a.id]));
    const keyOfA = (await mines()).data.find((m: { id: number }) => m.id === a.id).agent_key;

    const adminList = (await mines(admin)).data;
    expect(adminList).toEqual([expect.objectContaining({ id: a.id, agent_key: keyOfA })]);
    // Operators: no Manage Mines list, and the selector list never carries keys.
    expect((await mines(operator)).code).toBe(Code.FORBIDDEN);
    const opAreas = await get(t.app, AREAS, {}, { token: operator });
    expect(opAreas.json().data).toEqual([a]);
    expect(opAreas.body).not.toContain(keyOfA);
    expect((await post(t.app, REGENERATE, { id: a.id }, { token: operator })).json().code).toBe(
      Code.FORBIDDEN,
    );
    expect((await post(t.app, EDIT, { id: a.id, comment: 'op' }, { token: operator })).json().code).toBe(
      Code.FORBIDDEN,
    );

    // The administrator edits its mine; another mine of the same master is "not found".
    expect((await post(t.app, EDIT, { id: a.id, comment: 'by admin' }, { token: admin })).json().code).toBe(
      1,
    );
    for (const [url, body] of [
      [EDIT, { id: b.id, comment: 'x' }],
      [REGENERATE, { id: b.id }],
    ] as const) {
      expect((await post(t.app, url, body, { token: admin })).json()).toEqual({
        code: Code.NOT_FOUND,
        msg: 'Not found',
        data: null,
      });
    }
    // Creating and deleting stay with the master.
    expect(
      (await post(t.app, CREATE, { area_name: 'C', electricity_price: 1 }, { token: admin })).json().code,
    ).toBe(Code.FORBIDDEN);
    expect((await post(t.app, DELETE, { id: a.id }, { token: admin })).json().code).toBe(Code.FORBIDDEN);
    expect((await get(t.app, PREVIEW, { id: String(a.id) }, { token: admin })).json().code).toBe(
      Code.FORBIDDEN,
    );
    expect((await mines()).data.map((m: { comment: string }) => m.comment)).toEqual(['by admin', '']);
  });

  it('regenerates the Agent Key for master and administrator', async () => {
    const a = await createArea(t.app, master.id, 'A');
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [a.id], { authority: 'administrator' }),
    );
    const first = (await mines()).data[0].agent_key;
    const res = (await post(t.app, REGENERATE, { id: a.id }, { token })).json();
    expect(res).toMatchObject({ code: 1, data: { agent_key: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect(res.data.agent_key).not.toBe(first);
    expect((await mines()).data[0].agent_key).toBe(res.data.agent_key);
    const byAdmin = (await post(t.app, REGENERATE, { id: a.id }, { token: admin })).json();
    expect(byAdmin.code).toBe(1);
    expect((await mines()).data[0].agent_key).toBe(byAdmin.data.agent_key);
  });

  it("hides another master's mines: not found for every call, nothing changes", async () => {
    const mine = await createArea(t.app, master.id, 'Mine A');
    const before = (await mines()).data;
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await mines(intruder)).data).toEqual([]);
    for (const [url, body] of [
      [EDIT, { id: mine.id, electricity_price: 9 }],
      [REGENERATE, { id: mine.id }],
      [DELETE, { id: mine.id }],
      ['/index/fbox.area/revoke_client', { area_id: mine.id, id: 1 }],
    ] as const) {
      expect((await post(t.app, url, body, { token: intruder })).json()).toMatchObject({
        code: Code.NOT_FOUND,
      });
    }
    for (const [url, query] of [
      [PREVIEW, { id: String(mine.id) }],
      ['/index/fbox.area/clients', { area_id: String(mine.id) }],
    ] as const) {
      expect((await get(t.app, url, query, { token: intruder })).json()).toMatchObject({
        code: Code.NOT_FOUND,
      });
    }
    expect((await mines()).data).toEqual(before);
  });

  it('names what a delete takes, then deletes the mine with its devices', async () => {
    const a = await createArea(t.app, master.id, 'Doomed');
    const keep = await createArea(t.app, master.id, 'Kept');
    await createSubAccount(t.app, master, [a.id]);
    const box = await createFbox(t.app, a.id, { tanks: 2 });
    await createFbox(t.app, a.id, { tanks: 1 });
    await createFbox(t.app, keep.id, { tanks: 1 });
    await createMiners(t.app, { id: box.id, areaId: a.id, deviceId: box.device_id }, [
      { sn: 'S1' },
      { sn: 'S2' },
      { sn: 'S3' },
    ]);
    const preview = (await get(t.app, PREVIEW, { id: String(a.id) }, { token })).json();
    expect(preview).toEqual({
      code: 1,
      msg: 'Success',
      data: { id: a.id, area_name: 'Doomed', fboxes: 2, tanks: 3, miners: 3, sub_accounts: 1, clients: 0 },
    });
    expect((await get(t.app, PREVIEW, { id: 'abc' }, { token })).json().code).toBe(Code.VALIDATION);
    expect((await post(t.app, DELETE, { id: a.id }, { token })).json().code).toBe(1);
    expect((await mines()).data.map((m: { id: number }) => m.id)).toEqual([keep.id]);
    const left = await t.app.db.selectFrom('fboxes').select('area_id').execute();
    expect(left).toEqual([{ area_id: keep.id }]);
    expect((await get(t.app, PREVIEW, { id: String(a.id) }, { token })).json().code).toBe(Code.NOT_FOUND);
  });
});
