import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank, type TestFbox } from '../../test/device-factories.js';
import { createMaster, get, login, post, type TestUser } from '../../test/factories.js';

describeDb('tank API (fbox.oillist)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: TestFbox;
  let tankId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await t.app.areas.create(master.id, { area_name: 'Sixty', electricity_hz: 60 })).id;
    box = await createFbox(t.app, areaId, { name: 'Box 1', state: { online: 1 } });
    tankId = await createTank(t.app, box, 1, {
      name: 'Tank A',
      state: {
        online: 1,
        oil_in_temp: 40.5,
        fans: JSON.stringify([3000, 6000, -999]),
        oil_pump_efficiency: 4500,
        energy_saving: 1,
        control_mode: 'manual',
        main_temperatures: JSON.stringify([41, -999]),
      },
    });
    await createMiners(t.app, box, [
      { sn: 'A', tank_id: tankId, online: 1, hashrate_realtime: 100 },
      { sn: 'B', tank_id: tankId, online: 0, hashrate_realtime: -999 },
    ]);
  });
  afterEach(() => t.close());

  const call = async (path: string, body: Record<string, unknown>, tk = token) =>
    (await post(t.app, `/index/fbox.oillist/${path}`, { area_id: areaId, ...body }, { token: tk })).json();
  const read = async (path: string, query: Record<string, string | number>, tk = token) =>
    (
      await get(
        t.app,
        `/index/fbox.oillist/${path}`,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: tk },
      )
    ).json();

  it('answers the detail with loads in percent of the 60 Hz base and its miners', async () => {
    const d = (await read('detail', { id: tankId })).data;
    expect(d).toMatchObject({
      name: 'Tank A',
      fbox_name: 'Box 1',
      fbox_status: 'online',
      status: 'online',
      oil_in_temp: 40.5,
      oil_out_temp: -999,
      energy_saving: true,
      control_mode: 'manual',
      electricity_hz: 60,
      oil_pump_percent: 75,
      main_temperatures: [41, -999],
      miner_count: 2,
      miner_online: 1,
      miner_offline: 1,
      hashrate: 100,
    });
    expect(d.fans).toEqual([
      { no: 1, value: 3000, percent: 50 },
      { no: 2, value: 6000, percent: 100 },
      { no: 3, value: -999, percent: null },
    ]);
  });

  it('lists, searches and offers tanks for selects', async () => {
    const second = await createTank(t.app, box, 2, { name: 'Tank B' });
    const list = (await read('index', { sort: '-hashrate' })).data;
    expect(list).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(list.items.map((i: { id: number }) => i.id)).toEqual([tankId, second]);
    expect((await read('index', { status: 'offline' })).data.items.map((i: { id: number }) => i.id)).toEqual([
      second,
    ]);
    expect((await read('index', { keyword: 'b', fbox_id: box.id })).data.total).toBe(1);
    expect((await read('search_tank', { keyword: 'tank a' })).data).toEqual([
      { id: tankId, name: 'Tank A', fbox_name: 'Box 1' },
    ]);
    expect((await read('gettanklist', { fbox_id: box.id })).data).toEqual([
      { id: tankId, name: 'Tank A', no: 1 },
      { id: second, name: 'Tank B', no: 2 },
    ]);
  });

  it('adds, edits and deletes tanks with validation', async () => {
    expect(await call('add_tank', { fbox_id: box.id, name: '  ' })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'name', rule: 'rule.tankName', message: 'Tank name not empty' }] },
    });
    expect(await call('add_tank', { fbox_id: box.id, name: 'X', no: 65 })).toMatchObject({ code: -2 });
    expect(await call('add_tank', { fbox_id: box.id, name: 'X', no: 1 })).toMatchObject({
      code: Code.CONFLICT,
      data: { errors: [{ field: 'no' }] },
    });
    const added = await call('add_tank', { fbox_id: box.id, name: 'Tank C', work_number: 'W-3' });
    expect(added).toMatchObject({
      code: 1,
      data: { name: 'Tank C', no: 2, work_number: 'W-3', status: 'offline' },
    });
    const edited = await call('edit', { id: added.data.id, name: 'Tank C2' });
    expect(edited).toMatchObject({ code: 1, data: { name: 'Tank C2' } });
    expect(await call('deleted', { id: tankId })).toMatchObject({ code: 1 });
    expect(await t.app.db.selectFrom('miner_state').select('tank_id').execute()).toEqual([
      { tank_id: null },
      { tank_id: null },
    ]);
  });

  it('sends tank controls as commands with per-tank outcomes', async () => {
    const oil = await call('oil_setting', { id: tankId, energy_saving: 'off' });
    expect(oil).toMatchObject({ code: 1, data: { status: 'pending' } });
    await call('controller_switch', { id: tankId, control_mode: 'auto' });
    await call('controller_switch_v2', { id: tankId, device: 'fan', no: 2, status: 'on', speed: 2500 });
    expect(await call('controller_switch', { id: tankId, control_mode: 'both' })).toMatchObject({
      code: -2,
      msg: 'Control mode: must be auto or manual',
    });
    const many = await call('multipleoperate', { ids: [tankId, 999999], action: 'energy_saving_on' });
    expect(many.data.commands).toEqual([
      { tank_id: tankId, command_id: expect.any(String), status: 'pending' },
      { tank_id: 999999, command_id: null, status: 'not_found' },
    ]);
    const rows = await t.app.db.selectFrom('commands').selectAll().orderBy('created_at').execute();
    expect(rows.map((r) => [r.kind, JSON.parse(r.target), JSON.parse(r.params), r.tank_id])).toEqual([
      ['tank.oil_setting', { tank_no: 1 }, { energy_saving: false }, tankId],
      ['tank.controller_switch', { tank_no: 1 }, { control_mode: 'auto' }, tankId],
      ['tank.controller_switch', { tank_no: 1 }, { device: 'fan', no: 2, status: 'on', speed: 2500 }, tankId],
      ['tank.oil_setting', { tank_no: 1 }, { energy_saving: true }, tankId],
    ]);
    expect(rows[3]!.batch_id).toBe(many.data.batch_id);
  });

  it("hides another master's tanks and sends nothing for them", async () => {
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await read('detail', { id: tankId }, intruder)).code).toBe(Code.NOT_FOUND);
    expect((await call('oil_setting', { id: tankId, energy_saving: 'on' }, intruder)).code).toBe(
      Code.NOT_FOUND,
    );
    expect((await call('edit', { id: tankId, name: 'X' }, intruder)).code).toBe(Code.NOT_FOUND);
    expect(await t.app.db.selectFrom('commands').selectAll().execute()).toEqual([]);
  });
});
