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
import { normalizePool } from '../fbox-config/pool-guard.js';

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
    case 'meter_missing':
      return meterMissing(box);
    case 'flow_low':
      return box.flow_rate === undefined ? null : { values: [box.flow_rate] };
    case 'pump_fault':
      return pumpFault(box);
    default:
      return null;
  }
};

/** Power meter positions of an FBOX (the protocol's `no`): 1 the miners, 2 cooling and auxiliaries. */
const meterPositions = [1, 2] as const;

/**
 * A box that reports meters names both positions, each with its energy and power. Missing: a
 * position absent from the list, or a meter reading -999 for either figure; the detail names the
 * positions (`#2`). A box reporting no meter at all has none installed: no data.
 */
const meterMissing = (box: BoxTelemetry): Reading => {
  if (box.meters.length === 0) return null;
  const missing = meterPositions.filter((no) => {
    const meter = box.meters.find((m) => m.no === no);
    return !meter || isNoData(meter.energy_kwh) || isNoData(meter.power_kw);
  });
  return { holds: missing.length > 0, detail: missing.map((no) => `#${no}`).join(',') };
};

/**
 * A water pump switched on whose drive reports speed 0 has tripped or seized. A pump switched off
 * is not running by intent; -999 is no reading. Boxes without a water loop: no data.
 */
const pumpFault = (box: BoxTelemetry): Reading => {
  const pumps = box.pumps?.filter((p) => !isNoData(p.speed));
  if (!pumps || pumps.length === 0) return null;
  const stopped = pumps.filter((p) => p.status === 'on' && p.speed <= 0);
  return { holds: stopped.length > 0, detail: stopped.map((p) => `#${p.no}`).join(',') };
};

/**
 * A tank's drives in auto mode: the controller keeps the oil pump and every fan running, so a drive
 * output of 0 is a drive that stopped against it. In manual mode drives run as the operator switched
 * them: a 0 there is intent, no data. -999 is no reading.
 */
const tankDrives = (tank: TankTelemetry, metric: 'tank_pump_fault' | 'fan_fault'): Reading => {
  if (tank.control_mode !== 'auto') return null;
  if (metric === 'tank_pump_fault') {
    if (isNoData(tank.oil_pump_efficiency)) return null;
    return { holds: tank.oil_pump_efficiency <= 0 };
  }
  const fans = tank.fans.map((speed, i) => ({ no: i + 1, speed })).filter((f) => !isNoData(f.speed));
  if (fans.length === 0) return null;
  const stopped = fans.filter((f) => f.speed <= 0);
  return { holds: stopped.length > 0, detail: stopped.map((f) => `#${f.no}`).join(',') };
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
    case 'tank_pump_fault':
    case 'fan_fault':
      return tankDrives(tank, metric);
    default:
      return null;
  }
};

/** The pool and worker the cloud set for a miner (a pool change, or Lock Pool's snapshot). */
export interface ConfiguredPool {
  pool_address: string;
  worker: string;
}

/**
 * Hijacked: the miner reports a pool address (scheme-normalized, so `host:port` equals
 * `stratum+tcp://host:port`) or a worker other than the ones the cloud configured for it. A miner
 * without a configured pool, or reporting no pool, is no data. The detail is the reported address.
 */
const poolHijacked = (miner: MinerTelemetry, configured: ConfiguredPool | undefined): Reading => {
  if (!configured || miner.pool_address.trim() === '') return null;
  const holds =
    normalizePool(miner.pool_address) !== normalizePool(configured.pool_address) ||
    (configured.worker !== '' && miner.worker.trim() !== configured.worker);
  return { holds, detail: holds ? miner.pool_address.slice(0, 64) : '' };
};

/**
 * A miner's reading. An offline miner's chip temperature, hashrate, fault and pool are stale, so
 * they are no data; hashrate needs both figures reported and a theoretical one above 0.
 * `configured` is the miner's configured pool, read only when a pool rule is on.
 */
export const minerReading = (
  metric: AlertMetric,
  miner: MinerTelemetry,
  configured?: ConfiguredPool,
): Reading => {
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
    case 'pool_hijacked':
      return poolHijacked(miner, configured);
    default:
      return null;
  }
};
