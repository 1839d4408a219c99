import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { RevenueSettingsTable } from './revenue.schema.js';

const hourMs = 3_600_000;

/** An hour's value, TH/s. */
export interface HourValue {
  ts: number;
  ths: number;
}

/** Kysely queries of the revenue statistics: settings, pool credits and hourly hashrates. */
export class RevenueRepository {
  constructor(private readonly db: Kysely<DB>) {}

  settingsOf(areaId: number) {
    return this.db
      .selectFrom('revenue_settings')
      .selectAll()
      .where('area_id', '=', areaId)
      .executeTakeFirst();
  }

  async saveSettings(row: RevenueSettingsTable): Promise<void> {
    const { area_id: _areaId, ...rest } = row;
    await this.db
      .insertInto('revenue_settings')
      .values(row)
      .onConflict((oc) => oc.column('area_id').doUpdateSet(rest))
      .execute();
  }

  /** Records a read of the price address: a new price, or the reason it failed. */
  async recordPrice(
    areaId: number,
    outcome: { price: number; at: number } | { error: string },
    nextAt: number,
  ): Promise<void> {
    await this.db
      .updateTable('revenue_settings')
      .set(
        'price' in outcome
          ? {
              coin_price: outcome.price,
              price_fetched_at: outcome.at,
              price_error: null,
              price_next_at: nextAt,
            }
          : { price_error: outcome.error, price_next_at: nextAt },
      )
      .where('area_id', '=', areaId)
      .execute();
  }

  /** Mines whose price address is due to be read. */
  duePrices(now: number, limit: number) {
    return this.db
      .selectFrom('revenue_settings')
      .select(['area_id', 'coin', 'fiat', 'price_url'])
      .where('price_url', '<>', '')
      .where('price_next_at', '<=', now)
      .orderBy('price_next_at')
      .limit(limit)
      .execute();
  }

  /** Claims a due price read across processes: false when another process moved it first. */
  async claimPrice(areaId: number, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('revenue_settings')
      .set({ price_next_at: until })
      .where('area_id', '=', areaId)
      .where('price_next_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A mine's electricity price per kWh. */
  async electricityPrice(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('areas')
      .select('electricity_price')
      .where('id', '=', areaId)
      .executeTakeFirst();
    return Number(row?.electricity_price ?? 0);
  }

  fboxIdsOf(areaId: number) {
    return this.db
      .selectFrom('fboxes')
      .select('id')
      .where('area_id', '=', areaId)
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  /** What the pools credited the mine's subaccounts in `coin`, per UTC day (`YYYY-MM-DD`) of the range. */
  poolCredits(areaId: number, coin: string, fromDay: string, toDay: string) {
    return this.db
      .selectFrom('pool_earnings')
      .select(['day', 'amount'])
      .where('area_id', '=', areaId)
      .where((eb) => eb(eb.fn('upper', ['coin']), '=', coin.toUpperCase()))
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute();
  }

  /**
   * The mine's miner-side hashrate per hour of `[from, to)`: the hourly averages of its FBOXes'
   * total hashrate, summed over the boxes that reported that hour.
   */
  async mineHourly(areaId: number, from: number, to: number): Promise<HourValue[]> {
    const rows = await this.db
      .selectFrom('fbox_samples_1h as s')
      .innerJoin('fboxes as f', 'f.id', 's.fbox_id')
      .select(['s.bucket_ts', sql<number>`sum(s.hashrate_total_avg)`.as('ths')])
      .where('f.area_id', '=', areaId)
      .where('s.bucket_ts', '>=', from)
      .where('s.bucket_ts', '<', to)
      .where('s.hashrate_total_avg', '<>', -999)
      .groupBy('s.bucket_ts')
      .orderBy('s.bucket_ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.bucket_ts), ths: Number(r.ths) }));
  }

  /** The mine's pool subaccounts (no secrets: only whether a key is stored). */
  subaccounts(areaId: number) {
    return this.db
      .selectFrom('pool_subaccounts')
      .select([
        'id',
        'pool',
        'subaccount',
        'coin',
        sql<number>`case when api_key is null then 0 else 1 end`.as('has_key'),
      ])
      .where('area_id', '=', areaId)
      .orderBy('pool')
      .orderBy('subaccount')
      .orderBy('id')
      .execute();
  }

  /** A subaccount's pool-side hashrate per hour: the mean of its samples' 60-minute averages. */
  async poolHourly(subaccountId: number, from: number, to: number): Promise<HourValue[]> {
    const bucket = sql<number>`ts - (ts % ${sql.lit(hourMs)})`;
    const rows = await this.db
      .selectFrom('pool_hashrate')
      .select([bucket.as('bucket_ts'), sql<number>`avg(hour_ths)`.as('ths')])
      .where('subaccount_id', '=', subaccountId)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .groupBy(bucket)
      .orderBy('bucket_ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.bucket_ts), ths: Number(r.ths) }));
  }

  /** Lower-cased worker names start with `prefix` (already lower case): portable, no LIKE escapes. */
  private workerPrefix(prefix: string) {
    return sql<boolean>`substr(lower(m.worker), 1, ${sql.lit(prefix.length)}) = ${prefix}`;
  }

  /** How many of the mine's miners hash for a subaccount (worker `<prefix>…`). */
  async minerCount(areaId: number, prefix: string): Promise<number> {
    const row = await this.db
      .selectFrom('miner_state as m')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.area_id', '=', areaId)
      .where(this.workerPrefix(prefix))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The summed hourly hashrate of the mine's miners whose worker starts with `prefix`. */
  async minersHourly(areaId: number, prefix: string, from: number, to: number): Promise<HourValue[]> {
    const rows = await this.db
      .selectFrom('miner_samples_1h as s')
      .innerJoin('miner_state as m', 'm.miner_id', 's.miner_id')
      .select(['s.bucket_ts', sql<number>`sum(s.hashrate_avg)`.as('ths')])
      .where('m.area_id', '=', areaId)
      .where(this.workerPrefix(prefix))
      .where('s.bucket_ts', '>=', from)
      .where('s.bucket_ts', '<', to)
      .where('s.hashrate_avg', '<>', -999)
      .groupBy('s.bucket_ts')
      .orderBy('s.bucket_ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.bucket_ts), ths: Number(r.ths) }));
  }
}
