import { timeZoneOffsetMinutes } from '@fbox/contracts';

/** A calendar day as the date picker gives it (month from 1). */
export interface Day {
  year: number;
  month: number;
  day: number;
}

const offsetMs = (zone: string | null, utcGuess: number) =>
  zone === null ? -new Date(utcGuess).getTimezoneOffset() * 60_000 : timeZoneOffsetMinutes(zone) * 60_000;

/** Midnight starting `day` in the user's time zone (browser time when unknown), as epoch ms. */
export const startOfDay = (day: Day, zone: string | null): number => {
  const utc = Date.UTC(day.year, day.month - 1, day.day);
  return utc - offsetMs(zone, utc);
};

/** The log's `from`/`to` for a range of whole days: [first day 00:00, day after the last 00:00). */
export const dayRange = (first: Day, last: Day, zone: string | null) => ({
  from: startOfDay(first, zone),
  to: startOfDay({ ...last, day: last.day + 1 }, zone),
});

/** The calendar day in the user's time zone of an instant (to show a range read from the URL). */
export const dayOf = (ms: number, zone: string | null): Day => {
  const shifted = new Date(ms + offsetMs(zone, ms));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
};
