/**
 * IPv4 scan ranges as the config writes them: a CIDR block (`10.0.0.0/24`), a dash range
 * (`10.0.0.10-10.0.0.50`) or one address (`10.0.0.7`).
 */

/** At most this many addresses per configured range (a /16): a typo like `/8` must not scan 16 M hosts. */
export const MAX_RANGE_SIZE = 65_536;

const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `10.0.0.1` → its 32-bit number, or null when it is not a dotted IPv4 address. */
export const ipToNumber = (text: string): number | null => {
  const match = octets.exec(text.trim());
  if (!match) return null;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const part = Number(match[i]);
    if (part > 255) return null;
    value = value * 256 + part;
  }
  return value;
};

export const numberToIp = (value: number): string =>
  [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');

export interface IpRange {
  first: number;
  last: number;
}

/** Parses one range; returns the reason as a string when it is not one. */
export const parseIpRange = (text: string): IpRange | string => {
  const trimmed = text.trim();
  let range: IpRange;
  if (trimmed.includes('/')) {
    const [base, bits] = trimmed.split('/');
    const start = ipToNumber(base ?? '');
    const prefix = Number(bits);
    if (start === null || !/^\d{1,2}$/.test(bits ?? '') || prefix > 32) return 'not an IP range';
    const size = 2 ** (32 - prefix);
    const first = Math.floor(start / size) * size;
    range = { first, last: first + size - 1 };
    // A block larger than a /31 leaves out its network and broadcast addresses.
    if (size > 2) range = { first: first + 1, last: first + size - 2 };
  } else if (trimmed.includes('-')) {
    const [a, b] = trimmed.split('-');
    const first = ipToNumber(a ?? '');
    const last = ipToNumber(b ?? '');
    if (first === null || last === null) return 'not an IP range';
    if (last < first) return 'range ends before it starts';
    range = { first, last };
  } else {
    const one = ipToNumber(trimmed);
    if (one === null) return 'not an IP range';
    range = { first: one, last: one };
  }
  if (range.last - range.first + 1 > MAX_RANGE_SIZE)
    return `more than ${MAX_RANGE_SIZE} addresses (split it, or narrow it)`;
  return range;
};

/** Every address of the range, in order. */
export const expandRange = (range: IpRange): string[] => {
  const out: string[] = [];
  for (let value = range.first; value <= range.last; value++) out.push(numberToIp(value));
  return out;
};
