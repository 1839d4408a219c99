import { z } from 'zod';
import { rule } from './rules.js';

/** Offsets of the time zone picker: UTC-12 … UTC+12, whole hours (spec §3, §9). */
export const timeZoneOffsets = Array.from({ length: 25 }, (_, i) => i - 12);

export const timeZoneName = (offsetHours: number): string =>
  `UTC${offsetHours < 0 ? '-' : '+'}${Math.abs(offsetHours)}`;

export const timeZones = timeZoneOffsets.map(timeZoneName);

export const TimeZoneSchema = z.enum(timeZones as [string, ...string[]], { error: rule('rule.timeZone') });
export type TimeZone = z.infer<typeof TimeZoneSchema>;

/** Offset in minutes of a time zone name such as `UTC+8`; unknown names count as UTC. */
export const timeZoneOffsetMinutes = (name: string): number => {
  const match = /^UTC([+-])(\d{1,2})$/.exec(name);
  if (!match) return 0;
  const hours = Number(match[2]);
  return (match[1] === '-' ? -hours : hours) * 60;
};
