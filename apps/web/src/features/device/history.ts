import { deviceLimits, historyIntervals } from '@fbox/contracts';

/** Time ranges the history charts offer, newest data at the right. */
export const historyRanges = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
} as const;
export type HistoryRange = keyof typeof historyRanges;

export type HistoryInterval = (typeof historyIntervals)[number];

/** Intervals of spec §9 that keep a range within the server's point limit. */
export const intervalsFor = (range: HistoryRange): HistoryInterval[] =>
  historyIntervals.filter(
    (seconds) => historyRanges[range] / (seconds * 1000) <= deviceLimits.historyMaxPoints,
  );

/** The interval to use for a range: the wanted one if allowed, else the finest allowed. */
export const fitInterval = (range: HistoryRange, wanted: HistoryInterval): HistoryInterval => {
  const allowed = intervalsFor(range);
  return allowed.includes(wanted) ? wanted : (allowed[0] ?? 7200);
};

/** `from`/`to` of a history call ending at the current bucket. */
export const historyWindow = (range: HistoryRange, interval: HistoryInterval, now = Date.now()) => {
  const step = interval * 1000;
  const to = Math.ceil(now / step) * step;
  return { from: to - historyRanges[range], to, interval };
};

/** `[ts, value]` pairs of one metric of a history answer. */
export const seriesOf = <P extends { ts: number }>(points: readonly P[], metric: keyof P) =>
  points.map((point) => [point.ts, point[metric] as number | null] as const);
