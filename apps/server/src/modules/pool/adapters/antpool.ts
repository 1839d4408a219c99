/**
 * Antpool's user API as documented at https://www.antpool.com/userApiGuide (the API settings page
 * https://www.antpool.com/user/apiSettings.htm issues the key and secret; error codes are listed at
 * https://antpool.gitbooks.io/help-center/content/en/chapter-3/06.html):
 *
 * - every call is `POST https://antpool.com/api/<name>.htm`, a form body with `key`, `nonce` (a
 *   number larger than the key's previous one; a millisecond time stamp by convention), `signature`
 *   = upper-case hex of HMAC-SHA256(secret, userId + key + nonce) and `coin` ("BTC");
 * - the answer is `{ code, message, data }`, `code` 0 on success;
 * - `paymentHistoryV2.htm` with `type=recv`, `pageEnable=1`, `page`, `pageSize` (at most 50) →
 *   `data: { page, totalPage, pageSize, totalRecord, rows: [{ timestamp, hashrate, ppsAmount,
 *   pplnsAmount, soloAmount, ppappsAmount, ppapplnsAmount, fppsBlockAmount, fppsFeeAmount }] }`;
 * - `accountOverview.htm` with `userId` → `data: { hsLast10m, hsLast1h, hsLast1d, activeWorkerNum, … }`;
 * - no more than 600 requests per 10 minutes per IP.
 */
import { createHmac } from 'node:crypto';
import {
  type DailyEarning,
  type PoolAdapter,
  type PoolAdapterOptions,
  PoolAuthError,
  type PoolCredentials,
  type PoolHashrate,
  PoolResponseError,
  PoolUnavailable,
} from './pool-adapter.js';
import { asRecord, defaultTimeoutMs, redact, requestJson } from './pool-http.js';
import { checkRange, isDay, readDecimal, readNumber, sumDecimals, toThs } from './pool-values.js';

export const antpoolBaseUrl = 'https://antpool.com';
const pool = 'Antpool';
/** The documented maximum page size. */
const pageSize = 50;
/** A bound on one call's paging: 40 pages of 50 days is more than five years. */
const maxPages = 40;
/** No rate-limit answer is documented (only "600 requests per 10 minutes"); wait a minute on a 429. */
const rateLimitSeconds = 60;

/** The earning columns of a `recv` row, one per payout method; a subaccount earns under one of them. */
const earningFields = [
  'ppsAmount',
  'pplnsAmount',
  'soloAmount',
  'ppappsAmount',
  'ppapplnsAmount',
  'fppsBlockAmount',
  'fppsFeeAmount',
] as const;

/** Error codes (help center, "Error Status Code Description") that mean the credentials are refused. */
const authCodes = new Map([
  [-5, 'API access disabled'],
  [-6, 'API key error'],
  [-7, 'signature error'],
  [-8, 'IP not allowed'],
  [-9, 'permission error'],
  [-10, 'user error'],
]);
/** Codes of a passing failure at the pool: system, database, and a nonce another call overtook. */
const passingCodes = new Map([
  [-3, 'system error'],
  [-4, 'database error'],
  [-18, 'nonce error'],
]);

let lastNonce = 0;
/** A millisecond time stamp, bumped so two calls in the same millisecond still increase. */
const nextNonce = (): number => {
  lastNonce = Math.max(Date.now(), lastNonce + 1);
  return lastNonce;
};

/** The documented signature: HMAC-SHA256 of userId + key + nonce with the secret, upper-case hex. */
export const antpoolSignature = (
  userId: string,
  key: string,
  nonce: number | string,
  secret: string,
): string => createHmac('sha256', secret).update(`${userId}${key}${nonce}`).digest('hex').toUpperCase();

const malformed = (what: string) => new PoolResponseError(`${pool}: unexpected answer (${what})`);

/** A `recv` row's day: the date part of its `timestamp` ("2024-05-01 00:00:00", UTC). */
const dayOf = (timestamp: unknown): string | null => {
  const day = typeof timestamp === 'string' ? timestamp.trim().slice(0, 10) : '';
  return isDay(day) ? day : null;
};

/** The Antpool adapter; `baseUrl` defaults to the public pool. */
export const createAntpoolAdapter = (options: PoolAdapterOptions = {}): PoolAdapter => {
  const base = (options.baseUrl ?? antpoolBaseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;

  /** One signed call; returns `data` of a `code: 0` answer, else throws what the code means. */
  const call = async (credentials: PoolCredentials, name: string, params: Record<string, string>) => {
    const userId = credentials.subaccount.trim();
    const key = credentials.apiKey?.trim();
    const secret = credentials.apiSecret?.trim();
    if (!userId || !key || !secret)
      throw new PoolAuthError(`${pool}: the subaccount name, API key and API secret are all needed`);
    const nonce = nextNonce();
    const signature = antpoolSignature(userId, key, nonce, secret);
    const secrets = [key, secret, signature];
    const form = new URLSearchParams({
      key,
      nonce: String(nonce),
      signature,
      coin: credentials.coin.trim().toUpperCase(),
      ...params,
    });
    const body = asRecord(
      await requestJson({
        pool,
        url: `${base}/api/${name}.htm`,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
        timeoutMs,
        secrets,
        rateLimitSeconds,
      }),
    );
    const code = readNumber(body?.code);
    if (!body || code === null) throw malformed('no code');
    if (code === 0) return body.data;
    const said = redact(typeof body.message === 'string' ? body.message : '', secrets).slice(0, 120);
    const known = authCodes.get(code) ?? passingCodes.get(code);
    const reason = `${pool} error ${code}${known ? ` (${known})` : ''}${said ? `: ${said}` : ''}`;
    if (authCodes.has(code)) throw new PoolAuthError(reason);
    if (passingCodes.has(code)) throw new PoolUnavailable(reason);
    throw new PoolResponseError(reason);
  };

  /** A `recv` row as [day, amount]: the sum of the earning columns it has. */
  const earningOf = (item: unknown): [string, string] => {
    const row = asRecord(item);
    const day = dayOf(row?.timestamp);
    if (!row || !day) throw malformed('an earning row without timestamp');
    const amounts = earningFields.filter((field) => row[field] !== undefined && row[field] !== null);
    const values = amounts.map((field) => readDecimal(row[field]));
    if (values.length === 0 || values.some((v) => v === null)) throw malformed(`earning amounts of ${day}`);
    return [day, sumDecimals(values as string[])];
  };

  return {
    kind: 'antpool',

    async dailyEarnings(credentials, range): Promise<DailyEarning[]> {
      checkRange(range);
      const byDay = new Map<string, string[]>();
      for (let page = 1; page <= maxPages; page++) {
        const data = asRecord(
          await call(credentials, 'paymentHistoryV2', {
            type: 'recv',
            pageEnable: '1',
            page: String(page),
            pageSize: String(pageSize),
          }),
        );
        const rows = data?.rows;
        const totalPage = readNumber(data?.totalPage);
        if (!Array.isArray(rows) || totalPage === null) throw malformed('no rows or totalPage');
        let reachedOlder = false;
        for (const [day, amount] of rows.map(earningOf)) {
          if (day < range.from) reachedOlder = true;
          else if (day <= range.to) byDay.set(day, [...(byDay.get(day) ?? []), amount]);
        }
        // Rows come newest first (as the earnings page shows them), so a page reaching before the
        // range means the pages after it are older still.
        if (reachedOlder || rows.length === 0 || page >= totalPage) break;
      }
      return [...byDay.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, amounts]) => ({ day, amount: sumDecimals(amounts) }));
    },

    async hashrate(credentials): Promise<PoolHashrate> {
      const data = asRecord(
        await call(credentials, 'accountOverview', { userId: credentials.subaccount.trim() }),
      );
      // The guide's sample ("hsLast10m": "127603936523714" for one worker) is in H/s.
      const ths = (field: string) => {
        const value = readNumber(data?.[field]);
        if (value === null) throw malformed(`no ${field}`);
        return toThs(value, 'H/s') as number;
      };
      return {
        realtimeThs: ths('hsLast10m'),
        realtimeMinutes: 10,
        hourThs: ths('hsLast1h'),
        dayThs: ths('hsLast1d'),
        activeWorkers: readNumber(data?.activeWorkerNum),
      };
    },
  };
};
