import {
  type PowerStatistic,
  type PowerStatisticQuery,
  type PowerStatisticRow,
  timeZoneOffsetMinutes,
} from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { JsonText } from '../../lib/json-text.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound } from '../device-access.js';
import { UserRepository } from '../user/user.repository.js';
import { ElectricityPriceRepository } from './electricity-price.repository.js';
import { pricesInForce } from './electricity-price.service.js';

/** kWh and money to 3 decimals: what a table shows, without float noise. */
const round = (value: number) => Math.round(value * 1000) / 1000;

/** J/TH of `kwh` over `terahashes` (1 kWh = 3.6 MJ), to 2 decimals; null without hashes. */
const joulesPerTerahash = (kwh: number | null, terahashes: number | null): number | null =>
  kwh === null || terahashes === null || terahashes <= 0
    ? null
    : Math.round(((kwh * 3_600_000) / terahashes) * 100) / 100;

import { type EnergyQuery, type MeterEnergy, MeterEnergyRepository } from './meter-energy.repository.js';
import { PowerDayRepository, type PowerDayRows } from './power-days.repository.js';
import { bucketStart, type CostedEnergy, PowerStatisticRepository } from './power-statistic.repository.js';

/** The statistic as sent: its rows may be JSON text (settled days are stored as text). */
export type PowerStatisticAnswer = Omit<PowerStatistic, 'rows'> & {
  rows: PowerStatisticRow[] | JsonText<PowerStatisticRow[]>;
};

/** A bucket's sums while the rows are gone through: the hashes and their energy give its J/TH. */
type Bucket = PowerStatistic['buckets'][number] & { hashes: number; hashKwh: number };

const newBucket = (bucketTs: number): Bucket => ({
  bucket_ts: bucketTs,
  energy_kwh: 0,
  cost: 0,
  resets: 0,
  peak_kw: null,
  j_per_th: null,
  hashes: 0,
  hashKwh: 0,
});

/**
 * The table's rows as one JSON text, bucket by bucket: a settled day's stored text as it is, the
 * other buckets' rows (`live`, in bucket order) serialized. `buckets` are in order.
 */
const tableText = (
  buckets: readonly Bucket[],
  settled: readonly PowerDayRows[],
  live: readonly PowerStatisticRow[],
): JsonText<PowerStatisticRow[]> => {
  const stored = new Map(settled.map((d) => [d.day_ts, d.text]));
  const parts: string[] = [];
  let next = 0;
  for (const { bucket_ts } of buckets) {
    const text = stored.get(bucket_ts);
    if (text !== undefined) {
      parts.push(text);
      continue;
    }
    let end = next;
    while (end < live.length && live[end]!.bucket_ts === bucket_ts) end++;
    if (end > next) parts.push(JSON.stringify(live.slice(next, end)).slice(1, -1));
    next = end;
  }
  return JsonText.array(parts);
};

/**
 * Energy per meter from the meters' accumulated readings (issue 14): counted into hourly rows in
 * each telemetry batch's transaction, summed per hour, day or month in the user's zone on read.
 */
export class MeterEnergyService {
  constructor(
    private readonly deps: { db: Kysely<DB>; dialect: Dialect; areas: AreaService; clock: () => number },
  ) {}

  /** The hourly rollup rewrote a table's hours from `from` on: FBOX hours change settled days. */
  async hoursRewritten(trx: Transaction<DB>, table: string, from: number): Promise<void> {
    if (table === 'fbox_samples_1h') await new PowerDayRepository(trx, this.deps.dialect).forgetFrom(from);
  }

  /** Drops the settled days starting before `before` (their FBOX hours are past retention). */
  pruneSettledDays(before: number): Promise<void> {
    return new PowerDayRepository(this.deps.db, this.deps.dialect).pruneBefore(before);
  }

  /**
   * Power statistics of a mine the caller sees: energy per FBOX (its meters summed, and each meter)
   * and bucket of the reader's time zone, each hour costed at the price valid at its start; peak
   * demand, efficiency (J/TH) and the load profile from the hourly rollups. All sums are SQL
   * (PowerStatisticRepository); here only the few bucket rows are put together. An FBOX of another
   * mine answers "not found".
   */
  async statistic(user: AreaCaller, q: PowerStatisticQuery): Promise<PowerStatisticAnswer> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = new MeterEnergyRepository(this.deps.db, this.deps.dialect);
    const stats = new PowerStatisticRepository(this.deps.db, this.deps.dialect, this.deps.clock());
    const fboxes = await repo.boxesOf(q.area_id, q.fbox_id);
    if (q.fbox_id !== undefined && fboxes.length === 0) notFound();
    const zone = (await new UserRepository(this.deps.db).timeZone(user.id)) ?? 'UTC+0';
    const query: EnergyQuery = {
      fboxIds: fboxes.map((f) => f.id),
      from: q.from,
      to: q.to,
      bucket: q.bucket,
      tzOffsetMinutes: timeZoneOffsetMinutes(zone),
    };
    const price = await repo.priceOf(q.area_id);
    const profileStep = q.bucket === 'month' ? 'day' : 'hour';
    const [table, profile, prices] = await Promise.all([
      q.bucket === 'day'
        ? stats.dayTable(q.area_id, price, query)
        : stats.boxBuckets(q.area_id, price, { ...query, bucket: q.bucket }).then((live) => ({
            settled: [] as PowerDayRows[],
            live,
          })),
      stats.load({ ...query, bucket: profileStep }),
      this.pricesUsed(q.area_id, q.from, q.to),
    ]);
    const boxes = table.live.sort((a, b) => a.bucket_ts - b.bucket_ts || a.fbox_id - b.fbox_id);
    const buckets = new Map<number, Bucket>();
    // One pass: each row as the table shows it, and its bucket's sums (rows come bucket by bucket).
    const rows: PowerStatisticRow[] = new Array(boxes.length);
    let b: Bucket | undefined;
    for (let i = 0; i < boxes.length; i++) {
      const r = boxes[i]!;
      const energy = (r.meter1_kwh ?? 0) + (r.meter2_kwh ?? 0);
      rows[i] = {
        bucket_ts: r.bucket_ts,
        fbox_id: r.fbox_id,
        energy_kwh: round(energy),
        meter1_kwh: r.meter1_kwh === null ? null : round(r.meter1_kwh),
        meter2_kwh: r.meter2_kwh === null ? null : round(r.meter2_kwh),
        cost: round(r.cost),
        resets: r.resets,
        peak_kw: r.peak_kw === null ? null : round(r.peak_kw),
        j_per_th: joulesPerTerahash(r.hash_kwh, r.hashes_th),
      };
      if (b?.bucket_ts !== r.bucket_ts) {
        b = newBucket(r.bucket_ts);
        buckets.set(r.bucket_ts, b);
      }
      b.energy_kwh += energy;
      b.cost += r.cost;
      b.resets += r.resets;
      b.hashes += r.hashes_th ?? 0;
      b.hashKwh += r.hash_kwh ?? 0;
    }
    // Settled days come with their rows as text and their sums.
    for (const d of table.settled)
      buckets.set(d.day_ts, {
        ...newBucket(d.day_ts),
        energy_kwh: d.energy_kwh,
        cost: d.cost,
        resets: d.resets,
        hashes: d.hashes_th,
        hashKwh: d.hash_kwh,
      });
    // A bucket's peak is its highest profile step's peak (a step never spans two buckets).
    for (const p of profile) {
      const b = buckets.get(bucketStart(p.ts, q.bucket, query.tzOffsetMinutes));
      if (b) b.peak_kw = Math.max(b.peak_kw ?? 0, round(p.peak_kw));
    }
    const all = [...buckets.values()].sort((x, y) => x.bucket_ts - y.bucket_ts);
    const hashes = all.reduce((sum, b) => sum + b.hashes, 0);
    const hashKwh = all.reduce((sum, b) => sum + b.hashKwh, 0);
    const peakValues = all.flatMap((b) => (b.peak_kw === null ? [] : [b.peak_kw]));
    return {
      bucket: q.bucket,
      time_zone: zone,
      price,
      prices,
      fboxes,
      rows: table.settled.length === 0 ? rows : tableText(all, table.settled, rows),
      buckets: all.map(({ hashes: h, hashKwh: k, ...b }) => ({
        ...b,
        energy_kwh: round(b.energy_kwh),
        cost: round(b.cost),
        j_per_th: joulesPerTerahash(k, h),
      })),
      profile_step: profileStep,
      profile: profile.map((p) => ({ ts: p.ts, power_kw: round(p.power_kw), peak_kw: round(p.peak_kw) })),
      total_kwh: round(all.reduce((sum, b) => sum + b.energy_kwh, 0)),
      total_cost: round(all.reduce((sum, b) => sum + b.cost, 0)),
      resets: all.reduce((sum, b) => sum + b.resets, 0),
      peak_kw: peakValues.length === 0 ? null : Math.max(...peakValues),
      j_per_th: joulesPerTerahash(hashKwh, hashes),
    };
  }

  /** The mine's prices in force during `[from, to)`, oldest first. */
  private async pricesUsed(areaId: number, from: number, to: number) {
    return pricesInForce(
      await new ElectricityPriceRepository(this.deps.db, this.deps.dialect).periods(areaId),
      from,
      to,
    );
  }

  /**
   * Energy per box, meter and bucket with each hour costed at the mine's price valid then (revenue's
   * power cost); see `PowerStatisticRepository.costedEnergy`.
   */
  costedEnergy(areaId: number, fallbackPrice: number, query: EnergyQuery): Promise<CostedEnergy[]> {
    return new PowerStatisticRepository(this.deps.db, this.deps.dialect, this.deps.clock()).costedEnergy(
      areaId,
      fallbackPrice,
      query,
    );
  }

  /** Energy (kWh) and resets per box, meter and bucket; see `MeterEnergyRepository.energyByPeriod`. */
  energyByPeriod(query: EnergyQuery): Promise<MeterEnergy[]> {
    return new MeterEnergyRepository(this.deps.db, this.deps.dialect).energyByPeriod(query);
  }
}
