import { z } from 'zod';
import { ElectricityPriceSchema } from './area.js';
import { AreaScopeSchema, OptionalIdSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { numeric, rule } from './rules.js';
import { ExportFormatSchema } from './tasks.js';

/** How power statistics group energy: per hour, day or month of the reader's time zone. */
export const energyBuckets = ['hour', 'day', 'month'] as const;
export type EnergyBucketName = (typeof energyBuckets)[number];

/** The longest range each bucket answers, in days: enough rows for a chart, never a whole history. */
export const statisticLimits = { maxDays: { hour: 31, day: 366, month: 1830 } } as const;

const dayMs = 86_400_000;
const instant = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .min(0, { error: rule('rule.invalid') }),
);

/**
 * Energy of the mine's FBOXes (or one of them) from `from` to `to` (epoch ms, `[from, to)`), per
 * bucket. The range must fit the bucket's limit; the end after the start.
 */
const PowerStatisticQueryBase = AreaScopeSchema.extend({
  from: instant,
  to: instant,
  bucket: z.enum(energyBuckets, { error: rule('rule.invalid') }).default('day'),
  fbox_id: OptionalIdSchema,
});
const rangeFits = (q: z.infer<typeof PowerStatisticQueryBase>, ctx: z.RefinementCtx) => {
  if (q.to <= q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
  else if (q.to - q.from > statisticLimits.maxDays[q.bucket] * dayMs)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: rule('rule.rangeDays', { max: statisticLimits.maxDays[q.bucket] }),
    });
};
export const PowerStatisticQuerySchema = PowerStatisticQueryBase.superRefine(rangeFits);
export type PowerStatisticQuery = z.infer<typeof PowerStatisticQuerySchema>;

/** One FBOX's energy in one bucket, costed hour by hour at the price valid at each hour's start. */
export const PowerStatisticRowSchema = z.object({
  bucket_ts: z.number(),
  fbox_id: z.number().int(),
  energy_kwh: z.number(),
  /** Each meter's share (meter 1 and meter 2), kWh; null when the meter counted nothing in the bucket. */
  meter1_kwh: z.number().nullable(),
  meter2_kwh: z.number().nullable(),
  cost: z.number(),
  /** Meter resets inside the bucket: the chart says so instead of showing a drop. */
  resets: z.number().int(),
  /** Highest power of the box in the bucket (kW, hourly rollups' maximum); null without readings. */
  peak_kw: z.number().nullable(),
  /** Energy per terahash (J/TH) over the bucket's hours with a hashrate; null without hashrate. */
  j_per_th: z.number().nullable(),
});
export type PowerStatisticRow = z.infer<typeof PowerStatisticRowSchema>;

/** The boxes in scope summed per bucket (what the chart's bars and line show). */
export const PowerStatisticBucketSchema = z.object({
  bucket_ts: z.number(),
  energy_kwh: z.number(),
  cost: z.number(),
  resets: z.number().int(),
  /** Highest hour of the boxes' summed hourly maxima (kW); null without readings. */
  peak_kw: z.number().nullable(),
  j_per_th: z.number().nullable(),
});

/** A price in force during the range: from `valid_from` (epoch ms) until the next one. */
export const PriceUsedSchema = z.object({ valid_from: z.number(), price: z.number() });

/** Load profile: the boxes' summed average power per hour (per day when the bucket is a month). */
export const LoadPointSchema = z.object({ ts: z.number(), power_kw: z.number(), peak_kw: z.number() });

export const PowerStatisticSchema = z.object({
  bucket: z.enum(energyBuckets),
  /** The reader's zone the buckets begin in (`UTC+8`). */
  time_zone: z.string(),
  /** The mine's electricity price valid now, per kWh. */
  price: z.number(),
  /** The prices that cost the range, oldest first (at least one). */
  prices: z.array(PriceUsedSchema),
  fboxes: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rows: z.array(PowerStatisticRowSchema),
  buckets: z.array(PowerStatisticBucketSchema),
  /** Step of `profile`: an hour, or a day when the bucket is a month. */
  profile_step: z.enum(['hour', 'day']),
  profile: z.array(LoadPointSchema),
  total_kwh: z.number(),
  total_cost: z.number(),
  resets: z.number().int(),
  peak_kw: z.number().nullable(),
  j_per_th: z.number().nullable(),
});
export type PowerStatistic = z.infer<typeof PowerStatisticSchema>;

/** The statistic's table (its rows, per FBOX and bucket) as a file: the same query plus the format. */
export const PowerStatisticExportQuerySchema = PowerStatisticQueryBase.extend({
  format: ExportFormatSchema,
}).superRefine(rangeFits);
export type PowerStatisticExportQuery = z.infer<typeof PowerStatisticExportQuerySchema>;

/** One price of a mine's history: valid from `valid_from` (epoch ms) until the next one. */
export const ElectricityPriceItemSchema = z.object({
  valid_from: z.number(),
  price: z.number(),
  /** Who set it (username); null for the price the mine had before prices got a history. */
  created_by: z.string().nullable(),
  created_at: z.number(),
});
export type ElectricityPriceItem = z.infer<typeof ElectricityPriceItemSchema>;

export const ElectricityPriceListSchema = z.object({
  items: z.array(ElectricityPriceItemSchema),
  /** The price valid now (the mine's `electricity_price`). */
  current: z.number(),
});

/** A price from `valid_from` on (now or in the past, not the future): spec §5's price rule. */
export const ElectricityPriceAddBodySchema = AreaScopeSchema.extend({
  valid_from: instant,
  price: ElectricityPriceSchema,
});
export type ElectricityPriceAddBody = z.infer<typeof ElectricityPriceAddBodySchema>;

export const ElectricityPriceDeleteBodySchema = AreaScopeSchema.extend({ valid_from: instant });
export type ElectricityPriceDeleteBody = z.infer<typeof ElectricityPriceDeleteBodySchema>;

export const statisticEndpoints = {
  /** Energy and its cost per FBOX and bucket (issue 14, Power Statistics). */
  powerStatistic: endpoint({
    method: 'GET',
    path: '/index/fbox.electricity/statistic',
    permission: 'user',
    query: PowerStatisticQuerySchema,
    data: PowerStatisticSchema,
  }),
  /** The statistic's rows (per FBOX and bucket) as CSV or XLSX: exactly the table of the page. */
  powerStatisticExport: endpoint({
    method: 'GET',
    path: '/index/fbox.electricity/statistic_export',
    permission: 'user',
    query: PowerStatisticExportQuerySchema,
    data: z.string(),
    download: true,
  }),
  /** The mine's electricity prices with their valid-from dates, newest first. */
  electricityPriceList: endpoint({
    method: 'GET',
    path: '/index/fbox.electricity/prices',
    permission: 'user',
    query: AreaScopeSchema,
    data: ElectricityPriceListSchema,
  }),
  /** Adds a price valid from a date (now or earlier); costs from then on use it. */
  electricityPriceAdd: endpoint({
    method: 'POST',
    path: '/index/fbox.electricity/add_price',
    permission: 'manage',
    body: ElectricityPriceAddBodySchema,
    data: ElectricityPriceListSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** Deletes one price of the history (never the last one). */
  electricityPriceDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.electricity/delete_price',
    permission: 'manage',
    body: ElectricityPriceDeleteBodySchema,
    data: ElectricityPriceListSchema,
    mutates: true,
    success: 'api.modified',
  }),
} as const;
