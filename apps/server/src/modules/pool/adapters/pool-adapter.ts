/**
 * What the revenue sync asks of a mining pool, whichever pool it is (docs/pools.md). An adapter
 * speaks one pool's documented API and answers in our units:
 *
 * - earnings: a decimal string in whole coins of the subaccount's coin ("0.00061081" BTC), never a
 *   float, so sums over months stay exact;
 * - hashrate: TH/s;
 * - days: UTC calendar dates `YYYY-MM-DD` (both pools settle at 00:00 UTC).
 *
 * Every failure is one of the four errors below, whose message is safe to show to the user: it
 * never holds the API key or secret.
 */

/** The pools with an adapter; the key of `poolAdapters`. */
export type PoolKind = 'braiins' | 'antpool';

/**
 * A pool subaccount's access, as stored in `pool_subaccounts` (secrets unsealed by the caller).
 * Braiins Pool needs only the access-profile token (`apiKey`); Antpool signs with the subaccount
 * name (its "userId"), the key and the secret.
 */
export interface PoolCredentials {
  /** The subaccount name at the pool (Antpool's `userId`). */
  subaccount: string;
  /** The coin as stored ("BTC"); each adapter spells it the way its pool wants. */
  coin: string;
  apiKey: string | null;
  apiSecret: string | null;
}

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

/** What the pool credited the subaccount for one UTC day. */
export interface DailyEarning {
  day: string;
  /** Whole coins as a decimal string, e.g. "0.00061081". */
  amount: string;
}

/** The pool-side hashrate of a subaccount, in TH/s. */
export interface PoolHashrate {
  /** The pool's shortest average (Braiins 5 min, Antpool 10 min). */
  realtimeThs: number;
  /** Length of the realtime window, in minutes. */
  realtimeMinutes: number;
  hourThs: number;
  dayThs: number;
  /** Workers the pool counts as hashing; null when the pool does not say. */
  activeWorkers: number | null;
}

/** One pool's API behind the common shape. */
export interface PoolAdapter {
  readonly kind: PoolKind;
  /** Earnings per UTC day in the range, oldest first; a day the pool has no record of is left out. */
  dailyEarnings(credentials: PoolCredentials, range: DayRange): Promise<DailyEarning[]>;
  /** The subaccount's current pool-side hashrate. */
  hashrate(credentials: PoolCredentials): Promise<PoolHashrate>;
}

/** Where an adapter sends its requests; tests point it at a local server. */
export interface PoolAdapterOptions {
  /** The pool's API origin; default the pool's public address. */
  baseUrl?: string;
  /** Per request, milliseconds; default 15 s. */
  timeoutMs?: number;
}

/** Any failure of a pool call. `retry` says whether trying again later can help. */
export abstract class PoolError extends Error {
  abstract readonly retry: boolean;
  constructor(message: string) {
    // Messages are built from our own words, status codes and the pool's short reason; capped so a
    // pool echoing a page of HTML does not end up in the sync status.
    super(message.slice(0, 300));
  }
}

/** The pool refused the credentials (wrong or revoked key, bad signature, no permission). Permanent. */
export class PoolAuthError extends PoolError {
  override name = 'PoolAuthError';
  readonly retry = false;
}

/** The pool asked us to slow down; try again after `retryAfterSeconds`. */
export class PoolRateLimited extends PoolError {
  override name = 'PoolRateLimited';
  readonly retry = true;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The pool could not be reached or failed (timeout, network, HTTP 5xx, its own system error). */
export class PoolUnavailable extends PoolError {
  override name = 'PoolUnavailable';
  readonly retry = true;
}

/** The pool answered something we cannot read (not JSON, missing fields, unknown unit or code). */
export class PoolResponseError extends PoolError {
  override name = 'PoolResponseError';
  readonly retry = false;
}
