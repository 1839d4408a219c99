import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { bucketSql, type EnergyQuery } from './meter-energy.repository.js';

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

/** The boxes' summed power in one step (hour or day): average and highest hourly maximum. */
export interface LoadPoint {
  ts: number;
  power_kw: number;
  peak_kw: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A rollup value that is a reading: -999 ("no data") and negatives are left out. */
const reading = (column: string) => sql`case when ${sql.ref(column)} >= 0 then ${sql.ref(column)} end`;

/**
 * Power statistics reads (issue 14), all summed in SQL over the hourly meter energy and the hourly
 * FBOX rollups (`fbox_samples_1h`); no raw sample is read. Days and months begin at midnight of the
 * reader's zone (`bucketSql`).
 */
export class PowerStatisticRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Energy per box, meter and bucket, each hour costed at the mine's price valid at the hour's start
   * (the price periods joined to the hours): a price change mid-day or mid-month splits the bucket's
   * cost at the right hour. Before the mine's earliest price, the earliest one applies; `fallback`
   * (the mine's current price) only if the mine has no price row at all.
   */
  async costedEnergy(areaId: number, fallback: number, q: EnergyQuery): Promise<CostedEnergy[]> {
    if (q.fboxIds.length === 0) return [];
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
   * Per box and bucket: the highest hourly maximum of its power (kW), and for efficiency the hashes
   * of its hours with a hashrate (average TH/s × 3600 s) with its metered energy in those hours.
   */
  async boxDemand(q: EnergyQuery): Promise<BoxDemand[]> {
    if (q.fboxIds.length === 0) return [];
    const bucket = bucketSql(this.dialect, 's.bucket_ts', q.bucket, q.tzOffsetMinutes);
    const hashing = sql`s.hashrate_total_avg > 0`;
    const rows = await this.db
      .selectFrom('fbox_samples_1h as s')
      .leftJoin(
        (db) =>
          db
            .selectFrom('meter_energy_hourly')
            .select(['fbox_id', 'hour_ts', sql<number>`sum(energy_kwh)`.as('kwh')])
            .where('fbox_id', 'in', q.fboxIds)
            .where('hour_ts', '>=', q.from)
            .where('hour_ts', '<', q.to)
            .groupBy(['fbox_id', 'hour_ts'])
            .as('e'),
        (join) => join.onRef('e.fbox_id', '=', 's.fbox_id').onRef('e.hour_ts', '=', 's.bucket_ts'),
      )
      .select([
        's.fbox_id',
        bucket.as('bucket_ts'),
        sql<number | null>`max(${reading('s.power_kw_max')})`.as('peak_kw'),
        sql<number | null>`sum(case when ${hashing} then s.hashrate_total_avg * 3600 end)`.as('hashes_th'),
        sql<number | null>`sum(case when ${hashing} then e.kwh end)`.as('hash_kwh'),
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
    const bucket = bucketSql(this.dialect, 'hour_ts', q.bucket, q.tzOffsetMinutes);
    const rows = await this.db
      .selectFrom((db) =>
        db
          .selectFrom('fbox_samples_1h')
          .select([
            sql<number>`bucket_ts`.as('hour_ts'),
            sql<number | null>`sum(${reading('power_kw_avg')})`.as('avg_kw'),
            sql<number | null>`sum(${reading('power_kw_max')})`.as('max_kw'),
          ])
          .where('fbox_id', 'in', q.fboxIds)
          .where('bucket_ts', '>=', q.from)
          .where('bucket_ts', '<', q.to)
          .groupBy('bucket_ts')
          .as('hourly'),
      )
      .select([
        bucket.as('ts'),
        sql<number>`avg(avg_kw)`.as('power_kw'),
        sql<number>`max(max_kw)`.as('peak_kw'),
      ])
      .where('max_kw', 'is not', null)
      .groupBy(bucket)
      .orderBy('ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.ts), power_kw: Number(r.power_kw), peak_kw: Number(r.peak_kw) }));
  }
}
