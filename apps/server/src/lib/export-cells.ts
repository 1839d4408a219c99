import { timeZoneOffsetMinutes } from '@fbox/contracts';

/**
 * Cells and names shared by the CSV and XLSX downloads: times and file dates in the reader's time
 * zone, numbers without float noise, spreadsheet-safe text.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` of an instant in a `UTC±N` zone (anything else reads as UTC). */
export const formatInZone = (ms: number, zone: string | null | undefined): string => {
  const d = new Date(ms + timeZoneOffsetMinutes(zone ?? 'UTC+0') * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

/** The reader's date of an instant, for a file name (`miners-3-2026-11-25.csv`). */
export const dateInZone = (ms: number, zone: string | null | undefined): string =>
  formatInZone(ms, zone).slice(0, 10);

/** A measured value as a sheet shows it: at most `digits` decimals (104.68896103896104 → 104.69). */
export const roundCell = (value: number, digits = 2): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/**
 * One CSV cell: quoted when needed; text starting with a formula character is prefixed with `'`
 * so a spreadsheet does not run it (CSV injection). Numbers are written as they are.
 */
export const csvCell = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** One CSV line (CRLF, as spreadsheets expect). */
export const csvLine = (cells: readonly (string | number | null)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
