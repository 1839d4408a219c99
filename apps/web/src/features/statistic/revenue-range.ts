import { timeZoneOffsetMinutes } from '@fbox/contracts';

/** The range presets of the revenue screen. */
export const revenuePresets = ['7d', '30d', 'month', 'custom'] as const;
export type RevenuePreset = (typeof revenuePresets)[number];

const dayMs = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** Today's date (`YYYY-MM-DD`) in the user's zone, or the browser's when none is known. */
export const todayIn = (zone: string | null, now = Date.now()): string => {
  if (zone === null) {
    const d = new Date(now);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }
  return new Date(now + timeZoneOffsetMinutes(zone) * 60_000).toISOString().slice(0, 10);
};

/** A date `days` after (or before) another, calendar arithmetic only. */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

/** The first and last day of a preset, ending today: 7 or 30 days, or this month so far. */
export const presetRange = (preset: Exclude<RevenuePreset, 'custom'>, today: string): [string, string] => {
  if (preset === 'month') return [`${today.slice(0, 8)}01`, today];
  return [addDays(today, preset === '7d' ? -6 : -29), today];
};
