import type { RevenueCoin, RevenueFiat } from '@fbox/contracts';

/** A mine's revenue settings (migration 0024_revenue_settings). Times are UTC epoch ms. */
export interface RevenueSettingsTable {
  area_id: number;
  coin: RevenueCoin;
  network_difficulty: number;
  /** Coins per block, subsidy plus average fees. */
  block_reward: number;
  /** One coin in `fiat`: entered, or the last price read from `price_url`. */
  coin_price: number;
  fiat: RevenueFiat;
  /** '' when none. */
  price_url: string;
  price_fetched_at: number | null;
  /** Why the last read of `price_url` failed, safe to show; null when it did not. */
  price_error: string | null;
  /** When the price job reads `price_url` next; null without an address. */
  price_next_at: number | null;
  updated_at: number;
}

declare module '../../db/schema.js' {
  interface DB {
    revenue_settings: RevenueSettingsTable;
  }
}
