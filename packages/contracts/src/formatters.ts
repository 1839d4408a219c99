import { limits } from './limits.js';

/** True when a reading is missing: -999 (DESIGN §6), null, undefined or not a number. */
export const isNoData = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || Number.isNaN(value) || value === limits.noData;

const NO_DATA_TEXT = '-';

const fixed = (value: number, digits: number) => {
  const text = value.toFixed(digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
};

/** Hashrate stored in TH/s, shown as TH/s, PH/s from 1000, EH/s from 1,000,000 (spec §9). */
export const formatHashrate = (ths: number | null | undefined, digits = 2): string => {
  if (isNoData(ths)) return NO_DATA_TEXT;
  const abs = Math.abs(ths);
  if (abs >= 1_000_000) return `${fixed(ths / 1_000_000, digits)} EH/s`;
  if (abs >= 1000) return `${fixed(ths / 1000, digits)} PH/s`;
  return `${fixed(ths, digits)} TH/s`;
};

const energyUnits = ['kWh', 'MWh', 'GWh', 'TWh', 'PWh'] as const;

/** Energy stored in kWh, shown in the largest unit up to PWh that keeps the value ≥ 1. */
export const formatEnergy = (kwh: number | null | undefined, digits = 2): string => {
  if (isNoData(kwh)) return NO_DATA_TEXT;
  let value = kwh;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < energyUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${fixed(value, digits)} ${energyUnits[unit]}`;
};

const suffixes = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

/** Large counts with the suffixes k, M, G, T, P, E of spec §9. */
export const formatNumberSuffix = (value: number | null | undefined, digits = 1): string => {
  if (isNoData(value)) return NO_DATA_TEXT;
  let scaled = value;
  let index = 0;
  while (Math.abs(scaled) >= 1000 && index < suffixes.length - 1) {
    scaled /= 1000;
    index += 1;
  }
  return `${fixed(scaled, index === 0 ? 0 : digits)}${suffixes[index]}`;
};

/** A reading with its unit, or a dash for -999. */
export const formatReading = (value: number | null | undefined, unit: string, digits = 1): string =>
  isNoData(value) ? NO_DATA_TEXT : `${fixed(value, digits)}${unit ? ` ${unit}` : ''}`;

export interface UptimeParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Uptime in seconds split into days/hours/min/sec; the web localizes the units. */
export const splitUptime = (totalSeconds: number): UptimeParts | null => {
  if (isNoData(totalSeconds) || totalSeconds < 0) return null;
  const s = Math.floor(totalSeconds);
  return {
    days: Math.floor(s / 86_400),
    hours: Math.floor((s % 86_400) / 3600),
    minutes: Math.floor((s % 3600) / 60),
    seconds: s % 60,
  };
};

/** Pump/fan load as a percent of 5000 (50 Hz) or 6000 (60 Hz) (spec §9). */
export const percentLoad = (
  value: number,
  electricityHz: number = limits.defaultElectricityHz,
): number | null => {
  if (isNoData(value)) return null;
  const base = electricityHz === 60 ? limits.percentLoadBase60Hz : limits.percentLoadBase50Hz;
  return Math.round((value / base) * 1000) / 10;
};
