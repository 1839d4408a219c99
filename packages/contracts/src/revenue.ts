import { z } from 'zod';
import { AreaScopeSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { OptionalHttpUrlSchema, PoolSyncSchema } from './pools.js';
import { numeric, rule } from './rules.js';
import { ExportFormatSchema } from './tasks.js';

/**
 * Revenue of a mine (issue 14, catalogue screen Revenue): what the pools credited per day, an
 * estimate from the miners' hashrate where no pool reported, the value in the user's fiat currency
 * and the profit after the power cost. docs/statistics.md explains every figure.
 */

/** SHA-256 coins: the hashprice formula (difficulty × 2^32 hashes per block) holds for them. */
export const revenueCoins = ['BTC', 'BCH', 'BSV'] as const;
export type RevenueCoin = (typeof revenueCoins)[number];

/** The fiat currencies a mine's revenue is valued in. */
export const revenueFiats = ['USD', 'CNY', 'EUR', 'GBP', 'JPY', 'RUB', 'CAD', 'AUD'] as const;
export type RevenueFiat = (typeof revenueFiats)[number];

/** CoinGecko's ids of the coins, for a price address answering its simple-price shape. */
export const coinGeckoIds: Record<RevenueCoin, string> = {
  BTC: 'bitcoin',
  BCH: 'bitcoin-cash',
  BSV: 'bitcoin-cash-sv',
};

export const revenueLimits = {
  /** Above any SHA-256 network's difficulty for decades (Bitcoin: ~1.3e14 in 2025). */
  difficultyMax: 1e18,
  /** Coins per block including fees; a Bitcoin block paid 50 at most. */
  blockRewardMax: 100,
  priceMax: 1e9,
  /** Local days one revenue answer covers. */
  maxDays: 366,
} as const;

/** A number greater than 0 and at most `max`, from JSON or a form field; never clamped. */
const positiveUpTo = (max: number) =>
  numeric(
    z
      .number({ error: rule('rule.number') })
      .positive({ error: rule('rule.positive') })
      .max(max, { error: rule('rule.numberMax', { max }) }),
  );

/** A mine's revenue settings as answered; the numbers are null until someone enters them. */
export const RevenueSettingsSchema = z.object({
  area_id: z.number().int(),
  coin: z.enum(revenueCoins),
  /** The network's difficulty (e.g. 126000000000000). */
  network_difficulty: z.number().nullable(),
  /** Coins a block pays, subsidy plus average fees. */
  block_reward: z.number().nullable(),
  /** One coin in `fiat`: entered, or the last one read from `price_url`. */
  coin_price: z.number().nullable(),
  fiat: z.enum(revenueFiats),
  /** An http(s) address answering the coin's price as JSON; '' when none. */
  price_url: z.string(),
  /** When `coin_price` was last read from `price_url`, and why the last read failed (null: it did not). */
  price_fetched_at: z.number().nullable(),
  price_error: z.string().nullable(),
  /** Coin per TH/s per day from difficulty and block reward; null until both are set. */
  hashprice: z.number().nullable(),
  /** Null before the first save. */
  updated_at: z.number().nullable(),
});
export type RevenueSettings = z.infer<typeof RevenueSettingsSchema>;

/**
 * Saves a mine's revenue settings (masters and administrators). Every field is required but the
 * price address: with one, the price is read from it at once and every 10 minutes after.
 */
export const RevenueSettingsSaveBodySchema = AreaScopeSchema.extend({
  coin: z.enum(revenueCoins, { error: rule('rule.invalid') }),
  network_difficulty: positiveUpTo(revenueLimits.difficultyMax),
  block_reward: positiveUpTo(revenueLimits.blockRewardMax),
  coin_price: positiveUpTo(revenueLimits.priceMax),
  fiat: z.enum(revenueFiats, { error: rule('rule.invalid') }),
  price_url: OptionalHttpUrlSchema,
});
export type RevenueSettingsSaveBody = z.infer<typeof RevenueSettingsSaveBodySchema>;

/** A real calendar date written `YYYY-MM-DD` (not 2026-02-30). */
const isDay = (text: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text);
};

const dayText = z
  .string({ error: rule('rule.invalid') })
  .trim()
  .refine(isDay, { error: rule('rule.invalid') });

const dayMs = 86_400_000;
const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1;

const rangeFields = { from_day: dayText, to_day: dayText };

/** The range must run forwards and span at most `revenueLimits.maxDays` days. */
const checkRange = (q: { from_day: string; to_day: string }, ctx: z.core.$RefinementCtx) => {
  const days = dayCount(q.from_day, q.to_day);
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to_day'], message: rule('rule.timeOrder') });
  else if (days > revenueLimits.maxDays)
    ctx.addIssue({
      code: 'custom',
      path: ['to_day'],
      message: rule('rule.rangeDays', { max: revenueLimits.maxDays }),
    });
};

/** Local days `from_day` … `to_day` (both included, `YYYY-MM-DD` in the reader's zone), at most 366. */
export const RevenueQuerySchema = AreaScopeSchema.extend(rangeFields).superRefine(checkRange);
export type RevenueQuery = z.infer<typeof RevenueQuerySchema>;

/** The daily table as a file. */
export const RevenueExportQuerySchema = AreaScopeSchema.extend({
  ...rangeFields,
  format: ExportFormatSchema,
}).superRefine(checkRange);
export type RevenueExportQuery = z.infer<typeof RevenueExportQuerySchema>;

/** Where a day's coin comes from: the pools' credits, an estimate from the miners' hashrate, or nothing. */
export const revenueSources = ['pool', 'estimated', 'none'] as const;
export type RevenueSource = (typeof revenueSources)[number];

/** One local day of the range. Null: no figure (no data, or a setting missing). */
export const RevenueDaySchema = z.object({
  day: z.string(),
  /** The day's start (the reader's midnight), epoch ms. */
  day_ts: z.number(),
  source: z.enum(revenueSources),
  /** The pools' credits for the day (their UTC day of the same date). */
  pool_coin: z.number().nullable(),
  /** Miners' hashrate × hashprice, for a day no pool reported. */
  estimated_coin: z.number().nullable(),
  /** The day's coin: the pools' when they reported, else the estimate. */
  coin: z.number().nullable(),
  /** Mean miner-side hashrate over the hours with data, TH/s. */
  miner_hashrate: z.number().nullable(),
  fiat: z.number().nullable(),
  energy_kwh: z.number().nullable(),
  power_cost: z.number().nullable(),
  /** `fiat − power_cost`; null when either is missing. */
  profit: z.number().nullable(),
});
export type RevenueDay = z.infer<typeof RevenueDaySchema>;

/** One hour of a subaccount's chart: pool-side and miner-side TH/s (null: no reading that hour). */
export const RevenueHashratePointSchema = z.object({
  ts: z.number(),
  pool: z.number().nullable(),
  miners: z.number().nullable(),
});

export const RevenueSubaccountSchema = z.object({
  id: z.number().int(),
  pool: z.string(),
  subaccount: z.string(),
  coin: z.string(),
  /** Miners whose worker name starts with `<subaccount>.`. */
  miner_count: z.number().int(),
  sync: PoolSyncSchema.nullable(),
  /** Whether the subaccount has an API key (without one nothing is read). */
  has_api_key: z.boolean(),
  points: z.array(RevenueHashratePointSchema),
  /** (miners − pool) / miners over the hours both have, %; null without such hours. */
  gap_pct: z.number().nullable(),
});
export type RevenueSubaccount = z.infer<typeof RevenueSubaccountSchema>;

export const RevenueTotalsSchema = z.object({
  coin: z.number(),
  pool_coin: z.number(),
  estimated_coin: z.number(),
  fiat: z.number().nullable(),
  power_cost: z.number().nullable(),
  profit: z.number().nullable(),
  energy_kwh: z.number(),
  pool_days: z.number().int(),
  estimated_days: z.number().int(),
  none_days: z.number().int(),
});

export const RevenueSchema = z.object({
  time_zone: z.string(),
  settings: RevenueSettingsSchema,
  /** The mine's electricity price per kWh, in `settings.fiat`. */
  electricity_price: z.number(),
  days: z.array(RevenueDaySchema),
  totals: RevenueTotalsSchema,
  subaccounts: z.array(RevenueSubaccountSchema),
});
export type Revenue = z.infer<typeof RevenueSchema>;

export const revenueEndpoints = {
  revenueSettings: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/revenue_setting',
    permission: 'user',
    query: AreaScopeSchema,
    data: RevenueSettingsSchema,
  }),
  revenueSettingsSave: endpoint({
    method: 'POST',
    path: '/index/fbox.statistic/set_revenue_setting',
    permission: 'manage',
    body: RevenueSettingsSaveBodySchema,
    data: RevenueSettingsSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** Revenue per local day with its sources, the totals and each pool subaccount's hashrate chart. */
  revenue: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/revenue',
    permission: 'user',
    query: RevenueQuerySchema,
    data: RevenueSchema,
  }),
  revenueExport: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/revenue_export',
    permission: 'user',
    query: RevenueExportQuerySchema,
    data: z.string(),
    download: true,
  }),
} as const;
