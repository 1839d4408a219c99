import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank, type TestFbox } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';

describeDb('electricity and home summary', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let box: TestFbox;
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, {
      name: 'Box 1',
      state: {
        online: 1,
        power_kw: 300,
        hashrate_total: 2000,
        meter1_energy_kwh: 1200,
        meter1_power_kw: 200,
        meter2_energy_kwh: 300,
        meter2_power_kw: 100,
        energy_day_start_kwh: 1000,
        energy_day: Math.floor(t.clock.now() / 86_400_000),
      },
    });
    await createFbox(t.app, areaId, { name: 'Box 2' });
  });
  afterEach(() => t.close());

  const setMeter = async (body: Record<string, unknown>) =>
    (
      await post(
        t.app,
        '/index/fbox.electricity/set_meter_data',
        { area_id: areaId, fbox_id: box.id, ...body },
        { token },
      )
    ).json();

  it('answers per-FBOX energy and meters', async () => {
    const index = (
      await get(t.app, '/index/fbox.electricity/index', { area_id: String(areaId) }, { token })
    ).json();
    expect(index.data).toMatchObject({ total_power_kw: 300, total_today_energy_kwh: 500 });
    expect(index.data.items[0]).toMatchObject({
      fbox_id: box.id,
      status: 'online',
      today_energy_kwh: 500,
      meters: [
        { no: 1, energy_kwh: 1200, power_kw: 200, sensor_ratio: 1, reset_at: null },
        { no: 2, energy_kwh: 300, power_kw: 100 },
      ],
    });
    const one = (
      await get(
        t.app,
        '/index/fbox.electricity/getelectricity',
        { area_id: String(areaId), fbox_id: String(box.id) },
        { token },
      )
    ).json();
    expect(one.data.fbox_name).toBe('Box 1');
  });

  it('validates and stores meter data; a reset sends meter.reset and restarts the shown energy', async () => {
    expect(await setMeter({ meter_no: 3 })).toMatchObject({ code: -2, msg: 'Meter: must be meter 1 or 2' });
    expect(await setMeter({ meter_no: 1, sensor_ratio: 0 })).toMatchObject({
      code: -2,
      msg: 'Sensor ratio: must be a number greater than 0',
    });
    expect(await setMeter({ meter_no: 1, reset: 'maybe' })).toMatchObject({
      code: -2,
      msg: 'Meter reading reset: must be on or off',
    });
    const plain = await setMeter({ meter_no: 2, meter_number: 'M-2', sensor_ratio: 80 });
    expect(plain).toMatchObject({
      code: 1,
      data: { command: null, meter: { no: 2, meter_number: 'M-2', sensor_ratio: 80 } },
    });
    const reset = await setMeter({ meter_no: 1, reset: 'on' });
    expect(reset).toMatchObject({
      code: 1,
      data: { meter: { no: 1, energy_kwh: 0, reset_at: t.clock.now() }, command: { status: 'pending' } },
    });
    const command = await t.app.db.selectFrom('commands').selectAll().executeTakeFirstOrThrow();
    expect([command.kind, JSON.parse(command.target)]).toEqual(['meter.reset', { meter_no: 1 }]);
    const intruder = await login(t.app, await createMaster(t.app));
    const foreign = await post(
      t.app,
      '/index/fbox.electricity/set_meter_data',
      { area_id: areaId, fbox_id: box.id, meter_no: 1, reset: 'on' },
      { token: intruder },
    );
    expect(foreign.json().code).toBe(Code.NOT_FOUND);
    expect(await t.app.db.selectFrom('commands').selectAll().execute()).toHaveLength(1);
  });

  it('summarizes the mine for the home page with 24 h series', async () => {
    const tank = await createTank(t.app, box, 1, { state: { online: 1 } });
    await createTank(t.app, box, 2);
    await createMiners(t.app, box, [
      { sn: 'A', online: 1, tank_id: tank },
      { sn: 'B', online: 1 },
      { sn: 'C', online: 0 },
    ]);
    const hour = 3_600_000;
    const now = t.clock.now();
    await t.app.db
      .insertInto('fbox_samples')
      .values([
        {
          fbox_id: box.id,
          ts: now - 2 * hour,
          power_kw: 250,
          temperature: 30,
          humidity: 40,
          hashrate_total: 1900,
          energy_kwh: 0,
        },
        {
          fbox_id: box.id,
          ts: now - 10_000,
          power_kw: 300,
          temperature: 30,
          humidity: 40,
          hashrate_total: 2000,
          energy_kwh: 0,
        },
      ])
      .execute();
    const res = (
      await get(t.app, '/index/fbox.total/getappindex', { area_id: String(areaId) }, { token })
    ).json();
    expect(res.data).toMatchObject({
      fbox: { online: 1, offline: 1 },
      tank: { online: 1, offline: 1 },
      miner: { online: 2, offline: 1 },
      hashrate: 2000,
      power_kw: 300,
      today_energy_kwh: 500,
      series: { bucket_ms: hour },
    });
    const points = res.data.series.points;
    expect(points).toHaveLength(24);
    expect(points.at(-1)).toEqual({ ts: now, hashrate: null, power_kw: null });
    expect(points.at(-2)).toEqual({ ts: now - hour, hashrate: 2000, power_kw: 300 });
    expect(points.at(-3)).toEqual({ ts: now - 2 * hour, hashrate: 1900, power_kw: 250 });
    expect(
      (await get(t.app, '/index/fbox.total/getappindex', { area_id: '999999' }, { token })).json().code,
    ).toBe(Code.NOT_FOUND);
  });
});
