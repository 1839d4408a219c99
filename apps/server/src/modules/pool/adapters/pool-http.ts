import { PoolAuthError, PoolRateLimited, PoolResponseError, PoolUnavailable } from './pool-adapter.js';

/** Default per-request timeout: pools answer in well under a second when healthy. */
export const defaultTimeoutMs = 15_000;

export interface PoolRequest {
  /** The pool's name as the user knows it, for messages ("Braiins Pool"). */
  pool: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Values cut out of any error text (the key, the secret, a signature). */
  secrets: readonly (string | null)[];
  /** Wait to suggest after HTTP 429 without a usable Retry-After. */
  rateLimitSeconds: number;
}

/** Replaces every secret in `text` by `***`. */
export const redact = (text: string, secrets: readonly (string | null)[]): string =>
  secrets.reduce<string>((out, secret) => (secret ? out.split(secret).join('***') : out), text);

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unusable. */
export const retryAfterSeconds = (header: string | null, now = Date.now()): number | null => {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
};

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * Sends one request and returns its parsed JSON body, or throws the pool error it amounts to:
 * timeout, network failure and HTTP 5xx → PoolUnavailable; 401/403 → PoolAuthError; 429 →
 * PoolRateLimited; any other non-2xx or a body that is not JSON → PoolResponseError. The answer's
 * own success/error fields are the adapter's business.
 */
export const requestJson = async (req: PoolRequest): Promise<unknown> => {
  const hide = (text: string) => redact(text, req.secrets);
  const unavailable = (error: unknown) => {
    if (isTimeout(error))
      return new PoolUnavailable(`${req.pool}: no answer within ${req.timeoutMs / 1000} s`);
    const err = error as Error & { cause?: { code?: string } };
    return new PoolUnavailable(
      hide(`${req.pool}: cannot reach the pool (${err.cause?.code ?? err.message})`),
    );
  };
  let response: Response;
  let text: string;
  try {
    // One signal for headers and body: a pool that stalls mid-body times out too.
    response = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(req.timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    throw unavailable(error);
  }
  const status = response.status;
  if (status === 401 || status === 403)
    throw new PoolAuthError(`${req.pool} refused the API credentials (HTTP ${status})`);
  if (status === 429) {
    const wait = retryAfterSeconds(response.headers.get('retry-after')) ?? req.rateLimitSeconds;
    throw new PoolRateLimited(`${req.pool} asked to slow down (HTTP 429); retry in ${wait} s`, wait);
  }
  if (status >= 500) throw new PoolUnavailable(`${req.pool} failed (HTTP ${status})`);
  if (status < 200 || status > 299) throw new PoolResponseError(`${req.pool} answered HTTP ${status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PoolResponseError(`${req.pool} answered something other than JSON`);
  }
};

/** `value` as a plain object, or null. */
export const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
