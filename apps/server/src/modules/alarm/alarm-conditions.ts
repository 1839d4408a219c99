import {
  type AlertComparison,
  type AlertMetric,
  type AlertRule,
  alertMetrics,
  type BoxTelemetry,
  isNoData,
  type MinerTelemetry,
  type TankTelemetry,
} from '@fbox/contracts';

/**
 * What one reading says about a rule: its condition holds (`fire`), it is back beyond the recovery
 * margin (`clear`), or it is in between (`hold`: an open alert stays open, a pending one is reset).
 */
export type Verdict = 'fire' | 'hold' | 'clear';

export interface Observation {
  verdict: Verdict;
  /** The reading compared (for a range: the phase farthest out); null for a state. */
  value: number | null;
  /** What a state reported (a miner's fault code); '' otherwise. */
  detail: string;
}

/** A metric's reading on one device: numbers to compare, or whether a state holds. */
export type Reading = { values: number[] } | { holds: boolean; detail?: string } | null;

type Thresholds = Pick<AlertRule, 'metric' | 'threshold' | 'threshold_max' | 'hysteresis'>;

const comparisonOf = (metric: AlertMetric): AlertComparison => alertMetrics[metric].comparison;

/** How far a value lies outside [min, max] (≤ 0 inside). */
const outsideBy = (value: number, min: number, max: number) => Math.max(min - value, value - max);

/**
 * The verdict of a rule on one reading; null when there is no data (-999, an offline miner): no
 * data neither fires nor recovers anything.
 */
export const observe = (rule: Thresholds, reading: Reading): Observation | null => {
  if (reading === null) return null;
  if ('holds' in reading) {
    return { verdict: reading.holds ? 'fire' : 'clear', value: null, detail: reading.detail ?? '' };
  }
  const values = reading.values.filter((v) => !isNoData(v));
  if (values.length === 0) return null;
  const threshold = rule.threshold ?? 0;
  const margin = rule.hysteresis;
  switch (comparisonOf(rule.metric)) {
    case 'above': {
      const value = Math.max(...values);
      return {
        verdict: value > threshold ? 'fire' : value < threshold - margin ? 'clear' : 'hold',
        value,
        detail: '',
      };
    }
    case 'below': {
      const value = Math.min(...values);
      return {
        verdict: value < threshold ? 'fire' : value > threshold + margin ? 'clear' : 'hold',
        value,
        detail: '',
      };
    }
    case 'outside': {
      const max = rule.threshold_max ?? threshold;
      const value = values.reduce((a, b) =>
        outsideBy(b, threshold, max) > outsideBy(a, threshold, max) ? b : a,
      );
      const by = outsideBy(value, threshold, max);
      // Recovered when every phase is inside the range narrowed by the margin on both sides.
      return { verdict: by > 0 ? 'fire' : by < -margin ? 'clear' : 'hold', value, detail: '' };
    }
    case 'state':
      return null;
  }
};

/** Whether `value` is worse than the alert's peak so far: higher, lower, or farther outside. */
export const isWorse = (rule: Thresholds, value: number, peak: number): boolean => {
  switch (comparisonOf(rule.metric)) {
    case 'above':
      return value > peak;
    case 'below':
      return value < peak;
    case 'outside': {
      const min = rule.threshold ?? 0;
      const max = rule.threshold_max ?? min;
      return outsideBy(value, min, max) > outsideBy(peak, min, max);
    }
    default:
      return false;
  }
};

/** A box's reading for an FBOX metric (its telemetry says it is online). */
export const fboxReading = (metric: AlertMetric, box: BoxTelemetry): Reading => {
  switch (metric) {
    case 'fbox_temp_high':
      return { values: [box.temperature] };
    case 'fbox_humidity_high':
      return { values: [box.humidity] };
    case 'fbox_voltage_out_of_range':
      return { values: [...box.voltage] };
    case 'fbox_offline':
      return { holds: false };
    default:
      return null;
  }
};

export const tankReading = (metric: AlertMetric, tank: TankTelemetry): Reading => {
  switch (metric) {
    case 'oil_out_temp_high':
      return { values: [tank.oil_out_temp] };
    case 'oil_in_temp_high':
      return { values: [tank.oil_in_temp] };
    case 'liquid_level_low':
      return { values: [tank.liquid_level] };
    case 'short_circuit':
      return { holds: tank.short_circuit };
    default:
      return null;
  }
};

/**
 * A miner's reading. An offline miner's chip temperature, hashrate and fault are stale, so they
 * are no data; hashrate needs both figures reported and a theoretical one above 0.
 */
export const minerReading = (metric: AlertMetric, miner: MinerTelemetry): Reading => {
  if (metric === 'miner_offline') return { holds: !miner.online };
  if (!miner.online) return null;
  switch (metric) {
    case 'chip_temp_high':
      return { values: [miner.chip_max_temp] };
    case 'hashrate_low_pct': {
      const { hashrate_realtime: realtime, hashrate_theoretical: theoretical } = miner;
      if (isNoData(realtime) || isNoData(theoretical) || theoretical <= 0) return null;
      return { values: [(realtime / theoretical) * 100] };
    }
    case 'miner_fault':
      return { holds: miner.fault !== '', detail: miner.fault };
    default:
      return null;
  }
};
