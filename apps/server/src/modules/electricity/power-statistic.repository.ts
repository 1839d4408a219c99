import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { integerLiteral } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';
import { bucketSql, type EnergyQuery } from './meter-energy.repository.js';
import {
  type LoadHour,
  type PowerDay,
  PowerDayRepository,
  type PowerDayRows,
} from './power-days.repository.js';

/** Energy and its cost of one meter in one bucket. */
export interface CostedEnergy {
  fbox_id: number;
  no: number;
  bucket_ts: number;
  energy_kwh: number;
  cost: number;
  resets: number;
}

/** Peak power and the hashes behind the energy of one box in one bucket. */
export interface BoxDemand {
  fbox_id: number;
  bucket_ts: number;
  peak_kw: number | null;
  /** Terahashes: Σ hourly average hashrate (TH/s) × 3600 s, over hours with a hashrate. */
  hashes_th: number | null;
  /** The box's energy (kWh) in those same hours. */
  hash_kwh: number | null;
}

/**
 * One box in one bucket, where a meter counted energy: each meter's share (null where it counted
 * nothing), the cost, resets, and from the hourly rollups its peak and the hashes behind its energy.
 */
export interface BoxBucket {
  fbox_id: number;
  bucket_ts: number;
  meter1_kwh: number | null;
  meter2_kwh: number | null;
  cost: number;
  resets: number;
  peak_kw: number | null;
  hashes_th: number | null;
  hash_kwh: number | null;
}

/** The boxes' summed power in one step (hour or day): average and highest hourly maximum. */
export interface LoadPoint {
  ts: number;
  power_kw: number;
  peak_kw: number;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Boxes per running-totals query (their ids are bound parameters). */
const chunk = 5000;

interface Totals {
  energy: number;
  resets: number;
  readings: number;
}
const zero: Totals = { energy: 0, resets: 0, readings: 0 };

/** The start of the bucket holding `t` (hour, or day or month of the reader's zone), as `bucketSql` labels it. */
export const bucketStart = (t: number, bucket: EnergyQuery['bucket'], tzOffsetMinutes: number): number => {
  const offset = tzOffsetMinutes * 60_000;
  if (bucket === 'hour') return Math.floor(t / hourMs) * hourMs;
  if (bucket === 'day') return Math.floor((t + offset) / dayMs) * dayMs - offset;
  const local = new Date(t + offset);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - offset;
};

/**
 * The day or month buckets of `[from, to)` in the reader's zone: each bucket's start (its label, as
 * the SQL buckets) and the part of the range it covers.
 */
export const bucketSpans = (q: EnergyQuery): { start: number; from: number; to: number }[] => {
  const offset = q.tzOffsetMinutes * 60_000;
  const nextOf = (start: number) => {
    if (q.bucket === 'day') return start + dayMs;
    const local = new Date(start + offset);
    return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - offset;
  };
  const spans = [];
  for (let start = bucketStart(q.from, q.bucket, q.tzOffsetMinutes); start < q.to; start = nextOf(start))
    spans.push({ start, from: Math.max(q.from, start), to: Math.min(q.to, nextOf(start)) });
  return spans;
};

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

interface PriceSchedule {
  changes: { at: number; price: number }[];
  priceAt: (t: number) => number;
}

/** Sums of nullable figures: null only when every one is null. */
const addNullable = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
const maxNullable = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * Energy rows of several parts of a range as one: a bucket split over parts sums its parts. Parts
 * of day buckets never share a bucket (settled days are whole days, the rest other days): joined.
 */
const mergeEnergy = (parts: CostedEnergy[][], bucket: EnergyQuery['bucket']): CostedEnergy[] => {
  if (parts.length === 1) return parts[0]!;
  if (bucket !== 'month') return parts.flat();
  const merged = new Map<string, CostedEnergy>();
  for (const part of parts)
    for (const e of part) {
      const key = `${e.fbox_id}:${e.no}:${e.bucket_ts}`;
      const m = merged.get(key);
      if (!m) merged.set(key, { ...e });
      else {
        m.energy_kwh += e.energy_kwh;
        m.cost += e.cost;
        m.resets += e.resets;
      }
    }
  return [...merged.values()];
};

/**
 * Settled days as energy rows of the query's buckets, costed at the price of the day (a settled
 * day has no price change inside). A meter that counted no reading that day has no row, as in the
 * sums from the hours.
 */
const energyOfDays = (days: PowerDay[], q: EnergyQuery, priceAt: (t: number) => number): CostedEnergy[] => {
  const out: CostedEnergy[] = [];
  for (const d of days) {
    const bucketTs = bucketStart(d.day_ts, q.bucket, q.tzOffsetMinutes);
    const price = priceAt(d.day_ts);
    if (d.m1_kwh !== null)
      out.push({
        fbox_id: d.fbox_id,
        no: 1,
        bucket_ts: bucketTs,
        energy_kwh: d.m1_kwh,
        cost: d.m1_kwh * price,
        resets: d.m1_resets,
      });
    if (d.m2_kwh !== null)
      out.push({
        fbox_id: d.fbox_id,
        no: 2,
        bucket_ts: bucketTs,
        energy_kwh: d.m2_kwh,
        cost: d.m2_kwh * price,
        resets: d.m2_resets,
      });
  }
  return mergeEnergy([out, []], q.bucket);
};

/** Settled days' demand in the query's buckets (month buckets: summed per box). */
const demandOfDays = (days: PowerDay[], q: EnergyQuery): BoxDemand[] =>
  mergeDemand([
    days.map((d) => ({
      fbox_id: d.fbox_id,
      bucket_ts: bucketStart(d.day_ts, q.bucket, q.tzOffsetMinutes),
      peak_kw: d.peak_kw,
      hashes_th: d.hashes_th,
      hash_kwh: d.hash_kwh,
    })),
  ]);

/** Demand rows of several parts (or one) as one per box and bucket: peaks the highest, hashes summed. */
const mergeDemand = (parts: BoxDemand[][]): BoxDemand[] => {
  const merged = new Map<string, BoxDemand>();
  for (const part of parts)
    for (const d of part) {
      const key = `${d.fbox_id}:${d.bucket_ts}`;
      const m = merged.get(key);
      if (!m) merged.set(key, { ...d });
      else {
        m.peak_kw = maxNullable(m.peak_kw, d.peak_kw);
        m.hashes_th = addNullable(m.hashes_th, d.hashes_th);
        m.hash_kwh = addNullable(m.hash_kwh, d.hash_kwh);
      }
    }
  return [...merged.values()];
};

/** A box's buckets by start: number keys, no key strings for the thousands of rows of a large mine. */
const boxMap = (byBox: Map<number, Map<number, BoxBucket>>, fboxId: number): Map<number, BoxBucket> => {
  let ofBox = byBox.get(fboxId);
  if (!ofBox) {
    ofBox = new Map();
    byBox.set(fboxId, ofBox);
  }
  return ofBox;
};

/**
 * Energy rows (per meter) and demand rows (per box) of the same buckets as box buckets: a box's
 * bucket exists where a meter counted energy, its demand attached.
 */
const boxBucketsOf = (energy: CostedEnergy[], demand: BoxDemand[]): BoxBucket[] => {
  const rows = new Map<number, Map<number, BoxBucket>>();
  for (const e of energy) {
    const ofBox = boxMap(rows, e.fbox_id);
    let row = ofBox.get(e.bucket_ts);
    if (!row) {
      row = {
        fbox_id: e.fbox_id,
        bucket_ts: e.bucket_ts,
        meter1_kwh: null,
        meter2_kwh: null,
        cost: 0,
        resets: 0,
        peak_kw: null,
        hashes_th: null,
        hash_kwh: null,
      };
      ofBox.set(e.bucket_ts, row);
    }
    row.cost += e.cost;
    row.resets += e.resets;
    if (e.no === 1) row.meter1_kwh = (row.meter1_kwh ?? 0) + e.energy_kwh;
    if (e.no === 2) row.meter2_kwh = (row.meter2_kwh ?? 0) + e.energy_kwh;
  }
  for (const d of demand) {
    const row = rows.get(d.fbox_id)?.get(d.bucket_ts);
    if (!row) continue;
    row.peak_kw = d.peak_kw;
    row.hashes_th = d.hashes_th;
    row.hash_kwh = d.hash_kwh;
  }
  return [...rows.values()].flatMap((ofBox) => [...ofBox.values()]);
};

/** A rollup value that is a reading: -999 ("no data") and negatives are left out. */
const reading = (column: string) => sql`case when ${sql.ref(column)} >= 0 then ${sql.ref(column)} end`;

/**
 * Power statistics reads (issue 14), all summed in SQL over the hourly meter energy and the hourly
 * FBOX rollups (`fbox_samples_1h`); no raw sample is read. Days and months begin at midnight of the
 * reader's zone (`bucketSql`).
 */
export class PowerStatisticRepository {
  /** One read of the settled days and of the prices, however many calls of this instance need them. */
  private readonly settledDays = new Map<string, Promise<PowerDay[]>>();
  private prices: Promise<PriceSchedule> | null = null;

  /**
   * `now` (the server's clock): day and month buckets read the days that ended 3 hours before its
   * hour from `fbox_power_days`; without it, every bucket is summed from the hours.
   */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly now?: number,
  ) {}

  /** The mine's price changes (each from the first hour starting at or after its `valid_from`). */
  private priceSchedule(areaId: number, fallback: number): Promise<PriceSchedule> {
    this.prices ??= this.db
      .selectFrom('electricity_prices')
      .select(['valid_from', 'price'])
      .where('area_id', '=', areaId)
      .orderBy('valid_from')
      .execute()
      .then((prices) => {
        // The earliest price also applies before it.
        const changes = prices.map((p, i) => ({
          at: i === 0 ? Number.NEGATIVE_INFINITY : Math.ceil(Number(p.valid_from) / hourMs) * hourMs,
          price: Number(p.price),
        }));
        return {
          changes,
          priceAt: (t: number) => {
            let price = changes.length === 0 ? fallback : changes[0]!.price;
            for (const c of changes) if (c.at <= t) price = c.price;
            return price;
          },
        };
      });
    return this.prices;
  }

  /**
   * Splits a day or month query: the whole days of its zone that are settled (ended 3 hours before
   * the clock's hour, no price change inside), read from `fbox_power_days`, and the rest as ranges
   * summed from the hours.
   */
  private async plan(
    areaId: number,
    fallback: number,
    q: EnergyQuery,
  ): Promise<{ settled: number[]; live: EnergyQuery[]; priceAt: (t: number) => number }> {
    const { changes, priceAt } = await this.priceSchedule(areaId, fallback);
    if (this.now === undefined || q.bucket === 'hour') return { settled: [], live: [q], priceAt };
    const settledBefore = Math.floor(this.now / hourMs) * hourMs - 3 * hourMs;
    const settled = bucketSpans({ ...q, bucket: 'day' })
      .filter((d) => d.from === d.start && d.to === d.start + dayMs && d.to <= settledBefore)
      .filter((d) => !changes.some((c) => c.at > d.from && c.at < d.to))
      .map((d) => d.start);
    const live: EnergyQuery[] = [];
    let at = q.from;
    for (const start of [...settled, q.to]) {
      if (start > at) live.push({ ...q, from: at, to: start });
      at = Math.max(at, start + dayMs);
    }
    return { settled, live, priceAt };
  }

  /** `plan` with the settled days read (once per instance for the same boxes and days). */
  private async split(
    areaId: number,
    fallback: number,
    q: EnergyQuery,
  ): Promise<{ days: PowerDay[]; live: EnergyQuery[]; priceAt: (t: number) => number }> {
    const { settled, live, priceAt } = await this.plan(areaId, fallback, q);
    const key = `${q.fboxIds.join(',')}|${settled.join(',')}`;
    let days = this.settledDays.get(key);
    if (!days) {
      days = new PowerDayRepository(this.db, this.dialect).days(q.fboxIds, settled);
      this.settledDays.set(key, days);
    }
    return { days: await days, live, priceAt };
  }

  /**
   * Day buckets as the statistic's table: the settled days as their stored rows (JSON text) and
   * sums, the other days as box buckets summed from the hours (see `boxBuckets`).
   */
  async dayTable(
    areaId: number,
    fallback: number,
    q: EnergyQuery,
  ): Promise<{ settled: PowerDayRows[]; live: BoxBucket[] }> {
    if (q.fboxIds.length === 0) return { settled: [], live: [] };
    const { settled, live, priceAt } = await this.plan(areaId, fallback, { ...q, bucket: 'day' });
    const [rows, liveBuckets] = await Promise.all([
      new PowerDayRepository(this.db, this.dialect).dayRows(q.fboxIds, settled, priceAt),
      this.liveDayBuckets(areaId, fallback, live),
    ]);
    return { settled: rows, live: liveBuckets };
  }

  /** Day buckets of the parts of a range that are not settled, summed from the hours. */
  private async liveDayBuckets(areaId: number, fallback: number, live: EnergyQuery[]): Promise<BoxBucket[]> {
    const parts = await Promise.all(
      live.map(async (part) => {
        const [energy, demand] = await Promise.all([
          this.costedFromTotals(areaId, fallback, part),
          this.demandFromHours(part),
        ]);
        return boxBucketsOf(energy, demand);
      }),
    );
    return parts.flat();
  }

  /**
   * Energy per box, meter and bucket, each hour costed at the mine's price valid at the hour's start
   * (the price periods joined to the hours): a price change mid-day or mid-month splits the bucket's
   * cost at the right hour. Before the mine's earliest price, the earliest one applies; `fallback`
   * (the mine's current price) only if the mine has no price row at all.
   */
  async costedEnergy(areaId: number, fallback: number, q: EnergyQuery): Promise<CostedEnergy[]> {
    if (q.fboxIds.length === 0) return [];
    if (q.bucket !== 'hour') {
      const { days, live, priceAt } = await this.split(areaId, fallback, q);
      const parts = await Promise.all(live.map((part) => this.costedFromTotals(areaId, fallback, part)));
      return mergeEnergy([energyOfDays(days, q, priceAt), ...parts], q.bucket);
    }
    const bucket = bucketSql(this.dialect, 'h.hour_ts', q.bucket, q.tzOffsetMinutes);
    const rows = await this.db
      .with('periods', (db) =>
        db
          .selectFrom('electricity_prices')
          .select([
            sql<number>`case when lag(valid_from) over (order by valid_from) is null then 0 else valid_from end`.as(
              'valid_from',
            ),
            sql<number | null>`lead(valid_from) over (order by valid_from)`.as('valid_to'),
            'price',
          ])
          .where('area_id', '=', areaId),
      )
      .selectFrom('meter_energy_hourly as h')
      .leftJoin('periods as p', (join) =>
        join
          .onRef('p.valid_from', '<=', 'h.hour_ts')
          .on((eb) => eb.or([eb('p.valid_to', 'is', null), eb('p.valid_to', '>', eb.ref('h.hour_ts'))])),
      )
      .select([
        'h.fbox_id',
        'h.no',
        bucket.as('bucket_ts'),
        sql<number>`sum(h.energy_kwh)`.as('energy_kwh'),
        sql<number>`sum(h.energy_kwh * coalesce(p.price, ${fallback}))`.as('cost'),
        sql<number>`sum(h.resets)`.as('resets'),
      ])
      .where('h.fbox_id', 'in', q.fboxIds)
      .where('h.hour_ts', '>=', q.from)
      .where('h.hour_ts', '<', q.to)
      .groupBy(['h.fbox_id', 'h.no', bucket])
      .execute();
    return rows.map((r) => ({
      fbox_id: Number(r.fbox_id),
      no: Number(r.no),
      bucket_ts: Number(r.bucket_ts),
      energy_kwh: Number(r.energy_kwh),
      cost: Number(r.cost),
      resets: Number(r.resets),
    }));
  }

  /**
   * `costedEnergy` for days and months from the meters' running totals (migration 0026): the energy
   * of the hours in `[x, y)` is the total before `y` minus the total before `x`, so a bucket costs
   * one look-up per meter and edge (bucket edges, and the hours prices change at) instead of a sum
   * over its hours. Same answer as the sum: a bucket without a counted reading is absent.
   */
  private async costedFromTotals(areaId: number, fallback: number, q: EnergyQuery): Promise<CostedEnergy[]> {
    const { changes, priceAt } = await this.priceSchedule(areaId, fallback);
    const buckets = bucketSpans(q);
    const cuts = changes.map((c) => c.at).filter((t) => t > q.from && t < q.to);
    const edges = [...new Set([...buckets.flatMap((b) => [b.from, b.to]), ...cuts])].sort((a, b) => a - b);
    const totals = new Map<string, Totals>();
    for (let i = 0; i < q.fboxIds.length; i += chunk)
      await this.totalsBefore(q.fboxIds.slice(i, i + chunk), edges, totals);
    const out: CostedEnergy[] = [];
    for (const fboxId of q.fboxIds)
      for (const no of [1, 2]) {
        const at = (t: number) => totals.get(`${fboxId}:${no}:${t}`) ?? zero;
        for (const b of buckets) {
          const start = at(b.from);
          const end = at(b.to);
          if (end.readings === start.readings) continue;
          let cost = 0;
          const inside = [b.from, ...cuts.filter((t) => t > b.from && t < b.to), b.to];
          for (let k = 0; k + 1 < inside.length; k++)
            cost += (at(inside[k + 1]!).energy - at(inside[k]!).energy) * priceAt(inside[k]!);
          out.push({
            fbox_id: fboxId,
            no,
            bucket_ts: b.start,
            energy_kwh: end.energy - start.energy,
            cost,
            resets: end.resets - start.resets,
          });
        }
      }
    return out;
  }

  /**
   * Each meter's running totals to the end of its last hour starting before each edge. Edges are
   * whole hours, so where a meter has a row for the hour just before an edge, that row holds the
   * totals: one range read finds those. Only the rest (a meter that counted nothing that hour, a
   * range before its first reading) looks up its last earlier hour, one correlated look-up each.
   */
  private async totalsBefore(
    fboxIds: readonly number[],
    edges: readonly number[],
    into: Map<string, Totals>,
  ): Promise<void> {
    type Row = { energy: unknown; resets: unknown; readings: unknown };
    const totalsOf = (r: Row): Totals => ({
      energy: Number(r.energy ?? 0),
      resets: Number(r.resets ?? 0),
      readings: Number(r.readings ?? 0),
    });
    const direct = await this.db
      .selectFrom('meter_energy_hourly')
      .select([
        'fbox_id',
        'no',
        'hour_ts',
        'cum_energy_kwh as energy',
        'cum_resets as resets',
        'cum_readings as readings',
      ])
      .where('fbox_id', 'in', fboxIds)
      // Both meters named: the primary key (fbox_id, no, hour_ts) serves every look-up.
      .where('no', 'in', [1, 2])
      .where(
        'hour_ts',
        'in',
        edges.map((e) => e - hourMs),
      )
      .execute();
    for (const r of direct) into.set(`${r.fbox_id}:${r.no}:${Number(r.hour_ts) + hourMs}`, totalsOf(r));
    const missing: string[] = [];
    for (const fboxId of fboxIds)
      for (const no of [1, 2])
        for (const t of edges)
          if (!into.has(`${fboxId}:${no}:${t}`))
            missing.push(`(${integerLiteral(fboxId)}, ${integerLiteral(no)}, ${integerLiteral(t)})`);
    if (missing.length === 0) return;
    const { rows } = await sql<Row & { fbox_id: number; no: number; t: number | string }>`
      with m (fbox_id, no, t) as (values ${sql.raw(missing.join(', '))})
      select m.fbox_id, m.no, m.t, h.cum_energy_kwh as energy, h.cum_resets as resets, h.cum_readings as readings
      from m
      join meter_energy_hourly h on h.fbox_id = m.fbox_id and h.no = m.no and h.hour_ts = (
        select max(q.hour_ts) from meter_energy_hourly q
        where q.fbox_id = m.fbox_id and q.no = m.no and q.hour_ts < m.t
      )`.execute(this.db);
    for (const r of rows) into.set(`${r.fbox_id}:${r.no}:${Number(r.t)}`, totalsOf(r));
  }

  /**
   * Per box and hour or month where a meter counted: its energy and cost (as `costedEnergy`), and
   * from the hourly rollups its highest hourly maximum of power (kW) and, for efficiency, the hashes
   * of its hours with a hashrate (average TH/s × 3600 s) with its metered energy in those hours.
   * Settled days are read as stored, one row each: the mine-sized part of a long range. Days are
   * `dayTable`.
   */
  async boxBuckets(
    areaId: number,
    fallback: number,
    q: EnergyQuery & { bucket: 'hour' | 'month' },
  ): Promise<BoxBucket[]> {
    if (q.fboxIds.length === 0) return [];
    if (q.bucket === 'hour') {
      const [energy, demand] = await Promise.all([
        this.costedEnergy(areaId, fallback, q),
        this.demandFromHours(q),
      ]);
      return boxBucketsOf(energy, demand);
    }
    // A month may join settled days and live parts: its energy and its demand are each summed
    // over all of them first, so a day's peak counts wherever the month has energy.
    const { days, live } = await this.split(areaId, fallback, q);
    const [energy, ...demandParts] = await Promise.all([
      this.costedEnergy(areaId, fallback, q),
      ...live.map((part) => this.demandFromHours(part)),
    ]);
    return boxBucketsOf(energy, mergeDemand([demandOfDays(days, q), ...demandParts]));
  }

  private async demandFromHours(q: EnergyQuery): Promise<BoxDemand[]> {
    const bucket = bucketSql(this.dialect, 's.bucket_ts', q.bucket, q.tzOffsetMinutes);
    const hashing = sql`s.hashrate_total_avg > 0`;
    // Each meter's hour by its primary key: no grouping of the meter rows by box and hour first
    // (SQLite sorted all of them for that: two thirds of the call). Null when neither meter counted.
    const boxKwh = sql<number | null>`coalesce(m1.energy_kwh + m2.energy_kwh, m1.energy_kwh, m2.energy_kwh)`;
    const rows = await this.db
      .selectFrom('fbox_samples_1h as s')
      .leftJoin('meter_energy_hourly as m1', (join) =>
        join
          .onRef('m1.fbox_id', '=', 's.fbox_id')
          .on('m1.no', '=', 1)
          .onRef('m1.hour_ts', '=', 's.bucket_ts'),
      )
      .leftJoin('meter_energy_hourly as m2', (join) =>
        join
          .onRef('m2.fbox_id', '=', 's.fbox_id')
          .on('m2.no', '=', 2)
          .onRef('m2.hour_ts', '=', 's.bucket_ts'),
      )
      .select([
        's.fbox_id',
        bucket.as('bucket_ts'),
        sql<number | null>`max(${reading('s.power_kw_max')})`.as('peak_kw'),
        sql<number | null>`sum(case when ${hashing} then s.hashrate_total_avg * 3600 end)`.as('hashes_th'),
        sql<number | null>`sum(case when ${hashing} then ${boxKwh} end)`.as('hash_kwh'),
      ])
      .where('s.fbox_id', 'in', q.fboxIds)
      .where('s.bucket_ts', '>=', q.from)
      .where('s.bucket_ts', '<', q.to)
      .groupBy(['s.fbox_id', bucket])
      .execute();
    return rows.map((r) => ({
      fbox_id: Number(r.fbox_id),
      bucket_ts: Number(r.bucket_ts),
      peak_kw: num(r.peak_kw),
      hashes_th: num(r.hashes_th),
      hash_kwh: num(r.hash_kwh),
    }));
  }

  /**
   * The boxes' power summed per hour (their hourly averages, and their hourly maxima), then per
   * `bucket`: the average of those hourly sums and the highest hourly sum of maxima. The highest
   * sum of maxima is the peak demand of the boxes together: it never understates the coincident
   * peak (each box's maximum may fall at another minute of the hour), which is what a demand
   * charge must not miss.
   */
  async load(q: EnergyQuery): Promise<LoadPoint[]> {
    if (q.fboxIds.length === 0) return [];
    // Hours ended 3 hours before the clock's hour are read from the stored sums, the rest summed here.
    const settledFrom = Math.ceil(q.from / hourMs) * hourMs;
    const settledTo =
      this.now === undefined
        ? settledFrom
        : Math.max(
            settledFrom,
            Math.min(Math.ceil(q.to / hourMs) * hourMs, Math.floor(this.now / hourMs) * hourMs - 3 * hourMs),
          );
    const [settled, live] = await Promise.all([
      new PowerDayRepository(this.db, this.dialect).loadHours(q.fboxIds, settledFrom, settledTo),
      settledTo < q.to ? this.loadHours({ ...q, from: Math.max(q.from, settledTo) }) : [],
    ]);
    const steps = new Map<number, { sum: number; count: number; peak: number }>();
    for (const h of [...settled, ...live]) {
      if (h.max_kw === null) continue;
      const ts = bucketStart(h.hour_ts, q.bucket, q.tzOffsetMinutes);
      const step = steps.get(ts) ?? { sum: 0, count: 0, peak: Number.NEGATIVE_INFINITY };
      if (h.avg_kw !== null) {
        step.sum += h.avg_kw;
        step.count++;
      }
      step.peak = Math.max(step.peak, h.max_kw);
      steps.set(ts, step);
    }
    return [...steps.entries()]
      .sort(([a], [b]) => a - b)
      .map(([ts, step]) => ({
        ts,
        power_kw: step.count === 0 ? 0 : step.sum / step.count,
        peak_kw: step.peak,
      }));
  }

  /** The boxes' power summed per hour in `[from, to)`, from the FBOX hours. */
  private async loadHours(q: EnergyQuery): Promise<LoadHour[]> {
    const rows = await this.db
      .selectFrom('fbox_samples_1h')
      .select([
        'bucket_ts',
        sql<number | null>`sum(${reading('power_kw_avg')})`.as('avg_kw'),
        sql<number | null>`sum(${reading('power_kw_max')})`.as('max_kw'),
      ])
      .where('fbox_id', 'in', q.fboxIds)
      .where('bucket_ts', '>=', q.from)
      .where('bucket_ts', '<', q.to)
      .groupBy('bucket_ts')
      .execute();
    return rows.map((r) => ({ hour_ts: Number(r.bucket_ts), avg_kw: num(r.avg_kw), max_kw: num(r.max_kw) }));
  }
}
