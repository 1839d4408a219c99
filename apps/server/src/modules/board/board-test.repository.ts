import { limits } from '@fbox/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A miner's sums over the window from the hashrate rollup (seconds and TH/s · s). */
export interface TestSums {
  miner_id: number;
  cover_s: number;
  reach_s: number;
  hashrate_s: number;
  theo_s: number;
}

/**
 * Kysely queries for the miner commissioning board: per miner, sums over a window from the hourly
 * hashrate rollup and the hottest chip from the 1-hour and 1-minute history rollups, aggregated in
 * SQL (no raw sample reaches Node).
 */
export class BoardTestRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The miners of the boxes (by the mine's state), as the site map places them. */
  private minerIds(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('miner_state')
      .select('miner_id')
      .where('area_id', '=', areaId)
      .where('fbox_id', 'in', fboxIds);
  }

  /**
   * Each miner's seconds existing (`cover_s`) and reporting online (`reach_s`), hashrate × seconds
   * and theoretical × seconds over the hours starting in [`fromHour`, `toHour`] (the current hour
   * as far as the rollup has gone). The PG driver answers sums as text: converted here.
   */
  async hashrateSums(
    areaId: number,
    fboxIds: readonly number[],
    fromHour: number,
    toHour: number,
  ): Promise<TestSums[]> {
    const rows = await this.db
      .selectFrom('miner_hashrate_1h')
      .select([
        'miner_id',
        sql<number | string>`sum(cover_s)`.as('cover_s'),
        sql<number | string>`sum(reach_s)`.as('reach_s'),
        sql<number | string>`sum(hashrate_s)`.as('hashrate_s'),
        sql<number | string>`sum(theo_s)`.as('theo_s'),
      ])
      .where('miner_id', 'in', this.minerIds(areaId, fboxIds))
      .where('hour_ts', '>=', fromHour)
      .where('hour_ts', '<=', toHour)
      .groupBy('miner_id')
      .execute();
    return rows.map((r) => ({
      miner_id: Number(r.miner_id),
      cover_s: Number(r.cover_s),
      reach_s: Number(r.reach_s),
      hashrate_s: Number(r.hashrate_s),
      theo_s: Number(r.theo_s),
    }));
  }

  /** Where the 1-hour history rollup ends: the end of its newest hour (null: it holds none since `from`). */
  async hourRollupEnd(from: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('miner_samples_1h')
      .select(sql<number | string | null>`max(bucket_ts)`.as('last'))
      .where('bucket_ts', '>=', from)
      .executeTakeFirst();
    return row?.last == null ? null : Number(row.last) + 3_600_000;
  }

  /**
   * Each miner's hottest chip in [`from`, `to`): from the 1-hour rollup before `cut`, the 1-minute
   * rollup after it (the hours not rolled up yet). Buckets without a reading (-999) are left out.
   */
  async hottestChips(
    areaId: number,
    fboxIds: readonly number[],
    from: number,
    cut: number,
    to: number,
  ): Promise<{ miner_id: number; chip_max_temp: number }[]> {
    const ids = this.minerIds(areaId, fboxIds);
    const rows = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('miner_samples_1h')
          .select(['miner_id', 'chip_max_temp_max as chip'])
          .where('miner_id', 'in', ids)
          .where('bucket_ts', '>=', from)
          .where('bucket_ts', '<', cut)
          .where('chip_max_temp_max', '<>', limits.noData)
          .unionAll(
            eb
              .selectFrom('miner_samples_1m')
              .select(['miner_id', 'chip_max_temp_max as chip'])
              .where('miner_id', 'in', ids)
              .where('bucket_ts', '>=', cut)
              .where('bucket_ts', '<', to)
              .where('chip_max_temp_max', '<>', limits.noData),
          )
          .as('u'),
      )
      .select(['u.miner_id', (eb) => eb.fn.max('u.chip').as('chip_max_temp')])
      .groupBy('u.miner_id')
      .execute();
    return rows.map((r) => ({ miner_id: Number(r.miner_id), chip_max_temp: Number(r.chip_max_temp) }));
  }
}
