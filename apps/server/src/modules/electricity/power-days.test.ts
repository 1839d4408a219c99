import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { fboxHourRow } from '../../test/device-factories.js';
import { createArea, createFbox, createMaster, get, login } from '../../test/factories.js';
import { MeterEnergyRepository } from './meter-energy.repository.js';
import { recomputeMeterTotals } from './meter-energy-totals.migration.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const STAT = '/index/fbox.electricity/statistic';

/** Ten days of hours from 2026-11-10 00:00 UTC; the clock stands on the 20th at 06:00. */
const first = Date.UTC(2026, 10, 10);
const days = 10;
const now = Date.UTC(2026, 10, 20, 6);

interface Row {
  fbox_id: number;
  bucket_ts: number;
  energy_kwh: number;
  meter1_kwh: number | null;
  cost: number;
  resets: number;
  peak_kw: number | null;
  j_per_th: number | null;
}

/**
 * Day and month buckets read settled days (fbox_power_days) once summed from the hours; every
 * writer of those hours forgets the days holding them, so an answer never lags what is stored.
 */
describeDb('power statistics: settled days follow every change of their hours', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let box: CreatedFbox;

  const stat = async (query: Record<string, number | string>): Promise<Row[]> =>
    (await statistic(query)).rows;
  const statistic = async (
    query: Record<string, number | string>,
  ): Promise<{ rows: Row[]; profile: { ts: number; power_kw: number; peak_kw: number }[] }> => {
    const answer = (
      await get(
        t.app,
        STAT,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token },
      )
    ).json();
    expect(answer.code, answer.msg).toBe(Code.OK);
    return answer.data;
  };
  const stored = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('fbox_power_days')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const storedLoadHours = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('fbox_load_hours')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const rollup = (ts: number, powerMax: number, hashrate: number) =>
    fboxHourRow(box.id, ts, { avg: powerMax - 10, min: powerMax - 20, max: powerMax }, hashrate);

  beforeEach(async () => {
    t = await buildTestApp();
    t.clock.ms = now;
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+0' }).execute();
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'A' });
    const meters = [];
    const rollups = [];
    for (let h = 0; h < days * 24; h++) {
      const ts = first + h * hour;
      for (const no of [1, 2])
        meters.push({
          fbox_id: box.id,
          no,
          hour_ts: ts,
          energy_kwh: 10 * no,
          resets: 0,
          readings: 120,
          first_ts: ts,
          first_reading: 0,
          last_ts: ts + hour - 30_000,
          last_reading: 0,
          sensor_ratio: 1,
        });
      rollups.push(rollup(ts, 100 + (h % 24), 1000));
    }
    for (let i = 0; i < meters.length; i += 500)
      await t.app.db
        .insertInto('meter_energy_hourly')
        .values(meters.slice(i, i + 500))
        .execute();
    await t.app.db.insertInto('fbox_samples_1h').values(rollups).execute();
    await recomputeMeterTotals(t.app.db);
  });
  afterEach(() => t.close());

  it('stores the settled days a query reads, each zone its own windows, and answers the same from them', async () => {
    const range = { from: first, to: first + days * day, bucket: 'day' };
    const fresh = await stat(range);
    // Ten whole UTC days, all ended before the clock: ten windows stored.
    expect(await stored()).toBe(days);
    expect(fresh).toHaveLength(days);
    for (const r of fresh) {
      expect(r.energy_kwh).toBeCloseTo(24 * 30, 6);
      expect(r.meter1_kwh).toBeCloseTo(24 * 10, 6);
      expect(r.peak_kw).toBe(123);
      // 30 kWh per hour over 1000 TH/s for an hour: 30 × 3.6 MJ / 3.6 PH.
      expect(r.j_per_th).toBeCloseTo(30, 6);
    }
    expect(await stat(range)).toEqual(fresh);
    // UTC+8 days are other windows (16:00 UTC): stored as well, the partial first and last days summed from the hours.
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+8' }).execute();
    const shifted = await stat(range);
    expect(shifted).toHaveLength(days + 1);
    expect(await stored()).toBe(days + days - 1);
    expect(shifted[0]!.energy_kwh).toBeCloseTo(16 * 30, 6);
    expect(shifted.at(-1)!.energy_kwh).toBeCloseTo(8 * 30, 6);
    // Months are made of the days too.
    const month = await stat({ ...range, bucket: 'month' });
    expect(month).toHaveLength(1);
    expect(month[0]!.energy_kwh).toBeCloseTo(days * 24 * 30, 6);
  });

  it('sends a stored day as the row its hours give, costed at the price in force now', async () => {
    const range = { from: first, to: first + days * day, bucket: 'day' };
    const stored = await stat(range);
    expect(stored).toHaveLength(days);
    // A price valid since before the range, added after its days were stored: their rows follow it.
    await t.app.db
      .insertInto('electricity_prices')
      .values({
        area_id: areaId,
        valid_from: first - 5 * day,
        price: 0.25,
        created_by: null,
        created_at: now,
      })
      .execute();
    const repriced = await stat(range);
    expect(repriced.map((r) => r.cost)).toEqual(repriced.map((r) => Math.round(r.energy_kwh * 250) / 1000));
    expect(repriced.map(({ cost: _c, ...r }) => r)).toEqual(stored.map(({ cost: _c, ...r }) => r));
    // The fourth day summed from its hours (the clock in the next day: not settled yet) is the same row.
    t.clock.ms = first + 4 * day + hour;
    expect(await stat({ ...range, from: first + 3 * day, to: first + 4 * day })).toEqual([repriced[3]]);
  });

  it("counts a settled day's peak in its month even when its meters counted nothing that day", async () => {
    // Day 3: the meters were silent (no energy rows), the FBOX still reported its power (peak 500 kW).
    const silent = first + 3 * day;
    await t.app.db
      .deleteFrom('meter_energy_hourly')
      .where('hour_ts', '>=', silent)
      .where('hour_ts', '<', silent + day)
      .execute();
    await recomputeMeterTotals(t.app.db);
    await t.app.db
      .updateTable('fbox_samples_1h')
      .set({ power_kw_max: 500 })
      .where('bucket_ts', '=', silent + 5 * hour)
      .execute();
    const range = { from: first, to: first + days * day };
    const byDay = await stat({ ...range, bucket: 'day' });
    // A day without metered energy has no row, its peak with it.
    expect(byDay.map((r) => r.bucket_ts)).not.toContain(silent);
    expect(byDay).toHaveLength(days - 1);
    expect(Math.max(...byDay.map((r) => r.peak_kw ?? 0))).toBe(123);
    // The month has energy from the other days: its peak is the box's highest hour of the month.
    const [month] = await stat({ ...range, bucket: 'month' });
    expect(month!.energy_kwh).toBeCloseTo((days - 1) * 24 * 30, 6);
    expect(month!.peak_kw).toBe(500);
    // The same from the stored days as from the hours (a second read finds them all stored).
    expect(await stat({ ...range, bucket: 'month' })).toEqual([month]);
  });

  it('never stores the day in progress or the last hours: they are summed from the hours on each read', async () => {
    const today = Date.UTC(2026, 10, 20);
    await t.app.db
      .insertInto('meter_energy_hourly')
      .values({
        fbox_id: box.id,
        no: 1,
        hour_ts: today + 2 * hour,
        energy_kwh: 7,
        resets: 0,
        readings: 10,
        first_ts: today + 2 * hour,
        first_reading: 0,
        last_ts: today + 2 * hour,
        last_reading: 0,
        sensor_ratio: 1,
      })
      .execute();
    await recomputeMeterTotals(t.app.db);
    const rows = await stat({ from: today - day, to: today + day, bucket: 'day' });
    expect(rows.map((r) => r.energy_kwh)).toEqual([720, 7]);
    // Only yesterday (the 19th, the last seeded day) was stored.
    expect(await stored()).toBe(1);
  });

  it('forgets a settled day when readings of its hours arrive late (the ingest write)', async () => {
    const range = { from: first, to: first + days * day, bucket: 'day' };
    const before = await stat(range);
    const late = first + 3 * day + 5 * hour;
    await t.app.db.transaction().execute(async (trx) => {
      const repo = new MeterEnergyRepository(trx, t.app.dbDialect);
      await repo.addHours([
        {
          fbox_id: box.id,
          no: 1,
          hour_ts: late,
          energy_kwh: 50,
          resets: 1,
          readings: 3,
          first_ts: late,
          first_reading: 0,
          last_ts: late,
          last_reading: 0,
          sensor_ratio: 1,
          cum_energy_kwh: 0,
          cum_resets: 0,
          cum_readings: 0,
        },
      ]);
    });
    const after = await stat(range);
    const changed = after.findIndex((r) => r.bucket_ts === first + 3 * day);
    expect(after[changed]!.energy_kwh).toBeCloseTo(before[changed]!.energy_kwh + 50, 6);
    expect(after[changed]!.resets).toBe(1);
    // Only that day changed.
    expect(after.filter((_, i) => i !== changed)).toEqual(before.filter((_, i) => i !== changed));
  });

  it('forgets the settled days the hourly rollup rewrites after catching up', async () => {
    const range = { from: first, to: first + days * day, bucket: 'day' };
    const before = await statistic(range);
    expect(before.profile.at(-1)).toEqual({ ts: first + days * day - hour, power_kw: 113, peak_kw: 123 });
    expect(await storedLoadHours()).toBe(days * 24);
    const lastHour = first + days * day - hour;
    // The minute rollups of the last stored hour show a higher peak: the hourly rollup starts there.
    await t.app.db
      .insertInto('fbox_samples_1m')
      .values({ ...rollup(lastHour + 10 * minute, 400, 1000), bucket_ts: lastHour + 10 * minute })
      .execute();
    t.clock.ms = now + 10 * minute;
    expect(await t.app.jobs.tick()).toContain('rollup-1h');
    const after = await statistic(range);
    expect(after.rows.at(-1)!.peak_kw).toBe(400);
    expect(after.rows.at(-2)!.peak_kw).toBe(123);
    // The load profile's stored hour is forgotten too: the rolled-up minute is the hour now.
    expect(after.profile.at(-1)).toEqual({ ts: lastHour, power_kw: 390, peak_kw: 400 });
    expect(after.profile.slice(0, -1)).toEqual(before.profile.slice(0, -1));
  });
});
