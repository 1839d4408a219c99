import { topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { expectMeterTotalsConsistent } from '../../test/meter-totals.js';
import { telemetry } from '../../test/mqtt-client.js';

const SET = '/index/fbox.electricity/set_meter_data';
const LIST = '/index/fbox.electricity/meter_corrections';
const minute = 60_000;
const hour = 60 * minute;

describeDb('meter readings entered by hand (set_meter_data with a reading)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: CreatedFbox;
  let seq = 0;
  const start = Date.UTC(2026, 10, 24);

  beforeEach(async () => {
    t = await buildTestApp();
    t.clock.ms = start;
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'North' });
    // Meter 1: 100 → 110 in the first hour, nothing for four hours, 170 at 05:10, 175 at 06:10.
    for (const [at, reading] of [
      [10 * minute, 100],
      [20 * minute, 110],
      [5 * hour + 10 * minute, 170],
      [6 * hour + 10 * minute, 175],
    ] as const)
      await report(start + at, reading);
    t.clock.ms = start + 7 * hour;
  });
  afterEach(async () => {
    // Whatever a test entered, the running totals still add up (read by day and month statistics).
    await expectMeterTotalsConsistent(t.app.db);
    await t.close();
  });

  async function report(at: number, meter1: number) {
    t.clock.ms = at;
    const msg = telemetry({ seq: ++seq, ts: at, miners: 1 });
    msg.box.meters = [
      { no: 1, energy_kwh: meter1, power_kw: 10 },
      { no: 2, energy_kwh: -999, power_kw: -999 },
    ];
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
  }

  const hourly = async () =>
    Object.fromEntries(
      (
        await t.app.meterEnergy.energyByPeriod({
          fboxIds: [box.id],
          from: start,
          to: start + 24 * hour,
          bucket: 'hour',
          tzOffsetMinutes: 0,
        })
      )
        .filter((e) => e.no === 1)
        .map((e) => [(e.bucket_ts - start) / hour, [e.energy_kwh, e.resets]]),
    );
  const enter = (fields: Record<string, unknown>) =>
    post(t.app, SET, { area_id: areaId, fbox_id: box.id, meter_no: 1, ...fields }, { token, form: true });

  it('moves the energy of a gap to the hour of a reading taken there, and lists it with its reason', async () => {
    expect(await hourly()).toEqual({ 0: [10, 0], 5: [60, 0], 6: [5, 0] });
    const res = await enter({
      reading_kwh: '130',
      reading_at: start + 2 * hour + 30 * minute,
      reason: 'Read on site',
    });
    expect(res.json()).toMatchObject({
      code: 1,
      data: {
        correction: {
          no: 1,
          reading_kwh: 130,
          reason: 'Read on site',
          user_name: master.username,
          energy_kwh: 20,
          next_hour_ts: start + 5 * hour,
          next_delta_kwh: -20,
        },
        command: null,
      },
    });
    // 110 → 130 lands at 02:00, 130 → 170 at 05:00; the total stays what the meter says.
    expect(await hourly()).toEqual({ 0: [10, 0], 2: [20, 0], 5: [40, 0], 6: [5, 0] });
    const list = (
      await get(t.app, LIST, { area_id: String(areaId), fbox_id: String(box.id) }, { token })
    ).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({
      reading_at: start + 2 * hour + 30 * minute,
      reason: 'Read on site',
    });
    const logged = await t.app.db
      .selectFrom('operation_log')
      .select(['action', 'params'])
      .where('action', '=', 'electricitySetMeter')
      .execute();
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!.params)).toMatchObject({ reading_kwh: 130, reason: 'Read on site' });
  });

  it('after the last reading, is the base the gateway’s next reading is measured from', async () => {
    await enter({ reading_kwh: 200, reading_at: start + 6 * hour + 50 * minute, reason: 'Gateway down' });
    await report(start + 7 * hour + 5 * minute, 210);
    expect(await hourly()).toEqual({ 0: [10, 0], 5: [60, 0], 6: [30, 0], 7: [10, 0] });
  });

  it('counts a reading below half of the one before as a meter reset, like a reported one', async () => {
    await enter({ reading_kwh: 4, reading_at: start + 3 * hour, reason: 'Meter replaced' });
    // 110 → 4 is a reset (+4); 4 → 170 then counts 166 where 60 was counted.
    expect(await hourly()).toEqual({ 0: [10, 0], 3: [4, 1], 5: [166, 0], 6: [5, 0] });
  });

  it('changes the statistics of a settled day it falls in, read before from the stored day', async () => {
    t.clock.ms = start + 2 * 24 * hour;
    token = await login(t.app, master);
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+0' }).execute();
    const dayRow = async () =>
      (
        await get(
          t.app,
          '/index/fbox.electricity/statistic',
          { area_id: String(areaId), from: String(start), to: String(start + 24 * hour), bucket: 'day' },
          { token },
        )
      ).json();
    const before = await dayRow();
    expect(before.code, before.msg).toBe(1);
    expect(before.data.rows[0]).toMatchObject({ energy_kwh: 75, resets: 0 });
    const stored = await t.app.db.selectFrom('fbox_power_days').select(['day_ts']).execute();
    expect(stored.map((d) => Number(d.day_ts))).toEqual([start]);
    expect(
      (await enter({ reading_kwh: 4, reading_at: start + 3 * hour, reason: 'Meter replaced' })).json().code,
    ).toBe(1);
    // 10 + 4 (the reset) + 166 + 5.
    expect((await dayRow()).data.rows[0]).toMatchObject({ energy_kwh: 185, resets: 1 });
  });

  it('refuses readings that contradict the meter, on their field, and changes nothing', async () => {
    const before = await hourly();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ reading_kwh: 105, reading_at: start + 15 * minute, reason: 'x' }, 'reading_at', /same hour/],
      [{ reading_kwh: 105, reading_at: start + 3 * hour, reason: 'x' }, 'reading_kwh', /before \(110 kWh\)/],
      [{ reading_kwh: 180, reading_at: start + 3 * hour, reason: 'x' }, 'reading_kwh', /next .*\(170 kWh\)/],
      [{ reading_kwh: 180, reading_at: start + 8 * hour, reason: 'x' }, 'reading_at', /future/],
      [{ reading_kwh: 130, reading_at: start + 3 * hour }, 'reason', /required/],
      [{ reading_kwh: 130, reason: 'x' }, 'reading_at', /required/],
      [{ reading_kwh: -1, reading_at: start + 3 * hour, reason: 'x' }, 'reading_kwh', /0 or more/],
      [
        { reading_kwh: 130, reading_at: start + 3 * hour, reason: 'x', reset: 'on' },
        'reading_kwh',
        /not both/,
      ],
    ];
    for (const [fields, field, message] of cases) {
      const body = (await enter(fields)).json();
      expect(body.code, JSON.stringify(fields)).toBe(-2);
      expect(body.data.errors[0].field).toBe(field);
      expect(body.data.errors[0].message).toMatch(message);
    }
    expect(await hourly()).toEqual(before);
    expect(await t.app.db.selectFrom('meter_corrections').selectAll().execute()).toEqual([]);
  });

  it('lists and accepts readings only for boxes of mines the caller sees', async () => {
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    const otherArea = (await createArea(t.app, other.id)).id;
    const res = await post(
      t.app,
      SET,
      {
        area_id: otherArea,
        fbox_id: box.id,
        meter_no: 1,
        reading_kwh: 130,
        reading_at: start + 3 * hour,
        reason: 'x',
      },
      { token: otherToken, form: true },
    );
    expect(res.json().code).not.toBe(1);
    const list = await get(
      t.app,
      LIST,
      { area_id: String(otherArea), fbox_id: String(box.id) },
      { token: otherToken },
    );
    expect(list.json().code).not.toBe(1);
    expect(await hourly()).toEqual({ 0: [10, 0], 5: [60, 0], 6: [5, 0] });
  });
});
