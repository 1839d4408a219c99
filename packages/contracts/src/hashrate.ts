import { z } from 'zod';
import { AreaScopeSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { numeric, rule } from './rules.js';
import { ExportFormatSchema } from './tasks.js';

/**
 * Hashrate overview (issue 14, catalogue screen Hashrate Overview): the mine's hashrate per hour or
 * day of the reader's time zone against the theoretical hashrate, split by FBOX, model or miner
 * group, with online rate and two uptimes (docs/statistics.md, "Hashrate overview").
 */
export const hashrateBuckets = ['hour', 'day'] as const;
export type HashrateBucket = (typeof hashrateBuckets)[number];
export const hashrateSplits = ['fbox', 'model', 'group'] as const;
export type HashrateSplit = (typeof hashrateSplits)[number];

/** The longest range each bucket answers, in days (the worst-miners list: as by the day). */
export const hashrateLimits = { maxDays: { hour: 31, day: 366 }, worstMax: 100 } as const;

const dayMs = 86_400_000;
const instant = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .min(0, { error: rule('rule.invalid') }),
);

const rangeOf = (maxDays: number) => (q: { from: number; to: number }, ctx: z.RefinementCtx) => {
  if (q.to <= q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
  else if (q.to - q.from > maxDays * dayMs)
    ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.rangeDays', { max: maxDays }) });
};

const HashrateOverviewQueryBase = AreaScopeSchema.extend({
  /** `[from, to)`, epoch ms; whole hours are read (from rounded down, to up). */
  from: instant,
  to: instant,
  bucket: z.enum(hashrateBuckets, { error: rule('rule.invalid') }).default('day'),
  split: z.enum(hashrateSplits, { error: rule('rule.invalid') }).default('fbox'),
});
const overviewRange = (q: z.infer<typeof HashrateOverviewQueryBase>, ctx: z.RefinementCtx) =>
  rangeOf(hashrateLimits.maxDays[q.bucket])(q, ctx);
export const HashrateOverviewQuerySchema = HashrateOverviewQueryBase.superRefine(overviewRange);
export type HashrateOverviewQuery = z.infer<typeof HashrateOverviewQuerySchema>;

export const HashrateOverviewExportQuerySchema = HashrateOverviewQueryBase.extend({
  format: ExportFormatSchema,
}).superRefine(overviewRange);
export type HashrateOverviewExportQuery = z.infer<typeof HashrateOverviewExportQuerySchema>;

/**
 * Figures of a set of miners over a span. Null when nothing was rolled up for it. `hashrate` and
 * `theoretical` are averages over the span (TH/s); the rates are fractions 0…1.
 */
export const HashrateStatSchema = z.object({
  hashrate: z.number().nullable(),
  theoretical: z.number().nullable(),
  /** hashrate / theoretical. */
  ratio: z.number().nullable(),
  /** Share of miner-hours in which the miner reported online at least once. */
  online_rate: z.number().nullable(),
  /** Share of miner time covered by online reports. */
  reachable_uptime: z.number().nullable(),
  /** Share of miner time covered by online reports with hashrate > 0. */
  hashing_uptime: z.number().nullable(),
});
export type HashrateStat = z.infer<typeof HashrateStatSchema>;

export const HashrateOverviewSchema = z.object({
  bucket: z.enum(hashrateBuckets),
  split: z.enum(hashrateSplits),
  time_zone: z.string(),
  /** The hours read: `from` rounded down, `to` rounded up to an hour (day buckets: to local days). */
  from: z.number(),
  to: z.number(),
  /** The whole mine over the range. */
  kpi: HashrateStatSchema,
  /** The whole mine per bucket (buckets without data are absent). */
  totals: z.array(HashrateStatSchema.extend({ bucket_ts: z.number() })),
  /** One per FBOX, model or group (`key` "0": miners in no group), with its range figures. */
  series: z.array(HashrateStatSchema.extend({ key: z.string(), name: z.string() })),
  /** Each series per bucket. */
  rows: z.array(HashrateStatSchema.extend({ bucket_ts: z.number(), key: z.string() })),
});
export type HashrateOverview = z.infer<typeof HashrateOverviewSchema>;

export const HashrateWorstQuerySchema = AreaScopeSchema.extend({
  from: instant,
  to: instant,
  limit: numeric(
    z
      .number({ error: rule('rule.invalid') })
      .int({ error: rule('rule.invalid') })
      .min(1, { error: rule('rule.invalid') })
      .max(hashrateLimits.worstMax, { error: rule('rule.invalid') }),
  ).default(10),
}).superRefine(rangeOf(hashrateLimits.maxDays.day));
export type HashrateWorstQuery = z.infer<typeof HashrateWorstQuerySchema>;

/** A miner that cost hashrate: lowest realtime / theoretical over the range first. */
export const HashrateWorstMinerSchema = z.object({
  miner_id: z.number().int(),
  sn: z.string(),
  worker: z.string(),
  model: z.string(),
  ip: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  hashrate: z.number(),
  theoretical: z.number(),
  ratio: z.number(),
  /** theoretical − hashrate, TH/s (what the miner cost on average). */
  lost: z.number(),
  reachable_uptime: z.number(),
  hashing_uptime: z.number(),
});
export type HashrateWorstMiner = z.infer<typeof HashrateWorstMinerSchema>;

export const HashrateWorstSchema = z.object({
  from: z.number(),
  to: z.number(),
  items: z.array(HashrateWorstMinerSchema),
});
export type HashrateWorst = z.infer<typeof HashrateWorstSchema>;

export const hashrateStatisticEndpoints = {
  /** Hashrate per bucket and split against theoretical, online rate and uptimes (issue 14). */
  hashrateOverview: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/hashrate',
    permission: 'user',
    query: HashrateOverviewQuerySchema,
    data: HashrateOverviewSchema,
  }),
  /** The overview's series table (per series and bucket) as CSV or XLSX. */
  hashrateOverviewExport: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/hashrate_export',
    permission: 'user',
    query: HashrateOverviewExportQuerySchema,
    data: z.string(),
    download: true,
  }),
  /** The miners that cost the most hashrate over the range. */
  hashrateWorstMiners: endpoint({
    method: 'GET',
    path: '/index/fbox.statistic/hashrate_worst',
    permission: 'user',
    query: HashrateWorstQuerySchema,
    data: HashrateWorstSchema,
  }),
} as const;
