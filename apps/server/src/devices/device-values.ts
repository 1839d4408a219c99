import { type DeviceStatus, limits } from '@fbox/contracts';

/** How device state rows read on screen: status, readings (-999 for "no data"), JSON, energy. */

export const statusOf = (online: number | null | undefined): DeviceStatus =>
  online === 1 ? 'online' : 'offline';

/**
 * A reading column's value (3 decimals: sums of floats carry binary noise), -999 when the row
 * (state not yet reported) is missing.
 */
export const readingOf = (value: number | null | undefined): number =>
  value === null || value === undefined ? limits.noData : Math.round(value * 1000) / 1000;

export const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/**
 * Today's energy of a box from its state row: meters now minus the reading at the UTC day start;
 * -999 ("no reading", a dash) for a box whose meters never reported (a site collector's FBOX has
 * none), where 0 would claim it used nothing.
 */
export const todayEnergy = (
  state: {
    meter1_energy_kwh: number | null;
    meter2_energy_kwh: number | null;
    energy_day_start_kwh: number | null;
    energy_day: number | null;
  },
  now: number,
): number => {
  const value = (v: number | null) => (v === null || v === limits.noData ? 0 : v);
  const unread = (v: number | null) => v === null || v === limits.noData;
  if (unread(state.meter1_energy_kwh) && unread(state.meter2_energy_kwh)) return limits.noData;
  if (state.energy_day !== Math.floor(now / 86_400_000)) return 0;
  const used =
    value(state.meter1_energy_kwh) + value(state.meter2_energy_kwh) - value(state.energy_day_start_kwh);
  return used > 0 ? Math.round(used * 1000) / 1000 : 0;
};
