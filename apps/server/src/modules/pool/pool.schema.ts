import type { PoolSyncStatus } from '@fbox/contracts';
import type { Generated } from 'kysely';

/** Row types of the mining-pool tables (migrations 0011_pools and 0021_pool_sync). Times are UTC epoch ms. */

/** An observer link of a mine (`fbox.pool`): opens the pool's read-only observer page. */
export interface ObserverLinksTable {
  id: Generated<number>;
  area_id: number;
  pool: string;
  subaccount: string;
  coin: string;
  /** An http(s) address, checked by the contract before it is stored. */
  link: string;
  created_at: number;
}

/** A pool subaccount of a mine (`admin/area/pool`) with its read-only credentials. */
export interface PoolSubaccountsTable {
  id: Generated<number>;
  area_id: number;
  pool: string;
  subaccount: string;
  coin: string;
  /** The observer address at the pool, '' when none. */
  observer_url: string;
  /** Write-only secrets, sealed (lib/secret-box): never answered by the API; null when none. */
  api_key: string | null;
  api_secret: string | null;
  created_at: number;
  updated_at: number;
}

/** What a pool credited a subaccount for one UTC day (migration 0021). */
export interface PoolEarningsTable {
  subaccount_id: number;
  area_id: number;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  coin: string;
  /** Whole coins, exact decimal text. */
  amount: string;
  synced_at: number;
}

/** The pool-side hashrate of a subaccount when it was read, TH/s. */
export interface PoolHashrateTable {
  subaccount_id: number;
  area_id: number;
  ts: number;
  realtime_ths: number;
  hour_ths: number;
  day_ths: number;
  active_workers: number | null;
}

/** How the sync of a subaccount went last, and when it runs next. */
export interface PoolSyncStatesTable {
  subaccount_id: number;
  status: PoolSyncStatus;
  attempts: number;
  last_attempt_at: number;
  last_success_at: number | null;
  /** The pool's reason, safe to show (never a key or secret). */
  last_error: string | null;
  next_attempt_at: number;
}

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    observer_links: ObserverLinksTable;
    pool_subaccounts: PoolSubaccountsTable;
    pool_earnings: PoolEarningsTable;
    pool_hashrate: PoolHashrateTable;
    pool_sync_states: PoolSyncStatesTable;
  }
}
