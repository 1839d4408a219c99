import { type AlertMetric, alertMetrics } from '@fbox/contracts';

/** Units of the metrics with readings; the rest are temperatures in °C. */
const units: Partial<Record<AlertMetric, string>> = {
  fbox_voltage_out_of_range: 'V',
  fbox_humidity_high: '%',
  liquid_level_low: '%',
  hashrate_low_pct: '%',
  flow_low: 'm³/h',
};

/** The unit a metric's readings and thresholds are in ('' for a state, which has none). */
export const unitOf = (metric: AlertMetric): string =>
  alertMetrics[metric].comparison === 'state' ? '' : (units[metric] ?? '°C');
