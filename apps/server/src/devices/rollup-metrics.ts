/**
 * The history values kept as hourly and daily rollups (avg, min, max per bucket); the jobs compute
 * them and migration 0002 made one column set each. A new metric needs a migration adding its columns.
 */
export const minerRollupMetrics = ['hashrate', 'power_w', 'chip_max_temp'] as const;
export const fboxRollupMetrics = ['power_kw', 'temperature', 'humidity', 'hashrate_total'] as const;
export const tankRollupMetrics = ['oil_in_temp', 'oil_out_temp', 'liquid_level'] as const;
