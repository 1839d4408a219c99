import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createMaster, login, post, type TestUser } from '../../test/factories.js';
import { usePoolServer } from '../../test/pool-server.js';
import { createBraiinsAdapter } from './adapters/braiins.js';
import { PoolSync, poolSyncTiming } from './pool-sync.js';

const token = 'bp-sync-token-5d1e';
const dayMs = 86_400_000;
/** The pool's earnings: 0.0001 BTC plus the day of the month in satoshis, for every day. */
const earned = (day: string) => `0.000${String(10_000 + Number(day.slice(8, 10))).slice(1)}`;

let mode: 'ok' | 'fail' | 'denied' = 'ok';
let requests: string[] = [];

/** A local Braiins Pool: the access token in `Pool-Auth-Token`, daily rewards and the profile. */
const handle = (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://pool.test');
  requests.push(url.pathname);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (mode === 'denied' || req.headers['pool-auth-token'] !== token) {
    res.writeHead(403, { 'content-type': 'text/plain' });
    return res.end('Forbidden');
  }
  if (mode === 'fail') return send(502, { error: 'bad gateway' });
  if (url.pathname === '/accounts/rewards/json/btc/') {
    const from = Date.parse(`${url.searchParams.get('from')}T00:00:00Z`);
    const to = Date.parse(`${url.searchParams.get('to')}T00:00:00Z`);
    const daily = [];
    for (let t = from; t <= to; t += dayMs) {
      const day = new Date(t).toISOString().slice(0, 10);
      daily.push({ date: t / 1000, total_reward: earned(day) });
    }
    return send(200, { btc: { daily_rewards: daily } });
  }
  if (url.pathname === '/accounts/profile/json/btc/')
    return send(200, {
      btc: {
        hash_rate_unit: 'Th/s',
        hash_rate_5m: 1100,
        hash_rate_60m: 1080,
        hash_rate_24h: 1050,
        ok_workers: 9,
        low_workers: 1,
      },
    });
  send(404, {});
};

const pool = usePoolServer(handle);

describeDb('pool sync: what the pools report', () => {
  let t: TestApp;
  let master: TestUser;
  let areaId: number;
  let sync: PoolSync;

  const caller = () =>
    ({ id: master.id, isMaster: true, parentId: null, role: 'master', area: null }) as const;
  const saveSubaccount = (fields: Record<string, unknown>) =>
    t.app.pools.saveSubaccount(caller(), {
      area_id: areaId,
      pool: 'Braiins Pool',
      subaccount: 'site-a',
      coin: 'BTC',
      api_key: token,
      ...fields,
    } as never);
  const earnings = () =>
    t.app.db.selectFrom('pool_earnings').select(['day', 'amount']).orderBy('day').execute();
  const state = (id: number) =>
    t.app.db.selectFrom('pool_sync_states').selectAll().where('subaccount_id', '=', id).executeTakeFirst();

  beforeEach(async () => {
    t = await buildTestApp();
    // 2026-11-25 10:00 UTC.
    t.clock.ms = Date.UTC(2026, 10, 25, 10);
    master = await createMaster(t.app);
    areaId = (await createArea(t.app, master.id)).id;
    mode = 'ok';
    requests = [];
    sync = new PoolSync({
      db: t.app.db,
      clock: t.app.clock,
      secrets: t.app.secrets,
      log: t.app.log,
      adapterFor: () => createBraiinsAdapter({ baseUrl: pool.url(), timeoutMs: 10_000 }),
    });
  });
  afterEach(() => t.close());

  it('reads 30 days up to yesterday and the hashrate, then only from the last day on, replacing it', async () => {
    const { id } = await saveSubaccount({});
    expect(await sync.run()).toBe(1);
    const days = await earnings();
    expect(days).toHaveLength(poolSyncTiming.firstDays);
    expect(days[0]).toEqual({ day: '2026-10-26', amount: earned('2026-10-26') });
    expect(days.at(-1)).toEqual({ day: '2026-11-24', amount: earned('2026-11-24') });
    const [sample] = await t.app.db.selectFrom('pool_hashrate').selectAll().execute();
    expect(sample).toMatchObject({
      subaccount_id: id,
      realtime_ths: 1100,
      hour_ths: 1080,
      day_ths: 1050,
      active_workers: 10,
    });
    expect(await state(id)).toMatchObject({
      status: 'ok',
      attempts: 0,
      last_success_at: t.clock.ms,
      last_error: null,
      next_attempt_at: t.clock.ms + poolSyncTiming.everyMs,
    });
    // Not due yet: nothing read.
    requests = [];
    expect(await sync.run()).toBe(0);
    expect(requests).toEqual([]);
    // A day later: from the last stored day (settled late, read again) to the new yesterday.
    t.clock.advance(dayMs);
    await sync.run();
    expect(await earnings()).toHaveLength(poolSyncTiming.firstDays + 1);
    expect((await earnings()).at(-1)!.day).toBe('2026-11-25');
  });

  it('records a failure with its reason, writes no zero, and retries with backoff', async () => {
    const { id } = await saveSubaccount({});
    mode = 'fail';
    await sync.run();
    expect(await earnings()).toEqual([]);
    const failed = await state(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_success_at: null });
    expect(failed!.last_error).toMatch(/502/);
    expect(failed!.last_error).not.toContain(token);
    expect(failed!.next_attempt_at).toBe(t.clock.ms + poolSyncTiming.backoffMs[0]!);
    await sync.run();
    expect((await state(id))!.attempts).toBe(1);
    t.clock.advance(poolSyncTiming.backoffMs[0]!);
    await sync.run();
    expect(await state(id)).toMatchObject({
      attempts: 2,
      next_attempt_at: t.clock.ms + poolSyncTiming.backoffMs[1]!,
    });
    mode = 'ok';
    t.clock.advance(poolSyncTiming.backoffMs[1]!);
    await sync.run();
    expect(await state(id)).toMatchObject({ status: 'ok', attempts: 0, last_error: null });
    expect(await earnings()).toHaveLength(poolSyncTiming.firstDays);
  });

  it('waits hours after refused credentials, and reads at once when they are saved again', async () => {
    const { id } = await saveSubaccount({});
    mode = 'denied';
    await sync.run();
    expect(await state(id)).toMatchObject({
      status: 'failed',
      next_attempt_at: t.clock.ms + poolSyncTiming.authRetryMs,
    });
    mode = 'ok';
    const saved = await saveSubaccount({ id, api_key: token });
    expect(saved.sync).toMatchObject({ status: 'failed', next_attempt_at: t.clock.ms });
    await sync.run();
    expect((await state(id))!.status).toBe('ok');
  });

  it('marks a pool no adapter speaks as unsupported without calling anything, and lists each state', async () => {
    const { id } = await saveSubaccount({ pool: 'F2Pool' });
    const none = await saveSubaccount({ subaccount: 'no-key', api_key: undefined });
    await sync.run();
    expect(requests).toEqual([]);
    expect(await state(id)).toMatchObject({ status: 'unsupported', last_error: null });
    const list = await post(
      t.app,
      '/ff-plat-api/api/admin/area/pool/list',
      { area_id: areaId },
      { token: await login(t.app, master) },
    ).then((r) => r.json());
    const byId = new Map(list.data.items.map((i: { id: number }) => [i.id, i]));
    expect(byId.get(id)).toMatchObject({ sync: { status: 'unsupported' } });
    expect(byId.get(none.id)).toMatchObject({ sync: null, has_api_key: false });
  });

  it('two processes read each subaccount once', async () => {
    await saveSubaccount({});
    await saveSubaccount({ subaccount: 'site-b' });
    const other = new PoolSync({
      db: t.app.db,
      clock: t.app.clock,
      secrets: t.app.secrets,
      log: t.app.log,
      adapterFor: () => createBraiinsAdapter({ baseUrl: pool.url(), timeoutMs: 10_000 }),
    });
    const [a, b] = await Promise.all([sync.run(), other.run()]);
    expect(a + b).toBe(2);
    expect(requests.filter((p) => p.includes('profile'))).toHaveLength(2);
  });
});
