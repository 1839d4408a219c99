import { type BoardMetric, isNoData, type MinerBoard } from '@fbox/contracts';

/** One miner of a miner board, as its cell is coloured. */
export type BoardMiner = MinerBoard['miners'][number];

/**
 * The colour bands of each metric, in legend order. Names are unique across metrics: a cell's
 * `data-colour` alone says its colour (the CSS and the tests read it).
 */
export const metricBands = {
  status: ['online', 'fault', 'offline'],
  chip_temp: ['ok', 'warm', 'hot', 'critical', 'none'],
  hashrate_ratio: ['full', 'fair', 'low', 'poor', 'none'],
  power: ['idle', 'reduced', 'typical', 'heavy', 'none'],
} as const satisfies Record<BoardMetric, readonly string[]>;

export type MinerBand = (typeof metricBands)[BoardMetric][number];

/** Hottest chip, °C: below 60 ok, 60–75 warm, 75–85 hot, 85 and above critical. */
export const chipTempLimits = { warm: 60, hot: 75, critical: 85 } as const;

/** Realtime ÷ theoretical hashrate, %: 95 and above full, 80–95 fair, 50–80 low, below 50 poor. */
export const hashrateLimits = { full: 95, fair: 80, low: 50 } as const;

/**
 * Power as a share of the board's typical miner (the median of the online miners' readings):
 * below half idle (sleeping, a hashboard down), half to 90 % reduced, 90–110 % typical, above heavy.
 * Relative, because a mine's models draw from 1.5 to 6 kW: fixed kW bands would colour by model.
 */
export const powerShares = { reduced: 0.5, typical: 0.9, heavy: 1.1 } as const;

/** Only an online miner's readings are current: an offline one reports stale figures (no data). */
const reading = (miner: BoardMiner, value: number): number | null =>
  miner.online && !isNoData(value) ? value : null;

/** The median power of the online miners reporting it, W; null when none does. */
export const typicalPowerW = (miners: readonly BoardMiner[]): number | null => {
  const readings = miners
    .map((miner) => reading(miner, miner.power_w))
    .filter((w): w is number => w !== null && w > 0)
    .sort((a, b) => a - b);
  if (readings.length === 0) return null;
  const middle = Math.floor(readings.length / 2);
  return readings.length % 2 === 1 ? readings[middle]! : (readings[middle - 1]! + readings[middle]!) / 2;
};

/** The power band limits in whole W for a typical power (reduced, typical, heavy). */
export const powerLimitsW = (typicalW: number) => ({
  reduced: Math.round(typicalW * powerShares.reduced),
  typical: Math.round(typicalW * powerShares.typical),
  heavy: Math.round(typicalW * powerShares.heavy),
});

/** Realtime ÷ theoretical hashrate in %, or null (offline, no reading, no theoretical). */
export const minerHashrateRatio = (miner: BoardMiner): number | null => {
  const hashrate = reading(miner, miner.hashrate);
  const theoretical = reading(miner, miner.theoretical);
  return hashrate === null || theoretical === null || theoretical <= 0
    ? null
    : (hashrate / theoretical) * 100;
};

/**
 * The band a miner's cell shows for a metric. `typicalW` is the board's typical power
 * (`typicalPowerW`), read only for the power metric.
 */
export const minerBand = (metric: BoardMetric, miner: BoardMiner, typicalW: number | null): MinerBand => {
  switch (metric) {
    case 'status':
      if (!miner.online) return 'offline';
      return miner.fault ? 'fault' : 'online';
    case 'chip_temp': {
      const celsius = reading(miner, miner.chip_max_temp);
      if (celsius === null) return 'none';
      if (celsius >= chipTempLimits.critical) return 'critical';
      if (celsius >= chipTempLimits.hot) return 'hot';
      return celsius >= chipTempLimits.warm ? 'warm' : 'ok';
    }
    case 'hashrate_ratio': {
      const ratio = minerHashrateRatio(miner);
      if (ratio === null) return 'none';
      if (ratio >= hashrateLimits.full) return 'full';
      if (ratio >= hashrateLimits.fair) return 'fair';
      return ratio >= hashrateLimits.low ? 'low' : 'poor';
    }
    case 'power': {
      const watts = reading(miner, miner.power_w);
      if (watts === null || typicalW === null) return 'none';
      const limits = powerLimitsW(typicalW);
      if (watts >= limits.heavy) return 'heavy';
      if (watts >= limits.typical) return 'typical';
      return watts >= limits.reduced ? 'reduced' : 'idle';
    }
  }
};
