import type { Generated } from 'kysely';

/** Row types of the mining-pool tables (migration 0011_pools). Times are UTC epoch ms. */

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

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    observer_links: ObserverLinksTable;
    pool_subaccounts: PoolSubaccountsTable;
  }
}
