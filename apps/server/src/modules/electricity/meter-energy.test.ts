import { type TelemetryMessage, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { expectMeterTotalsConsistent } from '../../test/meter-totals.js';
import { telemetry } from '../../test/mqtt-client.js';
import type { EnergyBucket, MeterEnergy } from './meter-energy.repository.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** mulberry32: the same series on every run and both databases. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

/** One meter reading as the oracle sees it: counted (not -999), with the ratio set when it was sent. */
interface Counted {
  fbox_id: number;
  no: number;
  ts: number;
  value: number;
  ratio: number;
}

/** Start of the bucket of `ts` in a zone `offset` minutes east of UTC, by calendar arithmetic. */
const bucketStart = (ts: number, bucket: EnergyBucket, offset: number): number => {
  if (bucket === 'hour') return Math.floor(ts / hour) * hour;
  const local = new Date(ts + offset * minute);
  const start =
    bucket === 'day'
      ? Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate())
      : Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  return start - offset * minute;
};

/**
 * Brute force: each meter's readings in order; a reading's increase over the one before (the whole
 * reading after a drop below half of it, counted as a reset; nothing after a smaller drop) times its
 * ratio goes to its bucket; the first reading of a meter opens its bucket with 0.
 */
const oracle = (
  readings: Counted[],
  query: { from: number; to: number; bucket: EnergyBucket; offset: number },
): MeterEnergy[] => {
  const out = new Map<string, MeterEnergy>();
  const last = new Map<string, Counted>();
  for (const r of readings) {
    const meter = `${r.fbox_id}:${r.no}`;
    const prev = last.get(meter);
    // A reset only below half the previous reading; a smaller drop is a glitch that keeps the baseline.
    const drop = prev !== undefined && r.value < prev.value;
    const reset = drop && r.value < prev!.value * 0.5;
    const glitch = drop && !reset;
    last.set(meter, glitch ? { ...r, value: prev!.value } : r);
    const hourStart = Math.floor(r.ts / hour) * hour;
    if (hourStart < query.from || hourStart >= query.to) continue;
    const kwh = prev === undefined || glitch ? 0 : (reset ? r.value : r.value - prev.value) * r.ratio;
    const bucket_ts = bucketStart(r.ts, query.bucket, query.offset);
    const key = `${meter}:${bucket_ts}`;
    const row = out.get(key) ?? { fbox_id: r.fbox_id, no: r.no, bucket_ts, energy_kwh: 0, resets: 0 };
    row.energy_kwh += kwh;
    row.resets += reset ? 1 : 0;
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.fbox_id - b.fbox_id || a.no - b.no || a.bucket_ts - b.bucket_ts);
};

describeDb('energy from meter readings', () => {
  let t: TestApp;
  let boxes: CreatedFbox[];
  let areaId: number;

  beforeEach(async () => {
    t = await buildTestApp();
    // 20:00 UTC on 2025-01-20, so the series crosses a month end in every zone.
    t.clock.ms = Date.UTC(2025, 0, 20, 20, 0);
    const master = await createMaster(t.app);
    const area = await createArea(t.app, master.id);
    areaId = area.id;
    boxes = [await createFbox(t.app, area.id, { tanks: 0 }), await createFbox(t.app, area.id, { tanks: 0 })];
  });
  afterEach(async () => {
    await expectMeterTotalsConsistent(t.app.db);
    await t.close();
  });

  const send = (box: CreatedFbox, msg: TelemetryMessage) =>
    t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));

  const setRatio = (box: CreatedFbox, no: number, ratio: number) =>
    t.app.db
      .updateTable('fbox_meters')
      .set({ sensor_ratio: ratio })
      .where('fbox_id', '=', box.id)
      .where('no', '=', no)
      .execute();

  const energy = (bucket: EnergyBucket, offset: number, from: number, to: number) =>
    t.app.meterEnergy.energyByPeriod({
      fboxIds: boxes.map((b) => b.id),
      from,
      to,
      bucket,
      tzOffsetMinutes: offset,
    });

  const fromTotals = async (bucket: EnergyBucket, offset: number, from: number, to: number) =>
    (
      await t.app.meterEnergy.costedEnergy(areaId, 0, {
        fboxIds: boxes.map((b) => b.id),
        from,
        to,
        bucket,
        tzOffsetMinutes: offset,
      })
    )
      .map(({ cost: _cost, ...energy }) => energy)
      .sort((a, b) => a.fbox_id - b.fbox_id || a.no - b.no || a.bucket_ts - b.bucket_ts);

  const expectSame = (actual: MeterEnergy[], expected: MeterEnergy[]) => {
    expect(actual.map(({ energy_kwh: _e, ...key }) => key)).toEqual(
      expected.map(({ energy_kwh: _e, ...key }) => key),
    );
    actual.forEach((row, i) => {
      expect(row.energy_kwh).toBeCloseTo(expected[i]!.energy_kwh, 6);
    });
  };

  it('matches a brute-force oracle over generated series: resets, ratio changes, gaps, duplicates', async () => {
    const random = prng(14);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const start = t.clock.ms;
    const end = start + 16 * day;
    const counted: Counted[] = [];
    const meters = new Map<string, { value: number; ratio: number }>();
    for (const box of boxes) for (const no of [1, 2]) meters.set(`${box.id}:${no}`, { value: 0, ratio: 1 });
    const sent: { box: CreatedFbox; msg: TelemetryMessage }[] = [];
    let seq = 0;
    let resets = 0;
    let glitches = 0;
    let ratioChanges = 0;
    while (t.clock.ms < end) {
      // Gaps: mostly 10-40 minutes, sometimes hours without a report.
      t.clock.advance(
        random() < 0.05 ? Math.floor(random() * 9 * hour) : (10 + Math.floor(random() * 30)) * minute,
      );
      const burst: Promise<void>[] = [];
      for (const box of boxes) {
        if (random() < 0.1) continue;
        const msg = telemetry({ seq: ++seq, ts: t.clock.ms, miners: 1 });
        msg.box.meters = [];
        for (const no of [1, 2] as const) {
          const meter = meters.get(`${box.id}:${no}`)!;
          if (random() < 0.03) continue; // this meter missing from the message
          if (random() < 0.03) {
            meter.ratio = pick([1, 2, 5, 0.5, 40]);
            await setRatio(box, no, meter.ratio);
            ratioChanges++;
          }
          if (random() < 0.04) {
            msg.box.meters.push({ no, energy_kwh: -999, power_kw: -999 });
            continue;
          }
          let reported: number;
          if (random() < 0.02) {
            meter.value = Math.round(random() * 5000) / 1000; // reset: counts on from a small value
            reported = meter.value;
            resets++;
          } else if (random() < 0.03) {
            // A glitch: one reading a little below the register, which goes on where it was.
            reported = Math.max(0, Math.round((meter.value - random() * 0.5) * 1000) / 1000);
            glitches++;
          } else {
            meter.value = Math.round((meter.value + random() * 80) * 1000) / 1000;
            reported = meter.value;
          }
          msg.box.meters.push({ no, energy_kwh: reported, power_kw: 100 });
          counted.push({ fbox_id: box.id, no, ts: msg.ts, value: reported, ratio: meter.ratio });
        }
        burst.push(send(box, msg));
        // A redelivery in the same batch.
        if (random() < 0.05) burst.push(send(box, structuredClone(msg)));
        sent.push({ box, msg });
      }
      await Promise.all(burst);
      // A redelivery of an earlier message (within the 72 h window), after its ratio may have changed.
      if (random() < 0.05 && sent.length > 10) {
        const old = sent[sent.length - 1 - Math.floor(random() * 10)]!;
        await send(old.box, structuredClone(old.msg));
      }
    }
    await t.app.ingest.flush();
    expect(resets).toBeGreaterThan(5);
    expect(glitches).toBeGreaterThan(5);
    expect(ratioChanges).toBeGreaterThan(5);
    counted.sort((a, b) => a.fbox_id - b.fbox_id || a.no - b.no || a.ts - b.ts);

    const whole = { from: start - 2 * day, to: end + 2 * day };
    // A range cut mid-series at hour starts that are not day starts.
    const part = { from: start + 2 * day + 5 * hour, to: start + 11 * day + 7 * hour };
    for (const offset of [-12 * 60, -5 * 60, 0, 8 * 60, 12 * 60])
      for (const bucket of ['hour', 'day', 'month'] as const)
        for (const range of [whole, part]) {
          const expected = oracle(counted, { ...range, bucket, offset });
          expectSame(await energy(bucket, offset, range.from, range.to), expected);
          // Days and months as the statistics read them: from the meters' running totals.
          if (bucket !== 'hour') expectSame(await fromTotals(bucket, offset, range.from, range.to), expected);
        }
    const months = await energy('month', 8 * 60, whole.from, whole.to);
    expect(new Set(months.map((m) => m.bucket_ts))).toEqual(
      new Set([Date.UTC(2025, 0, 1) - 8 * hour, Date.UTC(2025, 1, 1) - 8 * hour]),
    );
  }, 60_000);

  it('counts a redelivered message once and a late, older one not at all', async () => {
    const [box] = boxes as [CreatedFbox];
    const at = (ts: number, seq: number, kwh: number) => {
      const msg = telemetry({ seq, ts, miners: 1 });
      msg.box.meters = [{ no: 1, energy_kwh: kwh, power_kw: 50 }];
      return msg;
    };
    const t0 = t.clock.ms;
    await send(box, at(t0, 1, 100));
    t.clock.advance(10 * minute);
    const second = at(t.clock.ms, 2, 150);
    await Promise.all([send(box, second), send(box, structuredClone(second))]);
    await send(box, structuredClone(second));
    t.clock.advance(10 * minute);
    await send(box, at(t.clock.ms, 3, 175));
    // Stamped between the first two: its increase is already counted by the later readings.
    await send(box, at(t0 + 5 * minute, 4, 120));
    const [row, ...more] = await t.app.meterEnergy.energyByPeriod({
      fboxIds: [box.id],
      from: t0 - day,
      to: t0 + day,
      bucket: 'day',
      tzOffsetMinutes: 0,
    });
    expect(more).toEqual([]);
    expect(row).toMatchObject({ no: 1, energy_kwh: 75, resets: 0 });
  });
});
