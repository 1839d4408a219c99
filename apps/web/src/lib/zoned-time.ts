import { timeZoneOffsetMinutes } from '@fbox/contracts';
import dayjs, { type Dayjs } from 'dayjs';

/*
 * Date pickers show wall-clock time in the user's time zone (the top bar's `UTC+8` …), not the
 * browser's. A picker value is a dayjs whose local fields are that wall time; these two turn it into
 * the instant (epoch ms) the server stores and back. No zone (user info not loaded): browser time.
 */

/** The picker value that shows instant `ms` in `zone`. */
export const toPickerValue = (ms: number, zone: string | null): Dayjs => {
  if (zone === null) return dayjs(ms);
  const wall = new Date(ms + timeZoneOffsetMinutes(zone) * 60_000);
  return dayjs(
    new Date(
      wall.getUTCFullYear(),
      wall.getUTCMonth(),
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
      wall.getUTCSeconds(),
    ),
  );
};

/** The instant (epoch ms) a picker value means in `zone`. */
export const fromPickerValue = (value: Dayjs, zone: string | null): number => {
  if (zone === null) return value.valueOf();
  const wall = Date.UTC(
    value.year(),
    value.month(),
    value.date(),
    value.hour(),
    value.minute(),
    value.second(),
  );
  return wall - timeZoneOffsetMinutes(zone) * 60_000;
};
