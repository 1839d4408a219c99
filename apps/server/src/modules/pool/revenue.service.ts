import {
  type Revenue,
  type RevenueDay,
  type RevenueQuery,
  type RevenueSettings,
  type RevenueSettingsSaveBody,
  type RevenueSubaccount,
  timeZoneOffsetMinutes,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { AreaCaller } from '../auth/auth.service.js';
import { requireManage } from '../device-access.js';
import { UserRepository } from '../user/user.repository.js';
import { PoolSyncRepository } from './pool-sync.repository.js';
import { type HourValue, RevenueRepository } from './revenue.repository.js';
import type { RevenueSettingsTable } from './revenue.schema.js';
import { PriceReadError, priceTiming, readPrice } from './revenue-price.js';

const dayMs = 86_400_000;
const hourMs = 3_600_000;
/** The pool-versus-miner chart covers at most the last 31 days of a range (hourly points). */
const chartMaxMs = 31 * dayMs;

type RevenueDeps = Pick<FastifyInstance, 'db' | 'dbDialect' | 'clock' | 'areas' | 'log' | 'meterEnergy'>;

/**
 * What one terahash per second earns in a day, in coins: a SHA-256 block takes on average
 * `difficulty × 2^32` hashes, and a day has `86400 × 10^12` hashes of 1 TH/s.
 */
export const hashprice = (blockReward: number, difficulty: number): number =>
  (blockReward * 86_400 * 1e12) / (difficulty * 2 ** 32);

const roundTo = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
const coinRound = (v: number) => roundTo(v, 8);
const moneyRound = (v: number) => roundTo(v, 2);

const toSettings = (areaId: number, row: RevenueSettingsTable | undefined): RevenueSettings =>
  row
    ? {
        area_id: areaId,
        coin: row.coin,
        network_difficulty: Number(row.network_difficulty),
        block_reward: Number(row.block_reward),
        coin_price: Number(row.coin_price),
        fiat: row.fiat,
        price_url: row.price_url,
        price_fetched_at: row.price_fetched_at === null ? null : Number(row.price_fetched_at),
        price_error: row.price_error,
        hashprice: hashprice(Number(row.block_reward), Number(row.network_difficulty)),
        updated_at: Number(row.updated_at),
      }
    : {
        area_id: areaId,
        coin: 'BTC',
        network_difficulty: null,
        block_reward: null,
        coin_price: null,
        fiat: 'USD',
        price_url: '',
        price_fetched_at: null,
        price_error: null,
        hashprice: null,
        updated_at: null,
      };

/** `YYYY-MM-DD` → its midnight in a zone `offsetMin` minutes east of UTC, epoch ms. */
const dayStart = (day: string, offsetMin: number) => Date.parse(`${day}T00:00:00Z`) - offsetMin * 60_000;
/** The local day (`YYYY-MM-DD`) an instant falls in. */
const dayOf = (ms: number, offsetMin: number) => new Date(ms + offsetMin * 60_000).toISOString().slice(0, 10);

/** Sums exact decimal texts ("0.00061081") in units of 1e-12 coin, so many days add without float drift. */
const sumAmounts = (amounts: readonly string[]): number => {
  let total = 0n;
  for (const text of amounts) {
    const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
    if (!match) continue;
    const units =
      BigInt(match[2] || '0') * 10n ** 12n + BigInt((match[3] ?? '').slice(0, 12).padEnd(12, '0'));
    total += match[1] === '-' ? -units : units;
  }
  return Number(total) / 1e12;
};

/**
 * Revenue of a mine (issue 14): settings (coin, hashprice inputs, coin price), the daily figures
 * from the pools' credits or, where none, from the miners' hashrate, valued and set against the
 * power cost; and each pool subaccount's pool-side versus miner-side hashrate. docs/statistics.md.
 */
export class RevenueService {
  private pricesRunning: Promise<number> | null = null;
  private stopped = false;

  constructor(private readonly deps: RevenueDeps) {}

  /**
   * The job `revenue-price`: starts a round of price reads in the background (a read may take
   * seconds and must not hold the other jobs up), unless one is under way in this process.
   */
  kickPrices(): void {
    if (this.pricesRunning || this.stopped) return;
    this.pricesRunning = this.readDuePrices()
      .catch((error: unknown) => {
        this.deps.log.error({ err: error }, 'price round failed');
        return 0;
      })
      .finally(() => {
        this.pricesRunning = null;
      });
  }

  /** Starts no more reads; waits briefly for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pricesRunning)
      await Promise.race([this.pricesRunning, new Promise((r) => setTimeout(r, 2000).unref())]);
  }

  private repo() {
    return new RevenueRepository(this.deps.db);
  }

  async settings(user: AreaCaller, areaId: number): Promise<RevenueSettings> {
    await this.deps.areas.requireAccess(user, areaId);
    return toSettings(areaId, await this.repo().settingsOf(areaId));
  }

  /** Saves the settings; with a price address the price is read at once (a failure is shown, not thrown). */
  async saveSettings(user: AreaCaller, body: RevenueSettingsSaveBody): Promise<RevenueSettings> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const repo = this.repo();
    const before = await repo.settingsOf(body.area_id);
    const now = this.deps.clock();
    const url = body.price_url ?? '';
    const sameUrl = before?.price_url === url;
    await repo.saveSettings({
      area_id: body.area_id,
      coin: body.coin,
      network_difficulty: body.network_difficulty,
      block_reward: body.block_reward,
      coin_price: body.coin_price,
      fiat: body.fiat,
      price_url: url,
      price_fetched_at: sameUrl ? (before?.price_fetched_at ?? null) : null,
      price_error: url && sameUrl ? (before?.price_error ?? null) : null,
      price_next_at: url ? now + priceTiming.everyMs : null,
      updated_at: now,
    });
    if (url) await this.readPriceOf(body.area_id, url, body.coin, body.fiat);
    return toSettings(body.area_id, await repo.settingsOf(body.area_id));
  }

  /** Reads one mine's price address and records the price or the reason it failed. */
  private async readPriceOf(
    areaId: number,
    url: string,
    coin: RevenueSettings['coin'],
    fiat: RevenueSettings['fiat'],
  ) {
    const repo = this.repo();
    const next = this.deps.clock() + priceTiming.everyMs;
    try {
      const price = await readPrice(url, coin, fiat);
      await repo.recordPrice(areaId, { price, at: this.deps.clock() }, next);
    } catch (error) {
      if (!(error instanceof PriceReadError))
        this.deps.log.error({ err: error, areaId }, 'price read failed');
      const reason =
        error instanceof PriceReadError ? error.message : 'unexpected error while reading the price';
      await repo.recordPrice(areaId, { error: reason }, next);
    }
  }

  /** The price job's round: reads the due price addresses this process claims; returns how many. */
  async readDuePrices(): Promise<number> {
    const repo = this.repo();
    let read = 0;
    for (const due of await repo.duePrices(this.deps.clock(), priceTiming.batch)) {
      if (this.stopped) break;
      const now = this.deps.clock();
      if (!(await repo.claimPrice(due.area_id, now, now + priceTiming.claimMs))) continue;
      await this.readPriceOf(due.area_id, due.price_url, due.coin, due.fiat);
      read++;
    }
    return read;
  }

  /** The revenue of the local days `from_day` … `to_day` of the reader's zone. */
  async revenue(user: AreaCaller, q: RevenueQuery): Promise<Revenue> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const zone = (await new UserRepository(this.deps.db).timeZone(user.id)) ?? 'UTC+0';
    return this.revenueOf(q, zone);
  }

  /**
   * The revenue of a mine's local days `from_day` … `to_day` in `zone`, for a caller that has
   * checked access itself (the boards: a kiosk link has no user). Without `subaccounts`, the pool
   * subaccounts' hashrate charts are left out (an empty list).
   */
  async revenueOf(q: RevenueQuery, zone: string, subaccounts = true): Promise<Revenue> {
    const repo = this.repo();
    const offset = timeZoneOffsetMinutes(zone);
    const settings = toSettings(q.area_id, await repo.settingsOf(q.area_id));
    const from = dayStart(q.from_day, offset);
    const to = dayStart(q.to_day, offset) + dayMs;
    const electricityPrice = await repo.electricityPrice(q.area_id);

    const credits = new Map<string, string[]>();
    for (const c of await repo.poolCredits(q.area_id, settings.coin, q.from_day, q.to_day))
      credits.set(c.day, [...(credits.get(c.day) ?? []), c.amount]);

    const hours = new Map<string, { sum: number; count: number }>();
    for (const h of await repo.mineHourly(q.area_id, from, to)) {
      const day = dayOf(h.ts, offset);
      const acc = hours.get(day) ?? { sum: 0, count: 0 };
      acc.sum += h.ths;
      acc.count += 1;
      hours.set(day, acc);
    }

    // Energy and its cost per local day, each hour at the mine's electricity price of that hour.
    const energy = new Map<string, { kwh: number; cost: number }>();
    const costed = await this.deps.meterEnergy.costedEnergy(q.area_id, electricityPrice, {
      fboxIds: await repo.fboxIdsOf(q.area_id),
      from,
      to,
      bucket: 'day',
      tzOffsetMinutes: offset,
    });
    for (const e of costed) {
      const day = dayOf(e.bucket_ts, offset);
      const acc = energy.get(day) ?? { kwh: 0, cost: 0 };
      acc.kwh += e.energy_kwh;
      acc.cost += e.cost;
      energy.set(day, acc);
    }

    const days: RevenueDay[] = [];
    for (let start = from; start < to; start += dayMs) {
      const day = dayOf(start, offset);
      const credited = credits.get(day);
      const poolCoin = credited ? coinRound(sumAmounts(credited)) : null;
      const hashrate = hours.get(day);
      // Each hour with a reading earns its hashrate × hashprice / 24; hours without one earn nothing.
      const estimated =
        poolCoin === null && hashrate && settings.hashprice !== null
          ? coinRound((hashrate.sum * settings.hashprice) / 24)
          : null;
      const coin = poolCoin ?? estimated;
      const fiat =
        coin !== null && settings.coin_price !== null ? moneyRound(coin * settings.coin_price) : null;
      const used = energy.get(day);
      const cost = used === undefined ? null : moneyRound(used.cost);
      days.push({
        day,
        day_ts: start,
        source: poolCoin !== null ? 'pool' : estimated !== null ? 'estimated' : 'none',
        pool_coin: poolCoin,
        estimated_coin: estimated,
        coin,
        miner_hashrate: hashrate ? roundTo(hashrate.sum / hashrate.count, 3) : null,
        fiat,
        energy_kwh: used === undefined ? null : roundTo(used.kwh, 3),
        power_cost: cost,
        profit: fiat !== null && cost !== null ? moneyRound(fiat - cost) : null,
      });
    }

    const sum = (pick: (d: RevenueDay) => number | null) => {
      const values = days.map(pick).filter((v): v is number => v !== null);
      return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
    };
    const count = (source: RevenueDay['source']) => days.filter((d) => d.source === source).length;
    const fiatTotal = sum((d) => d.fiat);
    const costTotal = sum((d) => d.power_cost);
    const profitTotal = sum((d) => d.profit);
    return {
      time_zone: zone,
      settings,
      electricity_price: electricityPrice,
      days,
      totals: {
        coin: coinRound(sum((d) => d.coin) ?? 0),
        pool_coin: coinRound(sum((d) => d.pool_coin) ?? 0),
        estimated_coin: coinRound(sum((d) => d.estimated_coin) ?? 0),
        fiat: fiatTotal === null ? null : moneyRound(fiatTotal),
        power_cost: costTotal === null ? null : moneyRound(costTotal),
        profit: profitTotal === null ? null : moneyRound(profitTotal),
        energy_kwh: roundTo(sum((d) => d.energy_kwh) ?? 0, 3),
        pool_days: count('pool'),
        estimated_days: count('estimated'),
        none_days: count('none'),
      },
      subaccounts: subaccounts
        ? await this.subaccounts(q.area_id, from, Math.min(to, this.deps.clock() + hourMs))
        : [],
    };
  }

  /** Each pool subaccount's hourly pool-side and miner-side hashrate over the last 31 days of the range. */
  private async subaccounts(areaId: number, from: number, to: number): Promise<RevenueSubaccount[]> {
    const repo = this.repo();
    const subaccounts = await repo.subaccounts(areaId);
    const syncs = await new PoolSyncRepository(this.deps.db).statesOf(subaccounts.map((s) => s.id));
    const chartFrom = Math.max(from, to - chartMaxMs);
    const answer: RevenueSubaccount[] = [];
    for (const s of subaccounts) {
      const prefix = `${s.subaccount.toLowerCase()}.`;
      const pool = await repo.poolHourly(s.id, chartFrom, to);
      const miners = await repo.minersHourly(areaId, prefix, chartFrom, to);
      const sync = syncs.get(s.id);
      answer.push({
        id: s.id,
        pool: s.pool,
        subaccount: s.subaccount,
        coin: s.coin,
        miner_count: await repo.minerCount(areaId, prefix),
        has_api_key: Number(s.has_key) === 1,
        sync: sync
          ? {
              status: sync.status,
              last_attempt_at: Number(sync.last_attempt_at),
              last_success_at: sync.last_success_at === null ? null : Number(sync.last_success_at),
              last_error: sync.last_error,
              next_attempt_at: Number(sync.next_attempt_at),
            }
          : null,
        ...mergeHours(pool, miners),
      });
    }
    return answer;
  }
}

/** Joins the two hourly series on their hours and measures the gap over the hours both have. */
export const mergeHours = (pool: readonly HourValue[], miners: readonly HourValue[]) => {
  const byHour = new Map<number, { ts: number; pool: number | null; miners: number | null }>();
  for (const p of pool) byHour.set(p.ts, { ts: p.ts, pool: roundTo(p.ths, 3), miners: null });
  for (const m of miners) {
    const point = byHour.get(m.ts) ?? { ts: m.ts, pool: null, miners: null };
    point.miners = roundTo(m.ths, 3);
    byHour.set(m.ts, point);
  }
  const points = [...byHour.values()].sort((a, b) => a.ts - b.ts);
  let poolSum = 0;
  let minerSum = 0;
  for (const p of points)
    if (p.pool !== null && p.miners !== null) {
      poolSum += p.pool;
      minerSum += p.miners;
    }
  return { points, gap_pct: minerSum > 0 ? roundTo(((minerSum - poolSum) / minerSum) * 100, 1) : null };
};
