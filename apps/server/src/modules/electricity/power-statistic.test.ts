import { Code, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  type TestUser,
} from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';

const PATH = '/index/fbox.electricity/statistic';
const hour = 3_600_000;
const day = 24 * hour;

describeDb('power statistics: energy and cost per FBOX and bucket', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let north: CreatedFbox;
  let south: CreatedFbox;
  let seq = 0;
  // 2026-11-24 00:00 UTC: 08:00 in the master's zone (UTC+8).
  const start = Date.UTC(2026, 10, 24);

  beforeEach(async () => {
    t = await buildTestApp();
    t.clock.ms = start;
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    await t.app.db.updateTable('areas').set({ electricity_price: 0.06 }).where('id', '=', areaId).execute();
    // The price history (valid from 0) is what costs the energy.
    await t.app.db
      .updateTable('electricity_prices')
      .set({ price: 0.06 })
      .where('area_id', '=', areaId)
      .execute();
    north = await createFbox(t.app, areaId, { name: 'North' });
    south = await createFbox(t.app, areaId, { name: 'South' });
  });
  afterEach(() => t.close());

  /** A report of both meters of a box at `at`. */
  const report = async (box: CreatedFbox, at: number, meter1: number, meter2: number) => {
    t.clock.ms = at;
    const msg = telemetry({ seq: ++seq, ts: at, miners: 1 });
    msg.box.meters = [
      { no: 1, energy_kwh: meter1, power_kw: 100 },
      { no: 2, energy_kwh: meter2, power_kw: 100 },
    ];
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
  };
  const ask = async (query: Record<string, string | number>, as = token) =>
    (
      await get(
        t.app,
        PATH,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: as },
      )
    ).json();

  it('sums each box’s meters per day of the reader’s zone, costed at the mine’s price, with resets', async () => {
    // North: +10 and +5 kWh at 10:00 local, +20 +0 at 17:00 local (still the 24th), +30 at 09:00
    // local on the 25th. South: +40 on the 25th, then a reset counted from 0 (+2).
    await report(north, start + 1 * hour, 100, 50);
    await report(north, start + 2 * hour, 110, 55);
    await report(north, start + 9 * hour, 130, 55);
    await report(north, start + 25 * hour, 160, 55);
    await report(south, start + 1 * hour, 1000, 0);
    await report(south, start + 25 * hour, 1040, 0);
    await report(south, start + 26 * hour, 2, 0);
    await t.app.ingest.flush();
    // A day later the session of the morning has expired: sign in again.
    token = await login(t.app, master);
    const answer = await ask({ from: start - day, to: start + 3 * day, bucket: 'day' });
    expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
    const day24 = Date.UTC(2026, 10, 24) - 8 * hour;
    const day25 = Date.UTC(2026, 10, 25) - 8 * hour;
    expect(answer.data).toMatchObject({
      bucket: 'day',
      time_zone: 'UTC+8',
      price: 0.06,
      fboxes: [
        { id: north.id, name: 'North' },
        { id: south.id, name: 'South' },
      ],
      rows: [
        { bucket_ts: day24, fbox_id: north.id, energy_kwh: 35, cost: 2.1, resets: 0 },
        // South's first reading ever is its baseline: reported, nothing counted yet.
        { bucket_ts: day24, fbox_id: south.id, energy_kwh: 0, cost: 0, resets: 0 },
        { bucket_ts: day25, fbox_id: north.id, energy_kwh: 30, cost: 1.8, resets: 0 },
        { bucket_ts: day25, fbox_id: south.id, energy_kwh: 42, cost: 2.52, resets: 1 },
      ],
      total_kwh: 107,
      total_cost: 6.42,
      resets: 1,
    });
    // One box, by the hour.
    const one = await ask({ from: start, to: start + 12 * hour, bucket: 'hour', fbox_id: north.id });
    expect(one.data.rows.map((r: { energy_kwh: number }) => r.energy_kwh)).toEqual([0, 15, 20]);
    expect(one.data.fboxes).toEqual([{ id: north.id, name: 'North' }]);
  });

  it('refuses a range longer than its bucket allows, or backwards, on the end field', async () => {
    const long = await ask({ from: start, to: start + 32 * day, bucket: 'hour' });
    expect(long).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'to' }] } });
    expect(long.msg).toContain('31');
    expect((await ask({ from: start, to: start - 1 })).data.errors[0].field).toBe('to');
    expect((await ask({ from: start, to: start + day, bucket: 'week' })).data.errors[0].field).toBe('bucket');
  });

  it('answers not found for another mine, or a box of another mine, and shows a sub-account its mine', async () => {
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await ask({ from: start, to: start + day }, intruder)).code).toBe(Code.NOT_FOUND);
    const otherMine = (await createArea(t.app, master.id)).id;
    const elsewhere = await createFbox(t.app, otherMine, { name: 'Elsewhere' });
    expect((await ask({ from: start, to: start + day, fbox_id: elsewhere.id })).code).toBe(Code.NOT_FOUND);
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    expect((await ask({ from: start, to: start + day }, operator)).code).toBe(Code.OK);
  });
});
