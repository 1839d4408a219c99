import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DailyEarning, PoolHashrate } from './adapters/index.js';
import type { PoolSyncStatesTable } from './pool.schema.js';

/** A subaccount the sync reads, with its sealed credentials (opened by the caller). */
export interface SyncTarget {
  id: number;
  area_id: number;
  pool: string;
  subaccount: string;
  coin: string;
  api_key: string | null;
  api_secret: string | null;
}

/** Kysely queries of the pool sync: due subaccounts, earnings, hashrate samples and sync states. */
export class PoolSyncRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Subaccounts with an API key whose sync is due (never synced, or its next attempt has come). */
  due(now: number, limit: number): Promise<SyncTarget[]> {
    return this.db
      .selectFrom('pool_subaccounts as s')
      .leftJoin('pool_sync_states as st', 'st.subaccount_id', 's.id')
      .select(['s.id', 's.area_id', 's.pool', 's.subaccount', 's.coin', 's.api_key', 's.api_secret'])
      .where('s.api_key', 'is not', null)
      .where((eb) => eb.or([eb('st.next_attempt_at', 'is', null), eb('st.next_attempt_at', '<=', now)]))
      .orderBy('s.id')
      .limit(limit)
      .execute();
  }

  /**
   * Claims a due subaccount for one read, across processes: its next attempt moves to `until`
   * only if it is still due (a first read inserts its state as pending). False when another process
   * claimed it first.
   */
  async claim(id: number, now: number, until: number): Promise<boolean> {
    const row = await this.db
      .insertInto('pool_sync_states')
      .values({
        subaccount_id: id,
        status: 'pending',
        attempts: 0,
        last_attempt_at: now,
        last_success_at: null,
        last_error: null,
        next_attempt_at: until,
      })
      .onConflict((oc) =>
        oc
          .column('subaccount_id')
          .doUpdateSet({ next_attempt_at: until })
          .where('pool_sync_states.next_attempt_at', '<=', now),
      )
      .returning('subaccount_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The latest day of earnings stored for a subaccount, if any. */
  async lastEarningDay(subaccountId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('pool_earnings')
      .select((eb) => eb.fn.max('day').as('day'))
      .where('subaccount_id', '=', subaccountId)
      .executeTakeFirst();
    return row?.day ?? null;
  }

  /** Stores what the pool reported: one row per day (replaced when read again) and a hashrate sample. */
  async store(
    target: Pick<SyncTarget, 'id' | 'area_id' | 'coin'>,
    earnings: readonly DailyEarning[],
    hashrate: PoolHashrate,
    now: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (earnings.length > 0) {
        await trx
          .insertInto('pool_earnings')
          .values(
            earnings.map((e) => ({
              subaccount_id: target.id,
              area_id: target.area_id,
              day: e.day,
              coin: target.coin,
              amount: e.amount,
              synced_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['subaccount_id', 'day']).doUpdateSet((eb) => ({
              amount: eb.ref('excluded.amount'),
              coin: eb.ref('excluded.coin'),
              synced_at: eb.ref('excluded.synced_at'),
            })),
          )
          .execute();
      }
      await trx
        .insertInto('pool_hashrate')
        .values({
          subaccount_id: target.id,
          area_id: target.area_id,
          ts: now,
          realtime_ths: hashrate.realtimeThs,
          hour_ths: hashrate.hourThs,
          day_ths: hashrate.dayThs,
          active_workers: hashrate.activeWorkers,
        })
        .onConflict((oc) => oc.columns(['subaccount_id', 'ts']).doNothing())
        .execute();
    });
  }

  /** Records a sync's outcome; `attempts` counts failures in a row (0 after a success). */
  async record(state: Selectable<PoolSyncStatesTable>): Promise<void> {
    const { subaccount_id: _id, ...rest } = state;
    await this.db
      .insertInto('pool_sync_states')
      .values(state)
      .onConflict((oc) => oc.column('subaccount_id').doUpdateSet(rest))
      .execute();
  }

  /** The sync states of subaccounts, by id. */
  async statesOf(ids: readonly number[]): Promise<Map<number, Selectable<PoolSyncStatesTable>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('pool_sync_states')
      .selectAll()
      .where('subaccount_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.subaccount_id, r]));
  }

  /** A subaccount's state, for its next failure count. */
  async stateOf(id: number) {
    return (await this.statesOf([id])).get(id);
  }

  /** Makes a subaccount due now (its credentials or pool changed). */
  async makeDue(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('pool_sync_states')
      .set({ next_attempt_at: now, attempts: 0 })
      .where('subaccount_id', '=', id)
      .execute();
  }
}
