import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { MeterHour, MeterReadingStateTable } from './meter-energy.schema.js';
import { PowerDayRepository } from './power-days.repository.js';

export type EnergyBucket = 'hour' | 'day' | 'month';

export interface EnergyQuery {
  fboxIds: readonly number[];
  /** Hours starting in [from, to), epoch ms. */
  from: number;
  to: number;
  bucket: EnergyBucket;
  /** The user's time zone (whole hours, UTC-12…UTC+12): days and months start at its midnight. */
  tzOffsetMinutes: number;
}

/** Energy of one meter in one bucket; `bucket_ts` is the bucket's start (epoch ms). */
export interface MeterEnergy {
  fbox_id: number;
  no: number;
  bucket_ts: number;
  energy_kwh: number;
  /** Readings lower than the one before within the bucket (meter reset, rollover, replacement). */
  resets: number;
}

const chunk = 2000;

/**
 * Start of the bucket of the hour in `column` (epoch ms) in the user's zone, as SQL of the dialect.
 * The offset is a literal (a whole number checked here), so select and group by are the same
 * expression.
 */
export const bucketSql = (
  dialect: Dialect,
  column: string,
  bucket: EnergyBucket,
  offsetMinutes: number,
): RawBuilder<number> => {
  const offset = Math.round(offsetMinutes);
  if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60) throw new Error(`bad offset ${offsetMinutes}`);
  const at = sql.ref(column);
  const offsetMs = sql.lit(offset * 60_000);
  const local = sql`(${at} + ${offsetMs})`;
  if (bucket === 'hour') return sql<number>`${at}`;
  if (bucket === 'day') return sql<number>`(${local} / 86400000) * 86400000 - ${offsetMs}`;
  return dialect === 'postgres'
    ? sql<number>`cast(extract(epoch from date_trunc('month', to_timestamp(${local} / 1000) at time zone 'UTC')) as bigint) * 1000 - ${offsetMs}`
    : sql<number>`cast(strftime('%s', ${local} / 1000, 'unixepoch', 'start of month') as integer) * 1000 - ${offsetMs}`;
};

/** Meter energy tables (migration 0020): the ingest write and the statistics read. Kysely only. */
export class MeterEnergyRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** A mine's electricity price per kWh. */
  async priceOf(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('areas')
      .select('electricity_price')
      .where('id', '=', areaId)
      .executeTakeFirstOrThrow();
    return Number(row.electricity_price);
  }

  /** The FBOXes of a mine (or the one named, when it is the mine's), by name. */
  boxesOf(areaId: number, fboxId?: number) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'name'])
      .where('area_id', '=', areaId)
      .$if(fboxId !== undefined, (q) => q.where('id', '=', fboxId!))
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** Configured sensor ratios of the boxes' meters. */
  ratios(fboxIds: readonly number[]) {
    return this.db
      .selectFrom('fbox_meters')
      .select(['fbox_id', 'no', 'sensor_ratio'])
      .where('fbox_id', 'in', fboxIds)
      .execute();
  }

  /**
   * The meters' last counted readings. On PostgreSQL the boxes are locked first, to the end of the
   * transaction (a meter's first reading has no state row to lock yet), so two processes writing
   * one box's telemetry count each increase once. `no key update`: inserts referring to the box
   * (samples) only take key-share locks, which it does not wait for.
   */
  async lastReadings(fboxIds: readonly number[]): Promise<MeterReadingStateTable[]> {
    if (this.dialect === 'postgres')
      await this.db
        .selectFrom('fboxes')
        .select('id')
        .where('id', 'in', fboxIds)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
    return this.db
      .selectFrom('meter_reading_state')
      .select(['fbox_id', 'no', 'ts', 'energy_kwh', 'cum_energy_kwh', 'cum_resets', 'cum_readings'])
      .where('fbox_id', 'in', fboxIds)
      .orderBy('fbox_id')
      .orderBy('no')
      .execute();
  }

  async saveLastReadings(rows: readonly MeterReadingStateTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += chunk)
      await this.db
        .insertInto('meter_reading_state')
        .values(rows.slice(i, i + chunk))
        .onConflict((oc) =>
          oc.columns(['fbox_id', 'no']).doUpdateSet((eb) => ({
            ts: eb.ref('excluded.ts'),
            energy_kwh: eb.ref('excluded.energy_kwh'),
            cum_energy_kwh: eb.ref('excluded.cum_energy_kwh'),
            cum_resets: eb.ref('excluded.cum_resets'),
            cum_readings: eb.ref('excluded.cum_readings'),
          })),
        )
        .execute();
  }

  /**
   * Adds energy, resets and readings to the hours' rows (an hour's first reading stays), and forgets
   * the settled days holding those hours (none, unless readings arrive late).
   */
  async addHours(rows: readonly MeterHour[]): Promise<void> {
    const spans = new Map<number, { fboxId: number; from: number; to: number }>();
    for (const r of rows) {
      const span = spans.get(r.fbox_id);
      if (!span) spans.set(r.fbox_id, { fboxId: r.fbox_id, from: r.hour_ts, to: r.hour_ts });
      else {
        span.from = Math.min(span.from, r.hour_ts);
        span.to = Math.max(span.to, r.hour_ts);
      }
    }
    await new PowerDayRepository(this.db, this.dialect).forgetHours([...spans.values()]);
    for (let i = 0; i < rows.length; i += chunk)
      await this.db
        .insertInto('meter_energy_hourly')
        .values(rows.slice(i, i + chunk))
        .onConflict((oc) =>
          oc.columns(['fbox_id', 'no', 'hour_ts']).doUpdateSet((eb) => ({
            energy_kwh: sql`meter_energy_hourly.energy_kwh + excluded.energy_kwh`,
            resets: sql`meter_energy_hourly.resets + excluded.resets`,
            readings: sql`meter_energy_hourly.readings + excluded.readings`,
            last_ts: eb.ref('excluded.last_ts'),
            last_reading: eb.ref('excluded.last_reading'),
            sensor_ratio: eb.ref('excluded.sensor_ratio'),
            // The batch's readings extend the series: its totals are the hour's to its end.
            cum_energy_kwh: eb.ref('excluded.cum_energy_kwh'),
            cum_resets: eb.ref('excluded.cum_resets'),
            cum_readings: eb.ref('excluded.cum_readings'),
          })),
        )
        .execute();
  }

  /** Start of the bucket of `hour_ts` in the user's zone, as SQL of the dialect. */
  private bucketOf(bucket: EnergyBucket, offsetMinutes: number): RawBuilder<number> {
    return bucketSql(this.dialect, 'hour_ts', bucket, offsetMinutes);
  }

  /**
   * Energy (kWh) and resets per box, meter and bucket, summed in SQL from the hourly rows: days and
   * months begin at midnight of the user's zone. Buckets without a counted reading are absent.
   */
  async energyByPeriod(query: EnergyQuery): Promise<MeterEnergy[]> {
    if (query.fboxIds.length === 0) return [];
    const bucket = this.bucketOf(query.bucket, query.tzOffsetMinutes);
    const rows = await this.db
      .selectFrom('meter_energy_hourly')
      .select([
        'fbox_id',
        'no',
        bucket.as('bucket_ts'),
        sql<number>`sum(energy_kwh)`.as('energy_kwh'),
        sql<number>`sum(resets)`.as('resets'),
      ])
      .where('fbox_id', 'in', query.fboxIds)
      .where('hour_ts', '>=', query.from)
      .where('hour_ts', '<', query.to)
      .groupBy(['fbox_id', 'no', bucket])
      .orderBy('fbox_id')
      .orderBy('no')
      .orderBy('bucket_ts')
      .execute();
    return rows.map((r) => ({
      fbox_id: Number(r.fbox_id),
      no: Number(r.no),
      bucket_ts: Number(r.bucket_ts),
      energy_kwh: Number(r.energy_kwh),
      resets: Number(r.resets),
    }));
  }
}
