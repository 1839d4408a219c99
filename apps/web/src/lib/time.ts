import { timeZoneOffsetMinutes } from '@fbox/contracts';
import { createStore } from './store';

/** The signed-in user's time zone (`UTC+8` …); null until the user info is known (browser time then). */
export const timeZoneStore = createStore<string | null>(null);

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * Formats an instant (ms since epoch) as `YYYY-MM-DD HH:mm:ss` in the user's time zone, so every time on
 * screen follows the zone picked in the top bar.
 */
export const formatTime = (ms: number, zone: string | null = timeZoneStore.get()): string => {
  if (zone === null) {
    const local = new Date(ms);
    return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;
  }
  const shifted = new Date(ms + timeZoneOffsetMinutes(zone) * 60_000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
};
