import { MinerLogExportBodySchema, minerLogLimits, rule } from '@fbox/contracts';
import type { Dayjs } from 'dayjs';
import { fromPickerValue, toPickerValue } from '../../lib/zoned-time';

/*
 * The export's time window. The picker shows wall-clock time in the user's time zone (the top
 * bar's `UTC+8` …), not the browser's: a picker value is a dayjs whose local fields are that wall
 * time. No zone known yet: browser time.
 */

const HOUR = 3_600_000;

/** How far ahead of the server's clock a window may start (the server allows as much). */
export const CLOCK_SLACK_MS = 5 * 60_000;

export { fromPickerValue, toPickerValue };

/** The presets the picker offers: the last hour, 6 hours, 24 hours and 7 days, ending now. */
export const windowPresets = [
  { key: 'hour', ms: HOUR },
  { key: 'sixHours', ms: 6 * HOUR },
  { key: 'day', ms: 24 * HOUR },
  { key: 'week', ms: minerLogLimits.windowMaxMs },
] as const;

/** The last `ms` up to `now`, as picker values in `zone`. */
export const lastWindow = (ms: number, now: number, zone: string | null): [Dayjs, Dayjs] => [
  toPickerValue(now - ms, zone),
  toPickerValue(now, zone),
];

/**
 * What is wrong with a window, as the server would say it (a rule message of the contracts), or
 * null: the end after the start, at most 7 days (the contract's own check), starting no earlier
 * than 30 days back and not in the future. The values are checked as given, never adjusted.
 */
export const windowProblem = (
  from: number,
  to: number,
  now: number,
): { field: 'from' | 'to'; message: string } | null => {
  const parsed = MinerLogExportBodySchema.safeParse({ area_id: 1, scope: 'fbox', ids: [1], from, to });
  const issue = parsed.success
    ? undefined
    : parsed.error.issues.find((i) => i.path[0] === 'to' || i.path[0] === 'from');
  if (issue) return { field: issue.path[0] as 'from' | 'to', message: issue.message };
  if (from > now + CLOCK_SLACK_MS) return { field: 'from', message: rule('rule.windowFuture') };
  if (from < now - minerLogLimits.lookBackMs)
    return {
      field: 'from',
      message: rule('rule.windowTooOld', { max: minerLogLimits.lookBackMs / 86_400_000 }),
    };
  return null;
};
