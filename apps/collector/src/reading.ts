/**
 * What a protocol reads off one miner, before the collector adds where it is (IP) and whether it
 * answered. Units as docs/mqtt.md: hash rates TH/s, temperatures °C, power W, uptime s; -999 = no
 * reading.
 */
export const NO_READING = -999;

export interface MinerReading {
  /** The miner's own serial or id (see docs/collector.md for where each protocol gets it). */
  sn: string;
  brand: string;
  model: string;
  firmware: string;
  worker: string;
  /** The active pool's host, and its full address. */
  pool: string;
  pool_address: string;
  mode: 'high' | 'low';
  chip_avg_temp: number;
  chip_max_temp: number;
  hashrate_theoretical: number;
  hashrate_realtime: number;
  hashrate_avg: number;
  power_w: number;
  /** '' when healthy, else `chain` (a hash board not hashing or missing chips) or `fan` (a fan at 0 rpm). */
  fault: string;
  uptime_s: number;
  /** Fan speeds, rpm (not part of the telemetry: they decide the `fan` fault and show in the log). */
  fans: number[];
}

/** Rounds to `digits` decimals, or -999 for no reading. */
export const reading = (value: number | null | undefined, digits = 3): number => {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_READING;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** A reading's figures when there are none: normal mode, every number "no reading", no fault. */
export const noFigures = {
  mode: 'high',
  chip_avg_temp: NO_READING,
  chip_max_temp: NO_READING,
  hashrate_theoretical: NO_READING,
  hashrate_realtime: NO_READING,
  hashrate_avg: NO_READING,
  power_w: NO_READING,
  fault: '',
  uptime_s: NO_READING,
} as const satisfies Partial<MinerReading>;
