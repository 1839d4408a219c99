import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { fboxHourRow, prng } from '../../test/device-factories.js';
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
import { recomputeMeterTotals } from './meter-energy-totals.migration.js';

const hour = 3_600_000;
const day = 24 * hour;
const STAT = '/index/fbox.electricity/statistic';
const PRICES = '/index/fbox.electricity/prices';
const ADD = '/index/fbox.electricity/add_price';
const DELETE = '/index/fbox.electricity/delete_price';
const EXPORT = '/index/fbox.electricity/statistic_export';

/** Hourly energy of two boxes over 61 days, from 2026-09-20 00:00 UTC. */
const first = Date.UTC(2026, 8, 20);
const hours = 61 * 24;
const now = Date.UTC(2026, 10, 25, 6);
/** A price change in the middle of a day and of an hour (05:30 UTC), and one in the middle of a month. */
const midDay = Date.UTC(2026, 9, 10, 5, 30);
const midMonth = Date.UTC(2026, 10, 15);

describeDb('power statistics: price history, peak demand and efficiency', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let boxes: CreatedFbox[];
  /** [fbox, meter, hour_ts, kWh] as stored. */
  let energy: [number, number, number, number][];

  const ask = async (path: string, query: Record<string, string | number>, as = token) =>
    (
      await get(
        t.app,
        path,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: as },
      )
    ).json();
  const send = async (path: string, body: Record<string, unknown>, as = token) =>
    (await post(t.app, path, { area_id: areaId, ...body }, { token: as })).json();

  beforeEach(async () => {
    t = await buildTestApp();
    t.clock.ms = now;
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    boxes = [await createFbox(t.app, areaId, { name: 'A' }), await createFbox(t.app, areaId, { name: 'B' })];
    const random = prng(14).next;
    energy = [];
    const hourly = [];
    for (const box of boxes)
      for (let h = 0; h < hours; h++) {
        const ts = first + h * hour;
        for (const no of [1, 2]) {
          const kwh = Math.round(random() * 5000) / 10;
          energy.push([box.id, no, ts, kwh]);
          hourly.push({
            fbox_id: box.id,
            no,
            hour_ts: ts,
            energy_kwh: kwh,
            resets: h === 100 && no === 1 ? 1 : 0,
            readings: 120,
            first_ts: ts,
            first_reading: 0,
            last_ts: ts + hour - 30_000,
            last_reading: 0,
            sensor_ratio: 1,
          });
        }
      }
    for (let i = 0; i < hourly.length; i += 1000)
      await t.app.db
        .insertInto('meter_energy_hourly')
        .values(hourly.slice(i, i + 1000))
        .execute();
    await recomputeMeterTotals(t.app.db);
  });
  afterEach(() => t.close());

  const setZone = (zone: string) =>
    t.app.db.updateTable('users').set({ time_zone: zone }).where('id', '=', master.id).execute();

  it('costs each hour at the price valid at its start, across a change mid-day and mid-month', async () => {
    expect((await send(ADD, { valid_from: midDay, price: 0.08 })).code).toBe(Code.OK);
    expect((await send(ADD, { valid_from: midMonth, price: 0.07 })).code).toBe(Code.OK);
    // The mine form's price edit is recorded from now on, and is the mine's price.
    const edited = await send('/index/fbox.area/edit', { id: areaId, electricity_price: 0.09 });
    expect(edited.code, JSON.stringify(edited)).toBe(Code.OK);
    const list = await ask(PRICES, {});
    expect(
      list.data.items.map((p: { valid_from: number; price: number }) => [p.valid_from, p.price]),
    ).toEqual([
      [now, 0.09],
      [midMonth, 0.07],
      [midDay, 0.08],
      [0, 0.05],
    ]);
    expect(list.data.items[0].created_by).toBe(master.username);
    expect(list.data.current).toBe(0.09);

    const priceAt = (ts: number) => (ts >= midMonth ? 0.07 : ts >= midDay ? 0.08 : 0.05);
    // Hour 05:00 of the mid-day change starts before it: the old price.
    expect(priceAt(Date.UTC(2026, 9, 10, 5))).toBe(0.05);
    for (const zone of ['UTC+8', 'UTC-5']) {
      await setZone(zone);
      const offset = Number(zone.slice(3)) * hour;
      const startOf = {
        hour: (ts: number) => ts,
        day: (ts: number) => Math.floor((ts + offset) / day) * day - offset,
        month: (ts: number) => {
          const d = new Date(ts + offset);
          return Date.UTC(d.getUTCFullYear(), d.getUTCMonth()) - offset;
        },
      };
      const cases = [
        { bucket: 'hour' as const, from: midDay - 30 * hour, to: midDay + 20 * hour },
        { bucket: 'day' as const, from: first, to: first + hours * hour },
        { bucket: 'month' as const, from: first, to: first + hours * hour },
        { bucket: 'day' as const, from: midMonth - 3 * day + 7 * hour, to: midMonth + 2 * day },
      ];
      for (const c of cases) {
        const oracle = new Map<string, { kwh: number; cost: number; m1: number; m2: number }>();
        for (const [fbox, no, ts, kwh] of energy) {
          if (ts < c.from || ts >= c.to) continue;
          const key = `${fbox}:${startOf[c.bucket](ts)}`;
          const o = oracle.get(key) ?? { kwh: 0, cost: 0, m1: 0, m2: 0 };
          o.kwh += kwh;
          o.cost += kwh * priceAt(ts);
          if (no === 1) o.m1 += kwh;
          else o.m2 += kwh;
          oracle.set(key, o);
        }
        const answer = await ask(STAT, { from: c.from, to: c.to, bucket: c.bucket });
        expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
        expect(answer.data.rows).toHaveLength(oracle.size);
        for (const row of answer.data.rows) {
          const o = oracle.get(`${row.fbox_id}:${row.bucket_ts}`)!;
          expect(o, `${zone} ${c.bucket} ${row.bucket_ts}`).toBeDefined();
          expect(row.energy_kwh).toBeCloseTo(o.kwh, 2);
          expect(row.meter1_kwh).toBeCloseTo(o.m1, 2);
          expect(row.meter2_kwh).toBeCloseTo(o.m2, 2);
          expect(row.cost, `${zone} ${c.bucket} ${row.bucket_ts}`).toBeCloseTo(o.cost, 2);
        }
        const totalCost = [...oracle.values()].reduce((s, o) => s + o.cost, 0);
        expect(answer.data.total_cost).toBeCloseTo(totalCost, 1);
      }
    }
    // The prices used by a range: only those in force during it.
    const used = await ask(STAT, { from: midMonth - day, to: midMonth + day, bucket: 'hour' });
    expect(used.data.prices).toEqual([
      { valid_from: midDay, price: 0.08 },
      { valid_from: midMonth, price: 0.07 },
    ]);
    expect(used.data.price).toBe(0.09);
  });

  it('answers peak demand per box and for the mine, efficiency in J/TH, and a dash without hashrate', async () => {
    const [a, b] = boxes as [CreatedFbox, CreatedFbox];
    const h0 = Date.UTC(2026, 10, 1);
    const sample = (fbox: number, ts: number, avg: number, max: number, hashrate: number) =>
      fboxHourRow(fbox, ts, { avg, max }, hashrate);
    // Box A peaks at 300 kW in hour 0, box B at 250 in hour 1: the mine's hours sum to 500 and 400.
    await t.app.db
      .insertInto('fbox_samples_1h')
      .values([
        sample(a.id, h0, 180, 300, 10_000),
        sample(a.id, h0 + hour, 170, 150, 10_000),
        sample(b.id, h0, 150, 200, -999),
        sample(b.id, h0 + hour, 160, 250, -999),
        sample(a.id, h0 + 2 * hour, -999, -999, 0),
      ])
      .execute();
    // Meter 1 of A counted nothing in A's second hour: that hour's energy is meter 2's alone.
    await t.app.db
      .deleteFrom('meter_energy_hourly')
      .where('fbox_id', '=', a.id)
      .where('no', '=', 1)
      .where('hour_ts', '=', h0 + hour)
      .execute();
    energy = energy.filter(([f, no, at]) => !(f === a.id && no === 1 && at === h0 + hour));
    await setZone('UTC+0');
    const answer = await ask(STAT, { from: h0, to: h0 + day, bucket: 'day' });
    expect(answer.code).toBe(Code.OK);
    const rowA = answer.data.rows.find((r: { fbox_id: number }) => r.fbox_id === a.id);
    const rowB = answer.data.rows.find((r: { fbox_id: number }) => r.fbox_id === b.id);
    expect(rowA.peak_kw).toBe(300);
    expect(rowB.peak_kw).toBe(250);
    // Efficiency over A's hours with a hashrate: their metered energy over 10,000 TH/s × 3600 s each.
    const kwhOf = (fbox: number, ts: number) =>
      energy.filter(([f, , at]) => f === fbox && at === ts).reduce((s, [, , , kwh]) => s + kwh, 0);
    const hashKwh = kwhOf(a.id, h0) + kwhOf(a.id, h0 + hour);
    const expected = (hashKwh * 3_600_000) / (2 * 10_000 * 3600);
    expect(rowA.j_per_th).toBeCloseTo(expected, 2);
    // B never reported a hashrate: no efficiency (a dash), not 0.
    expect(rowB.j_per_th).toBeNull();
    expect(answer.data.buckets).toHaveLength(1);
    expect(answer.data.buckets[0].peak_kw).toBe(500);
    expect(answer.data.peak_kw).toBe(500);
    expect(answer.data.j_per_th).toBeCloseTo(expected, 2);
    // Load profile, hourly: the boxes' summed averages and maxima (-999 left out).
    expect(answer.data.profile_step).toBe('hour');
    expect(answer.data.profile).toEqual([
      { ts: h0, power_kw: 330, peak_kw: 500 },
      { ts: h0 + hour, power_kw: 330, peak_kw: 400 },
    ]);
    // At UTC-1 the two hours fall on two local days, each with its own peak; a month holds both.
    await setZone('UTC-1');
    const split = await ask(STAT, { from: h0 - hour, to: h0 + day, bucket: 'day' });
    const peaks = split.data.buckets.map((b: { bucket_ts: number; peak_kw: number | null }) => [
      b.bucket_ts,
      b.peak_kw,
    ]);
    expect(peaks).toEqual([
      [h0 - day + hour, 500],
      [h0 + hour, 400],
    ]);
    const month = await ask(STAT, { from: h0 - hour, to: h0 + day, bucket: 'month' });
    expect(month.data.profile_step).toBe('day');
    expect(month.data.buckets.map((b: { peak_kw: number | null }) => b.peak_kw)).toEqual([500, 400]);
    expect(month.data.peak_kw).toBe(500);
  });

  it('refuses bad prices on their field, a duplicate date, a future date and the last price', async () => {
    const price0 = await send(ADD, { valid_from: midDay, price: 0 });
    expect(price0).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'price' }] } });
    const text = await send(ADD, { valid_from: midDay, price: '12abc' });
    expect(text.data.errors[0].field).toBe('price');
    expect((await send(ADD, { valid_from: -1, price: 1 })).data.errors[0].field).toBe('valid_from');
    const future = await send(ADD, { valid_from: now + hour, price: 1 });
    expect(future).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'valid_from' }] } });
    expect((await send(ADD, { valid_from: midDay, price: 0.08 })).code).toBe(Code.OK);
    const duplicate = await send(ADD, { valid_from: midDay, price: 0.1 });
    expect(duplicate).toMatchObject({ code: Code.CONFLICT, data: { errors: [{ field: 'valid_from' }] } });
    // The mine's price is the one valid now.
    expect((await ask(PRICES, {})).data.current).toBe(0.08);
    expect((await send(DELETE, { valid_from: 12345 })).code).toBe(Code.NOT_FOUND);
    const deleted = await send(DELETE, { valid_from: midDay });
    expect(deleted.code).toBe(Code.OK);
    expect(deleted.data).toMatchObject({ items: [{ valid_from: 0, price: 0.05 }], current: 0.05 });
    const last = await send(DELETE, { valid_from: 0 });
    expect(last.code).toBe(Code.CONFLICT);
    expect(last.msg).toBe('The only price of a mine cannot be deleted');
  });

  it('keeps other accounts out, and lets operators read but not change prices', async () => {
    const intruder = await login(t.app, await createMaster(t.app));
    for (const [path, query] of [
      [PRICES, {}],
      [STAT, { from: first, to: first + day }],
      [EXPORT, { from: first, to: first + day }],
    ] as const)
      expect((await ask(path, query, intruder)).code, path).toBe(Code.NOT_FOUND);
    expect((await send(ADD, { valid_from: midDay, price: 1 }, intruder)).code).toBe(Code.NOT_FOUND);
    expect((await send(DELETE, { valid_from: 0 }, intruder)).code).toBe(Code.NOT_FOUND);
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    expect((await ask(PRICES, {}, operator)).code).toBe(Code.OK);
    expect((await send(ADD, { valid_from: midDay, price: 1 }, operator)).code).toBe(Code.FORBIDDEN);
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { authority: 'administrator' }),
    );
    expect((await send(ADD, { valid_from: midDay, price: 1 }, admin)).code).toBe(Code.OK);
    // An administrator of another mine only: not found.
    const otherAdmin = await login(
      t.app,
      await createSubAccount(t.app, master, [(await createArea(t.app, master.id)).id], {
        authority: 'administrator',
      }),
    );
    expect((await send(ADD, { valid_from: midMonth, price: 1 }, otherAdmin)).code).toBe(Code.NOT_FOUND);
  });

  it('exports exactly the rows of the answer, as CSV in the reader’s zone', async () => {
    await setZone('UTC+8');
    const query = {
      from: Date.UTC(2026, 9, 1) - 8 * hour,
      to: Date.UTC(2026, 9, 4) - 8 * hour,
      bucket: 'day',
    };
    const answer = await ask(STAT, query);
    const res = await get(
      t.app,
      EXPORT,
      {
        area_id: String(areaId),
        ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      },
      { token },
    );
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Period,FBOX,Meter 1 (kWh),Meter 2 (kWh),Energy (kWh),Cost,Peak demand (kW),Efficiency (J/TH),Meter resets',
    );
    const names = new Map(answer.data.fboxes.map((f: { id: number; name: string }) => [f.id, f.name]));
    expect(lines.slice(1)).toEqual(
      answer.data.rows.map(
        (r: {
          bucket_ts: number;
          fbox_id: number;
          meter1_kwh: number;
          meter2_kwh: number;
          energy_kwh: number;
          cost: number;
          resets: number;
        }) =>
          [
            new Date(r.bucket_ts + 8 * hour).toISOString().slice(0, 10),
            names.get(r.fbox_id),
            r.meter1_kwh,
            r.meter2_kwh,
            r.energy_kwh,
            r.cost,
            '',
            '',
            r.resets,
          ].join(','),
      ),
    );
    expect(lines).toHaveLength(1 + 3 * 2);
  });
});
