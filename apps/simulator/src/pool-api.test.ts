import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './model/clock.js';
import { FboxModel } from './model/fbox.js';
import { type PoolApi, startPoolApi } from './pool-api.js';

const now = Date.UTC(2026, 10, 25, 10);
const clock = new ManualClock(now);
const model = new FboxModel({ deviceId: 'pool-box', kind: 'air', miners: 20 }, { seed: 3, now });
let pool: PoolApi;

beforeAll(async () => {
  pool = await startPoolApi({ gateways: () => [{ model }], token: 'tok-1', clock, seed: 3 });
});
afterAll(() => pool.stop());

const get = (path: string, token = 'tok-1') =>
  fetch(`${pool.url}${path}`, { headers: { 'Pool-Auth-Token': token } });

describe("the simulator's pool API (Braiins Pool's shape)", () => {
  it('refuses a wrong token with 403', async () => {
    expect((await get('/accounts/profile/json/btc/', 'nope')).status).toBe(403);
  });

  it("reports the simulated miners' hashrate in Gh/s and their workers", async () => {
    const { btc } = (await (await get('/accounts/profile/json/btc/')).json()) as {
      btc: { hash_rate_unit: string; hash_rate_5m: number; ok_workers: number; off_workers: number };
    };
    const realtime = model.miners.reduce((s, m) => s + m.hashrateRealtime, 0);
    expect(btc.hash_rate_unit).toBe('Gh/s');
    expect(btc.hash_rate_5m).toBe(Math.round(realtime * 1000));
    expect(btc.ok_workers + btc.off_workers).toBe(20);
  });

  it('credits settled days only, the same amount every time, from the theoretical hashrate', async () => {
    const read = async () => {
      const answer = await get('/accounts/rewards/json/btc/?from=2026-11-20&to=2026-11-25');
      const body = (await answer.json()) as {
        btc: { daily_rewards: { date: number; total_reward: string }[] };
      };
      return body.btc.daily_rewards;
    };
    const days = await read();
    // 2026-11-25 is today: not settled.
    expect(days.map((d: { date: number }) => new Date(d.date * 1000).toISOString().slice(0, 10))).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ]);
    const theoretical = model.miners.reduce((s, m) => s + m.theoretical(), 0);
    for (const day of days) {
      const btc = Number(day.total_reward);
      expect(btc).toBeGreaterThan(theoretical * 0.94 * 0.0000005 - 1e-8);
      expect(btc).toBeLessThan(theoretical * 0.99 * 0.0000005 + 1e-8);
    }
    expect(await read()).toEqual(days);
    expect((await get('/accounts/rewards/json/btc/?from=2026-11-25&to=2026-11-20')).status).toBe(400);
  });
});
