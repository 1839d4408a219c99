import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { poolFailure, usePoolServer } from '../../../test/pool-server.js';
import { createAntpoolAdapter } from './antpool.js';
import {
  type PoolAdapter,
  PoolAuthError,
  type PoolCredentials,
  PoolRateLimited,
  PoolResponseError,
  PoolUnavailable,
} from './pool-adapter.js';

/**
 * A local Antpool speaking its documented user API: POST `/api/<name>.htm` with a form body, the
 * signature recomputed here from its own copy of the secret (HMAC-SHA256 of userId + key + nonce,
 * upper-case hex), nonces that must grow, `{ code, message, data }` answers with the help
 * center's error codes, and 120 days of `recv` earnings paged newest first.
 */
const userId = 'fbox-sub-01';
const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const secret = '0f9e8d7c6b5a49382716051a2b3c4d5e';
const today = Date.UTC(2026, 10, 24); // the newest settled day, 2026-11-24
const days = Array.from({ length: 120 }, (_, i) =>
  new Date(today - i * 86_400_000).toISOString().slice(0, 10),
);
// An FPPS subaccount: block reward plus fees; the other methods' columns are zero.
const recvRow = (day: string, i: number) => ({
  timestamp: `${day} 00:00:00`,
  hashrate: '127.60 TH/s',
  hashrate_unit: 0,
  ppsAmount: '0.00000000',
  pplnsAmount: '0.00000000',
  soloAmount: '0.00000000',
  ppappsAmount: '0.00000000',
  ppapplnsAmount: '0.00000000',
  fppsBlockAmount: `0.000512${String(i % 100).padStart(2, '0')}`,
  fppsFeeAmount: '0.00002001',
});

type Mode = 'ok' | 'ratelimit' | 'fail' | 'stall' | 'garbage' | 'system' | 'odd-code';
let mode: Mode = 'ok';
let lastNonce = 0;
let seen: { path: string; form: URLSearchParams; contentType: string }[] = [];

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const answer = (res: ServerResponse, code: number, message: string, data: unknown = null) =>
  send(res, 200, { code, message, data });

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  const form = new URLSearchParams(text);
  const path = new URL(req.url ?? '/', 'http://pool.test').pathname;
  seen.push({ path, form, contentType: req.headers['content-type'] ?? '' });
  if (req.method !== 'POST') return send(res, 405, 'method not allowed');
  if (mode === 'stall') return;
  if (mode === 'ratelimit') return send(res, 429, 'Too Many Requests', { 'retry-after': '42' });
  if (mode === 'fail') return send(res, 503, 'Service Unavailable');
  if (mode === 'garbage') return send(res, 200, '{"code":0,"data":');
  if (mode === 'system') return answer(res, -3, 'System Error');
  if (mode === 'odd-code') return answer(res, -24, 'Coin Error');
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
    return answer(res, -2, 'Invalid Parameter');
  if (form.get('key') !== key) return answer(res, -6, 'API Key Error');
  const nonce = form.get('nonce') ?? '';
  const expected = createHmac('sha256', secret).update(`${userId}${key}${nonce}`).digest('hex').toUpperCase();
  if (form.get('signature') !== expected) return answer(res, -7, 'Signature Error');
  if (!/^\d+$/.test(nonce) || Number(nonce) <= lastNonce) return answer(res, -18, 'Nonce Error');
  lastNonce = Number(nonce);
  if (form.get('coin') !== 'BTC') return answer(res, -24, 'Coin Error');

  if (path === '/api/paymentHistoryV2.htm') {
    const page = Number(form.get('page'));
    const pageSize = Number(form.get('pageSize'));
    if (form.get('type') !== 'recv' || form.get('pageEnable') !== '1' || !(page >= 1) || !(pageSize <= 50))
      return answer(res, -2, 'Invalid Parameter');
    const rows = days
      .slice((page - 1) * pageSize, page * pageSize)
      .map((day) => recvRow(day, days.indexOf(day)));
    const totalPage = Math.ceil(days.length / pageSize);
    return answer(res, 0, 'ok', { page, totalPage, pageSize, totalRecord: days.length, rows });
  }
  if (path === '/api/accountOverview.htm') {
    if (form.get('userId') !== userId) return answer(res, -10, 'User Error');
    return answer(res, 0, 'ok', {
      hsLast10m: '127603936523714',
      hsLast1h: '114466490529000',
      hsLast1d: '102498704834436',
      totalWorkerNum: 3,
      activeWorkerNum: 2,
      inactiveWorkerNum: 1,
      invalidWorkerNum: 0,
      totalAmount: '0.00480411',
      unpaidAmount: '0.00480411',
      yesterdayAmount: '0.00037884',
      userId,
    });
  }
  send(res, 404, 'Not Found');
};

const pool = usePoolServer(handle);
let adapter: PoolAdapter;
const credentials: PoolCredentials = { subaccount: userId, coin: 'btc', apiKey: key, apiSecret: secret };

beforeAll(() => {
  // A loaded CI machine can take longer than the stall test's 0.3 s to answer an ordinary call.
  adapter = createAntpoolAdapter({ baseUrl: pool.url(), timeoutMs: 10_000 });
});

beforeEach(() => {
  mode = 'ok';
  seen = [];
});

const failure = (call: Promise<unknown>) => poolFailure(call, [key, secret]);

describe('Antpool adapter', () => {
  it('signs each call, pages the earnings newest first and stops once it reaches before the range', async () => {
    const earnings = await adapter.dailyEarnings(credentials, { from: '2026-09-01', to: '2026-11-22' });
    expect(earnings).toHaveLength(83);
    expect(earnings[0]).toEqual({ day: '2026-09-01', amount: '0.00053285' }); // index 84: 0.00051284 + 0.00002001
    expect(earnings.at(-1)).toEqual({ day: '2026-11-22', amount: '0.00053203' });
    expect(earnings.map((e) => e.day)).toEqual([...earnings.map((e) => e.day)].sort());
    // Page 2 (days 51–100) reaches 2026-08-17, before the range: page 3 is not asked for.
    expect(seen.map((r) => [r.path, r.form.get('page')])).toEqual([
      ['/api/paymentHistoryV2.htm', '1'],
      ['/api/paymentHistoryV2.htm', '2'],
    ]);
    for (const { form, contentType } of seen) {
      expect(contentType).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(form)).toMatchObject({
        coin: 'BTC',
        type: 'recv',
        pageEnable: '1',
        pageSize: '50',
      });
    }
  });

  it('reads every page up to totalPage when the range reaches past the oldest record', async () => {
    const earnings = await adapter.dailyEarnings(credentials, { from: '2020-01-01', to: '2026-12-31' });
    expect(earnings).toHaveLength(120);
    expect(seen.map((r) => r.form.get('page'))).toEqual(['1', '2', '3']);
  });

  it('normalizes accountOverview hashrate from H/s to TH/s', async () => {
    const hashrate = await adapter.hashrate(credentials);
    expect(hashrate.realtimeThs).toBeCloseTo(127.603936523714, 9);
    expect(hashrate.hourThs).toBeCloseTo(114.466490529, 9);
    expect(hashrate.dayThs).toBeCloseTo(102.498704834436, 9);
    expect(hashrate).toMatchObject({ realtimeMinutes: 10, activeWorkers: 2 });
    expect(seen[0]?.path).toBe('/api/accountOverview.htm');
    expect(seen[0]?.form.get('userId')).toBe(userId);
  });

  it('answers a signature the pool cannot verify with a permanent auth error', async () => {
    const error = await failure(
      adapter.hashrate({ ...credentials, apiSecret: 'ffffffffffffffffffffffffffffffff' }),
    );
    expect(error).toBeInstanceOf(PoolAuthError);
    expect(error.retry).toBe(false);
    expect(error.message).toBe('Antpool error -7 (signature error): Signature Error');
    expect(error.message).not.toContain('ffffffffffffffffffffffffffffffff');
  });

  it('answers a wrong key and a wrong subaccount with auth errors', async () => {
    const wrongKey = await failure(adapter.hashrate({ ...credentials, apiKey: 'b'.repeat(32) }));
    expect(wrongKey).toBeInstanceOf(PoolAuthError);
    expect(wrongKey.message).toContain('-6');
    const wrongUser = await failure(adapter.hashrate({ ...credentials, subaccount: 'someone-else' }));
    expect(wrongUser).toBeInstanceOf(PoolAuthError);
  });

  it('does not call the pool without a secret', async () => {
    expect(await failure(adapter.hashrate({ ...credentials, apiSecret: null }))).toBeInstanceOf(
      PoolAuthError,
    );
    expect(seen).toHaveLength(0);
  });

  it('passes on the Retry-After of a 429', async () => {
    mode = 'ratelimit';
    const error = await failure(adapter.dailyEarnings(credentials, { from: '2026-11-01', to: '2026-11-02' }));
    expect(error).toBeInstanceOf(PoolRateLimited);
    expect((error as PoolRateLimited).retryAfterSeconds).toBe(42);
  });

  it('reports a 5xx, a timeout and the pool system error as unavailable, to retry', async () => {
    mode = 'fail';
    expect(await failure(adapter.hashrate(credentials))).toBeInstanceOf(PoolUnavailable);
    mode = 'system';
    const system = await failure(adapter.hashrate(credentials));
    expect(system).toBeInstanceOf(PoolUnavailable);
    expect(system.message).toContain('-3');
    mode = 'stall';
    const impatient = createAntpoolAdapter({ baseUrl: pool.url(), timeoutMs: 300 });
    const stalled = await failure(impatient.hashrate(credentials));
    expect(stalled).toBeInstanceOf(PoolUnavailable);
    expect(stalled.message).toContain('no answer within 0.3 s');
  });

  it('reports cut-off JSON and an unknown error code as malformed answers', async () => {
    mode = 'garbage';
    expect(await failure(adapter.hashrate(credentials))).toBeInstanceOf(PoolResponseError);
    mode = 'odd-code';
    const odd = await failure(adapter.dailyEarnings(credentials, { from: '2026-11-01', to: '2026-11-02' }));
    expect(odd).toBeInstanceOf(PoolResponseError);
    expect(odd.message).toBe('Antpool error -24: Coin Error');
  });
});
