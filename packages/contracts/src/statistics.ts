import { z } from 'zod';
import { AreaScopeSchema, OptionalIdSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { numeric, rule } from './rules.js';

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
export const PowerStatisticQuerySchema = AreaScopeSchema.extend({
  from: instant,
  to: instant,
  bucket: z.enum(energyBuckets, { error: rule('rule.invalid') }).default('day'),
  fbox_id: OptionalIdSchema,
}).superRefine((q, ctx) => {
  if (q.to <= q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
  else if (q.to - q.from > statisticLimits.maxDays[q.bucket] * dayMs)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: rule('rule.rangeDays', { max: statisticLimits.maxDays[q.bucket] }),
    });
});
export type PowerStatisticQuery = z.infer<typeof PowerStatisticQuerySchema>;

/** One FBOX's energy in one bucket, with its cost at the mine's electricity price. */
export const PowerStatisticRowSchema = z.object({
  bucket_ts: z.number(),
  fbox_id: z.number().int(),
  energy_kwh: z.number(),
  cost: z.number(),
  /** Meter resets inside the bucket: the chart says so instead of showing a drop. */
  resets: z.number().int(),
});

export const PowerStatisticSchema = z.object({
  bucket: z.enum(energyBuckets),
  /** The reader's zone the buckets begin in (`UTC+8`). */
  time_zone: z.string(),
  /** The mine's electricity price per kWh, applied to every bucket. */
  price: z.number(),
  fboxes: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rows: z.array(PowerStatisticRowSchema),
  total_kwh: z.number(),
  total_cost: z.number(),
  resets: z.number().int(),
});
export type PowerStatistic = z.infer<typeof PowerStatisticSchema>;

export const statisticEndpoints = {
  /** Energy and its cost per FBOX and bucket (issue 14, Power Statistics). */
  powerStatistic: endpoint({
    method: 'GET',
    path: '/index/fbox.electricity/statistic',
    permission: 'user',
    query: PowerStatisticQuerySchema,
    data: PowerStatisticSchema,
  }),
} as const;
