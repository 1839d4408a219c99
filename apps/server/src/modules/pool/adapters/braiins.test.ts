import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { poolFailure, usePoolServer } from '../../../test/pool-server.js';
import { createBraiinsAdapter } from './braiins.js';
import {
  type PoolAdapter,
  PoolAuthError,
  type PoolCredentials,
  PoolRateLimited,
  PoolResponseError,
  PoolUnavailable,
} from './pool-adapter.js';

/**
 * A local Braiins Pool speaking its documented monitoring API: GET only, the access-profile token
 * in `Pool-Auth-Token` (or `X-Pool-Auth-Token`), a 403 in plain text without it (as the live pool
 * answers), `{ btc: { daily_rewards } }` filtered by the inclusive `from`/`to` days.
 */
const token = 'bp-token-1f6c2a9e77';
const day0 = Date.UTC(2026, 10, 20) / 1000; // 2026-11-20 00:00 UTC, in seconds as the pool sends it
const rewards = [0, 1, 2, 3, 4].map((i) => ({
  date: day0 + i * 86_400,
  total_reward: `0.0006108${i}`,
  mining_reward: '0.00048119',
  bos_plus_reward: '0.00002962',
  referral_bonus: '0.00000000',
  referral_reward: '0.00000000',
  shares: 42,
  calculation_date: day0 + i * 86_400 + 93_600,
}));
const profile = {
  all_time_reward: '0.15000000',
  hash_rate_unit: 'Gh/s',
  hash_rate_5m: 27978,
  hash_rate_60m: 28191,
  hash_rate_24h: 28357.5,
  hash_rate_yesterday: 28197,
  low_workers: 1,
  off_workers: 1,
  ok_workers: 2,
  dis_workers: 1,
  current_balance: '0.01000000',
  today_reward: '0.000166667',
  estimated_reward: '0.00011940',
};

type Mode =
  | 'ok'
  | 'ratelimit'
  | 'ratelimit-bare'
  | 'fail'
  | 'stall'
  | 'garbage'
  | 'no-unit'
  | 'odd-unit'
  | 'extra';
let mode: Mode = 'ok';
let seen: { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }[] =
  [];

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const handle = (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://pool.test');
  seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers });
  if (req.method !== 'GET') return send(res, 405, { error: 'method' });
  const given = req.headers['pool-auth-token'] ?? req.headers['x-pool-auth-token'];
  if (given !== token) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end('Forbidden');
  }
  if (mode === 'stall') return; // never answers
  if (mode === 'ratelimit') return send(res, 429, { error: 'slow down' }, { 'retry-after': '17' });
  if (mode === 'ratelimit-bare') return send(res, 429, {});
  if (mode === 'fail') return send(res, 502, { error: 'bad gateway' });
  if (mode === 'garbage') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end('<html>maintenance</html>');
  }
  if (url.pathname === '/accounts/rewards/json/btc/') {
    const from = url.searchParams.get('from') ?? '';
    const to = url.searchParams.get('to') ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return send(res, 400, {});
    const fromS = Date.parse(`${from}T00:00:00Z`) / 1000;
    const toS = Date.parse(`${to}T00:00:00Z`) / 1000;
    const daily = rewards.filter((r) => mode === 'extra' || (r.date >= fromS && r.date <= toS));
    return send(res, 200, { btc: { daily_rewards: daily } });
  }
  if (url.pathname === '/accounts/profile/json/btc/') {
    const btc: Record<string, unknown> = { ...profile };
    if (mode === 'no-unit') delete btc.hash_rate_unit;
    if (mode === 'odd-unit') btc.hash_rate_unit = 'Zh/s';
    return send(res, 200, { username: 'operator', btc });
  }
  send(res, 404, { error: 'not found' });
};

const pool = usePoolServer(handle);
let adapter: PoolAdapter;
const credentials: PoolCredentials = { subaccount: 'operator', coin: 'BTC', apiKey: token, apiSecret: null };

beforeAll(() => {
  // A loaded CI machine can take longer than the stall test's 0.3 s to answer an ordinary call.
  adapter = createBraiinsAdapter({ baseUrl: `${pool.url()}/`, timeoutMs: 10_000 });
});

beforeEach(() => {
  mode = 'ok';
  seen = [];
});

const failure = (call: Promise<unknown>) => poolFailure(call, [token]);

describe('Braiins Pool adapter', () => {
  it('reads daily rewards with the documented path, token header and inclusive day range', async () => {
    const earnings = await adapter.dailyEarnings(credentials, { from: '2026-11-21', to: '2026-11-23' });
    expect(earnings).toEqual([
      { day: '2026-11-21', amount: '0.00061081' },
      { day: '2026-11-22', amount: '0.00061082' },
      { day: '2026-11-23', amount: '0.00061083' },
    ]);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/accounts/rewards/json/btc/');
    expect(Object.fromEntries(request?.query ?? [])).toEqual({ from: '2026-11-21', to: '2026-11-23' });
    expect(request?.headers['pool-auth-token']).toBe(token);
  });

  it('takes a reward dated 00:00 UTC as that UTC day and drops days the pool adds outside the range', async () => {
    mode = 'extra';
    const earnings = await adapter.dailyEarnings(credentials, { from: '2026-11-24', to: '2026-11-24' });
    expect(earnings).toEqual([{ day: '2026-11-24', amount: '0.00061084' }]);
  });

  it('answers an empty list for days without rewards', async () => {
    expect(await adapter.dailyEarnings(credentials, { from: '2026-10-01', to: '2026-10-05' })).toEqual([]);
  });

  it('normalizes the profile hashrate from hash_rate_unit to TH/s', async () => {
    const hashrate = await adapter.hashrate(credentials);
    expect(hashrate.realtimeThs).toBeCloseTo(27.978, 9);
    expect(hashrate.hourThs).toBeCloseTo(28.191, 9);
    expect(hashrate.dayThs).toBeCloseTo(28.3575, 9);
    expect(hashrate).toMatchObject({ realtimeMinutes: 5, activeWorkers: 3 });
    expect(seen[0]?.path).toBe('/accounts/profile/json/btc/');
  });

  it('refuses a wrong token as a permanent auth error', async () => {
    const wrong = { ...credentials, apiKey: 'not-the-token-55' };
    const error = await failure(adapter.hashrate(wrong));
    expect(error).toBeInstanceOf(PoolAuthError);
    expect(error.retry).toBe(false);
    expect(error.message).toContain('HTTP 403');
    expect(error.message).not.toContain('not-the-token-55');
  });

  it('does not call the pool without a token', async () => {
    const error = await failure(adapter.hashrate({ ...credentials, apiKey: null }));
    expect(error).toBeInstanceOf(PoolAuthError);
    expect(seen).toHaveLength(0);
  });

  it('passes on the Retry-After of a 429, else the documented five seconds', async () => {
    mode = 'ratelimit';
    const error = await failure(adapter.dailyEarnings(credentials, { from: '2026-11-21', to: '2026-11-21' }));
    expect(error).toBeInstanceOf(PoolRateLimited);
    expect((error as PoolRateLimited).retryAfterSeconds).toBe(17);
    mode = 'ratelimit-bare';
    const bare = await failure(adapter.hashrate(credentials));
    expect((bare as PoolRateLimited).retryAfterSeconds).toBe(5);
  });

  it('reports a 5xx and a timeout as unavailable, to retry', async () => {
    mode = 'fail';
    const failed = await failure(adapter.hashrate(credentials));
    expect(failed).toBeInstanceOf(PoolUnavailable);
    expect(failed.message).toContain('HTTP 502');
    mode = 'stall';
    const impatient = createBraiinsAdapter({ baseUrl: `${pool.url()}/`, timeoutMs: 300 });
    const started = Date.now();
    const stalled = await failure(impatient.hashrate(credentials));
    expect(stalled).toBeInstanceOf(PoolUnavailable);
    expect(stalled.retry).toBe(true);
    expect(stalled.message).toContain('no answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an answer that is not JSON, or lacks the unit, as malformed', async () => {
    mode = 'garbage';
    expect(await failure(adapter.hashrate(credentials))).toBeInstanceOf(PoolResponseError);
    mode = 'no-unit';
    expect(await failure(adapter.hashrate(credentials))).toBeInstanceOf(PoolResponseError);
    mode = 'odd-unit';
    const odd = await failure(adapter.hashrate(credentials));
    expect(odd).toBeInstanceOf(PoolResponseError);
    expect(odd.message).toContain('Zh/s');
  });

  it('rejects a range that is not two days in order before calling the pool', async () => {
    await expect(
      adapter.dailyEarnings(credentials, { from: '2026-11-23', to: '2026-11-21' }),
    ).rejects.toThrow(RangeError);
    await expect(
      adapter.dailyEarnings(credentials, { from: '2026-02-30', to: '2026-03-01' }),
    ).rejects.toThrow(RangeError);
    expect(seen).toHaveLength(0);
  });
});
