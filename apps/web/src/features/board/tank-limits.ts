import { isNoData, type TankBoard } from '@fbox/contracts';

export type BoardTank = TankBoard['fboxes'][number]['tanks'][number];
type Limit = TankBoard['limits']['oil_in_temp'][number];

/** The tank readings a threshold rule watches, and which way each trips. */
export const tankReadings = {
  oil_in_temp: { metric: 'oil_in_temp_high', trips: 'above' },
  oil_out_temp: { metric: 'oil_out_temp_high', trips: 'above' },
  liquid_level: { metric: 'liquid_level_low', trips: 'below' },
} as const;
export type TankReading = keyof typeof tankReadings;

/**
 * How a reading shows: `none` without a reading, `free` when no rule watches it, `ok` within every
 * rule's threshold, else the level (1 critical, 2 major, 3 minor) of the most severe rule it is past
 * or of its open alert. `limit` is the threshold shown beside it: the most severe one passed, else
 * the first one it would pass.
 */
export interface ReadingState {
  band: 'none' | 'free' | 'ok' | 'level1' | 'level2' | 'level3';
  limit: number | null;
}

const levelBand = (level: number): ReadingState['band'] =>
  level <= 1 ? 'level1' : level === 2 ? 'level2' : 'level3';

/** A reading against the enabled rules' thresholds (`limits`, most severe first) and its open alert. */
export const readingState = (
  tank: BoardTank,
  reading: TankReading,
  limits: readonly Limit[],
): ReadingState => {
  const value = tank[reading];
  const { metric, trips } = tankReadings[reading];
  if (isNoData(value)) return { band: 'none', limit: firstLimit(limits, trips) };
  const past = limits.filter((l) => (trips === 'above' ? value > l.threshold : value < l.threshold));
  const alert = tank.alerts.find((a) => a.metric === metric);
  const levels = [...past.map((l) => l.level), ...(alert ? [alert.level] : [])];
  if (levels.length > 0)
    return { band: levelBand(Math.min(...levels)), limit: past[0]?.threshold ?? firstLimit(limits, trips) };
  if (limits.length === 0) return { band: 'free', limit: null };
  return { band: 'ok', limit: firstLimit(limits, trips) };
};

/** The threshold a reading passes first: the lowest one for "above", the highest for "below". */
const firstLimit = (limits: readonly Limit[], trips: 'above' | 'below'): number | null => {
  if (limits.length === 0) return null;
  const values = limits.map((l) => l.threshold);
  return trips === 'above' ? Math.min(...values) : Math.max(...values);
};

/**
 * A drive (the oil pump, the fans) against its fault rule, which has no threshold: its open alert's
 * level when there is one, `ok` when a rule watches it, `free` when none does; `none` without a reading.
 */
export const driveState = (
  tank: BoardTank,
  metric: 'tank_pump_fault' | 'fan_fault',
  watched: boolean,
  values: readonly number[],
): ReadingState['band'] => {
  const alert = tank.alerts.find((a) => a.metric === metric);
  if (alert) return levelBand(alert.level);
  if (values.length === 0 || values.every(isNoData)) return 'none';
  return watched ? 'ok' : 'free';
};
