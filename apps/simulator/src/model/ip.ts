/** IPv4 helpers for miner addresses inside an FBOX's IP range. */

const toInt = (text: string): number | null => {
  const parts = text.trim().split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
};

export const ipToString = (value: number): string =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

/**
 * Parse an FBOX IP range: `10.0.1.1-10.0.1.254`, `10.0.1.1-254`, `10.0.1.0/24` or one address.
 * Returns the first and last address as integers, or null when the text is not a range.
 */
export const parseIpRange = (text: string): { first: number; last: number } | null => {
  const value = text.trim();
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(value);
  if (cidr) {
    const base = toInt(cidr[1]!);
    const bits = Number(cidr[2]);
    if (base === null || bits > 32) return null;
    const size = 2 ** (32 - bits);
    const first = base - (base % size);
    return size > 2 ? { first: first + 1, last: first + size - 2 } : { first, last: first + size - 1 };
  }
  const [a, b, ...rest] = value.split('-');
  if (rest.length > 0 || a === undefined) return null;
  const first = toInt(a);
  if (first === null) return null;
  if (b === undefined) return { first, last: first };
  const last = /^\d{1,3}$/.test(b.trim()) ? first - (first % 256) + Number(b) : toInt(b);
  if (last === null || last < first) return null;
  return { first, last };
};

/**
 * `count` usable addresses from `first` on, skipping `.0` and `.255` host parts. When the range is
 * too small the addresses go on past its end (never repeated).
 */
export const allocateIps = (first: number, count: number): string[] => {
  const out: string[] = [];
  for (let ip = first; out.length < count && ip < 2 ** 32; ip++) {
    const host = ip % 256;
    if (host === 0 || host === 255) continue;
    out.push(ipToString(ip));
  }
  return out;
};
