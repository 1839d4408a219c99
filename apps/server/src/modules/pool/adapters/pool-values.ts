/** Reading the values pools send: hashrate units, decimal coin amounts, days. Pure functions. */

/** How many TH/s one unit of each SI prefix is. */
const thsPerUnit: Record<string, number> = {
  '': 1e-12,
  k: 1e-9,
  m: 1e-6,
  g: 1e-3,
  t: 1,
  p: 1e3,
  e: 1e6,
};

/**
 * `value` in `unit` ("Gh/s", "TH/s", "PH", "H/s"; case does not matter) as TH/s, or null for a
 * unit we do not know (better a visible error than a figure off by a factor of 1000).
 */
export const toThs = (value: number, unit: string): number | null => {
  const match = /^\s*([kmgtpe]?)h(?:\/s)?\s*$/i.exec(unit);
  if (!match) return null;
  const factor = thsPerUnit[(match[1] ?? '').toLowerCase()];
  return factor === undefined ? null : value * factor;
};

/** A finite number sent as a JSON number or a numeric string; null otherwise. */
export const readNumber = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return null;
};

const decimalPattern = /^\d+(\.\d+)?$/;

/** A non-negative plain decimal ("0.00061081", "12"), sent as a string or a JSON number; else null. */
export const readDecimal = (value: unknown): string | null => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // Pools that send amounts as numbers send at most 8–12 decimals; toFixed(12) keeps them and
    // never switches to exponent notation for small amounts.
    return trimDecimal(value.toFixed(12));
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return decimalPattern.test(text) ? trimDecimal(text) : null;
};

/** "0.00010000" → "0.0001", "1.000" → "1", "0" stays "0". */
const trimDecimal = (text: string): string =>
  text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text.replace(/^0+(?=\d)/, '');

/** The exact sum of plain decimals (no floating point: amounts are money). */
export const sumDecimals = (values: readonly string[]): string => {
  const scale = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
  const total = values.reduce((sum, v) => {
    const [whole = '0', fraction = ''] = v.split('.');
    return sum + BigInt(whole + fraction.padEnd(scale, '0'));
  }, 0n);
  if (scale === 0) return total.toString();
  const digits = total.toString().padStart(scale + 1, '0');
  return trimDecimal(`${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
};

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `day` is a real calendar date written `YYYY-MM-DD`. */
export const isDay = (day: string): boolean =>
  dayPattern.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);

/** The UTC day of a Unix time in seconds. */
export const utcDayOfSeconds = (seconds: number): string =>
  new Date(seconds * 1000).toISOString().slice(0, 10);

/** Throws on a range that is not two valid days in order: a caller's mistake, not the pool's. */
export const checkRange = (range: { from: string; to: string }): void => {
  if (!isDay(range.from) || !isDay(range.to) || range.from > range.to)
    throw new RangeError(`invalid day range ${range.from} .. ${range.to}`);
};
