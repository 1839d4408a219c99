/** Sums of one miner over one hour (or part of the current hour), with running totals. */
export interface MinerHashrate1hTable {
  miner_id: number;
  hour_ts: number;
  area_id: number;
  fbox_id: number;
  model: string;
  /** Seconds of the hour the miner existed (until the rollup's time for the current hour). */
  cover_s: number;
  /** Seconds covered by online reports (each stands for its box's reporting interval), ≤ cover_s. */
  reach_s: number;
  /** Seconds covered by online reports with hashrate > 0, ≤ reach_s. */
  hash_s: number;
  /** Average hashrate of the online reports × reach_s (TH/s · s). */
  hashrate_s: number;
  /** Theoretical hashrate × cover_s (TH/s · s). */
  theo_s: number;
  /** 1 when the miner reported online at least once in the hour. */
  online: number;
  /** Running totals of the miner's rows up to and including this hour. */
  cum_cover_s: number;
  cum_reach_s: number;
  cum_hash_s: number;
  cum_hashrate_s: number;
  cum_theo_s: number;
}

/** Miner sums per mine, split (`all`, `fbox`, `model`, `group`), key and hour, with running totals. */
export interface FleetHashrate1hTable {
  area_id: number;
  dim: string;
  /** '' for `all`; the FBOX id, the model, or the group id ('0': in no group). */
  key: string;
  hour_ts: number;
  /** Seconds of the hour rolled up (60 min, or until the rollup's time for the current hour). */
  wall_s: number;
  miners: number;
  online_miners: number;
  cover_s: number;
  reach_s: number;
  hash_s: number;
  hashrate_s: number;
  theo_s: number;
  cum_wall_s: number;
  cum_miners: number;
  cum_online_miners: number;
  cum_cover_s: number;
  cum_reach_s: number;
  cum_hash_s: number;
  cum_hashrate_s: number;
  cum_theo_s: number;
}

/** Every (mine, split, key) ever rolled up: the series a range may have. */
export interface FleetHashrateKeysTable {
  area_id: number;
  dim: string;
  key: string;
}

/**
 * A settled day of a split (migration 0037): the overview's rows of its keys for the 24-hour
 * window starting at `day_ts` in buckets of `bucket` ('day' or 'hour'), as JSON text without
 * brackets ('' when no key had data); `all` holds the mine's hours.
 */
export interface FleetHashrateDaysTable {
  area_id: number;
  dim: string;
  bucket: 'day' | 'hour';
  day_ts: number;
  rows_json: string;
}

declare module '../../db/schema.js' {
  interface DB {
    fleet_hashrate_days: FleetHashrateDaysTable;
    miner_hashrate_1h: MinerHashrate1hTable;
    fleet_hashrate_1h: FleetHashrate1hTable;
    fleet_hashrate_keys: FleetHashrateKeysTable;
  }
}
