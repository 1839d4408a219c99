import { type DataBoard, isNoData } from '@fbox/contracts';

/**
 * The hashrate now against its average over the last 24 hours (the hours with a reading), in %:
 * positive above it. Null when there is nothing to compare with (no reading, or an average of 0).
 */
export const hashrateTrend = (data: Pick<DataBoard, 'hashrate' | 'series'>): number | null => {
  const readings = data.series.points
    .map((p) => p.hashrate)
    .filter((v): v is number => v !== null && !isNoData(v));
  if (readings.length === 0 || isNoData(data.hashrate)) return null;
  const average = readings.reduce((sum, v) => sum + v, 0) / readings.length;
  return average > 0 ? ((data.hashrate - average) / average) * 100 : null;
};
