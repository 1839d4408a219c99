import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Gateway } from './gateway.js';
import { type Clock, systemClock } from './model/clock.js';
import { hash32 } from './model/random.js';

/**
 * A mining pool for the simulated miners, speaking Braiins Pool's documented monitoring API (the
 * shape the server's Braiins adapter reads; docs/pools.md): the access token in `Pool-Auth-Token`,
 * `GET /accounts/profile/json/btc/` (hashrate in Gh/s, worker counts) and
 * `GET /accounts/rewards/json/btc/?from=&to=` (daily rewards, `date` in Unix seconds of 00:00 UTC).
 * Our stand-in for an outside pool: the demo mine's pool subaccount points at it, so revenue and the
 * pool-versus-miner chart have data on the first day.
 */
export interface PoolApiOptions {
  /** The simulated boxes whose miners hash into this pool. */
  gateways: () => Iterable<Pick<Gateway, 'model'>>;
  /** The access token the pool accepts. */
  token: string;
  clock?: Clock;
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** What a TH/s earns in a day, BTC (hashprice); default 0.0000005. */
  btcPerThDay?: number;
  /** Varies each day's share of the theoretical hashrate the pool credited (seeded). */
  seed?: number;
}

export interface PoolApi {
  url: string;
  stop(): Promise<void>;
}

const dayMs = 86_400_000;

/** Starts the pool on loopback; resolves once it listens. */
export const startPoolApi = async (options: PoolApiOptions): Promise<PoolApi> => {
  const clock = options.clock ?? systemClock;
  const btcPerThDay = options.btcPerThDay ?? 0.0000005;
  const seed = options.seed ?? 1;

  const miners = () => [...options.gateways()].flatMap((g) => g.model.miners);
  /** A past day's credited hashrate: the theoretical sum times 94–99 %, the same on every call. */
  const creditedThs = (dayStart: number) => {
    const theoretical = miners().reduce((sum, m) => sum + m.theoretical(), 0);
    return theoretical * (0.94 + (hash32(`${seed}:${dayStart}`) % 500) / 10_000);
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://pool.local');
    if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
    if (req.headers['pool-auth-token'] !== options.token) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Forbidden');
    }
    const now = clock.now();
    if (url.pathname === '/accounts/profile/json/btc/') {
      const all = miners();
      const online = all.filter((m) => m.isOnline(now));
      const gh = (ths: number) => Math.round(ths * 1000);
      return send(res, 200, {
        username: 'demo',
        btc: {
          hash_rate_unit: 'Gh/s',
          hash_rate_5m: gh(online.reduce((s, m) => s + m.hashrateRealtime, 0)),
          hash_rate_60m: gh(online.reduce((s, m) => s + m.hashrateAvg, 0)),
          hash_rate_24h: gh(creditedThs(now - (now % dayMs) - dayMs)),
          ok_workers: online.filter((m) => m.hashrateRealtime > 0).length,
          low_workers: 0,
          off_workers: all.length - online.length,
          dis_workers: 0,
        },
      });
    }
    if (url.pathname === '/accounts/rewards/json/btc/') {
      const from = Date.parse(`${url.searchParams.get('from')}T00:00:00Z`);
      const to = Date.parse(`${url.searchParams.get('to')}T00:00:00Z`);
      if (Number.isNaN(from) || Number.isNaN(to) || from > to) return send(res, 400, { error: 'bad range' });
      const today = now - (now % dayMs);
      const daily = [];
      // Only settled days: up to yesterday.
      for (let day = from; day <= Math.min(to, today - dayMs); day += dayMs) {
        const reward = (creditedThs(day) * btcPerThDay).toFixed(8);
        daily.push({
          date: day / 1000,
          total_reward: reward,
          mining_reward: reward,
          calculation_date: day / 1000 + 93_600,
        });
      }
      return send(res, 200, { btc: { daily_rewards: daily } });
    }
    send(res, 404, { error: 'not found' });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
