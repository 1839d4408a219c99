import { coinGeckoIds, type RevenueCoin, type RevenueFiat } from '@fbox/contracts';

/** A price address that could not be read, with a reason safe to show (never the body). */
export class PriceReadError extends Error {}

export const priceTiming = {
  /** How often a price address is read. */
  everyMs: 10 * 60_000,
  /** One read gives up after this long. */
  timeoutMs: 5_000,
  /** Larger answers are not a price. */
  maxBytes: 64 * 1024,
  /** Mines one round reads. */
  batch: 20,
  /** How long a claim holds a mine for one read. */
  claimMs: 60_000,
} as const;

const isPrice = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/**
 * The coin's price in the fiat currency from a JSON answer: CoinGecko's simple-price shape
 * `{"bitcoin":{"usd":97000}}` (the coin's CoinGecko id, the currency in lower case), or a plain
 * `{"price":97000}`. Null when neither is there.
 */
export const priceFromJson = (json: unknown, coin: RevenueCoin, fiat: RevenueFiat): number | null => {
  const top = record(json);
  if (!top) return null;
  const byCoin = record(top[coinGeckoIds[coin]]);
  const nested = byCoin?.[fiat.toLowerCase()];
  if (isPrice(nested)) return nested;
  return isPrice(top.price) ? top.price : null;
};

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * Reads a price address (GET, no redirects, 5 s, 64 KiB at most) and returns the price, or throws
 * PriceReadError saying why not: no answer, an HTTP error, not JSON, no price in it.
 */
export const readPrice = async (url: string, coin: RevenueCoin, fiat: RevenueFiat): Promise<number> => {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(priceTiming.timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) throw new PriceReadError(`no answer within ${priceTiming.timeoutMs / 1000} s`);
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code;
    throw new PriceReadError(`cannot reach the address${cause ? ` (${cause})` : ''}`);
  }
  if (!response.ok) throw new PriceReadError(`the address answered HTTP ${response.status}`);
  if (text.length > priceTiming.maxBytes) throw new PriceReadError('the answer is too large to be a price');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PriceReadError('the answer is not JSON');
  }
  const price = priceFromJson(json, coin, fiat);
  if (price === null)
    throw new PriceReadError(
      `the answer has no ${coinGeckoIds[coin]}.${fiat.toLowerCase()} (or price) number above 0`,
    );
  return price;
};
