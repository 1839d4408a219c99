import { z } from 'zod';
import {
  AreaListQuerySchema,
  AreaScopeSchema,
  CommandSchema,
  DeviceStatusSchema,
  historyOf,
  IdListSchema,
  OptionalIdSchema,
  outcomeStatuses,
  sortOf,
} from './devices.js';
import { limits } from './limits.js';
import { intInRange, OnOffSchema, optionalIntInRange, rule } from './rules.js';

/** Miners (`fbox.miner`, spec §3). Hashrate TH/s, power W, temperatures °C, uptime seconds. */

export const minerSortFields = [
  'id',
  'sn',
  'worker',
  'model',
  'brand',
  'pool',
  'pool_address',
  'ip',
  'firmware',
  'fbox_name',
  'tank_name',
  'outlet',
  'status',
  'mode',
  'fault',
  'chip_avg_temp',
  'chip_max_temp',
  'hashrate_theoretical',
  'hashrate_realtime',
  'hashrate_avg',
  'hashrate_24h',
  'power_w',
  'uptime_s',
  'updated_at',
] as const;
export type MinerSortField = (typeof minerSortFields)[number];

const optionalFilter = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(max, { error: rule('rule.tooLong', { max }) })
      .optional(),
  );

/**
 * Miner list filters. `fault`: `any` = has a fault, `none` = healthy, else that fault code.
 * `keyword` matches worker, IP or SN (substring, case-insensitive).
 */
export const MinerFilterSchema = AreaListQuerySchema.extend({
  fbox_id: OptionalIdSchema,
  tank_id: OptionalIdSchema,
  status: z.preprocess((v) => (v === '' ? undefined : v), DeviceStatusSchema.optional()),
  model: optionalFilter(64),
  brand: optionalFilter(64),
  pool: optionalFilter(128),
  mode: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['high', 'low'], { error: rule('rule.mode') }).optional(),
  ),
  fault: optionalFilter(64),
  /**
   * Under-hashing: online miners whose realtime hashrate is below this percent of their theoretical
   * one (both reported).
   */
  under_pct: optionalIntInRange(1, 100),
  /** Lock Pool's guard: only miners reporting another pool or worker than the configured one. */
  /** true/false, or a form's '1'/'0', 'true'/'false'; anything else is refused, not read as false. */
  pool_hijacked: z.preprocess((v) => {
    if (v === '' || v === null || v === undefined) return undefined;
    if (v === true || v === '1' || v === 'true' || v === 1) return true;
    if (v === false || v === '0' || v === 'false' || v === 0) return false;
    return v;
  }, z.boolean({ error: rule('rule.invalid') }).optional()),
});

export const MinerListQuerySchema = MinerFilterSchema.extend({ sort: sortOf(minerSortFields) });
export type MinerListQuery = z.infer<typeof MinerListQuerySchema>;
/** Export takes the list's filters and sort; paging does not apply. */
export const MinerExportQuerySchema = MinerListQuerySchema.omit({ page: true, limit: true });
export type MinerExportQuery = z.infer<typeof MinerExportQuerySchema>;

export const MinerListItemSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  worker: z.string(),
  model: z.string(),
  brand: z.string(),
  pool: z.string(),
  pool_address: z.string(),
  ip: z.string(),
  firmware: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  tank_id: z.number().int().nullable(),
  tank_name: z.string().nullable(),
  outlet: z.number().int().nullable(),
  status: DeviceStatusSchema,
  mode: z.enum(['high', 'low']),
  /** '' when healthy. */
  fault: z.string(),
  chip_avg_temp: z.number(),
  chip_max_temp: z.number(),
  hashrate_theoretical: z.number(),
  hashrate_realtime: z.number(),
  hashrate_avg: z.number(),
  hashrate_24h: z.number(),
  power_w: z.number(),
  /** Seconds; the web shows d/h/m/s. */
  uptime_s: z.number(),
  updated_at: z.number(),
  /** Lock Pool is on and the miner reports another pool or worker than the configured one. */
  pool_hijacked: z.boolean(),
});
export type MinerListItem = z.infer<typeof MinerListItemSchema>;

export const MinerDetailSchema = MinerListItemSchema.extend({
  area_id: z.number().int(),
  /** Latest commands sent to this miner, newest first. */
  commands: z.array(CommandSchema),
});
export type MinerDetail = z.infer<typeof MinerDetailSchema>;

/** Distinct values of the area's miners, for the list's filter selects. */
export const MinerFilterOptionsSchema = z.object({
  models: z.array(z.string()),
  brands: z.array(z.string()),
  pools: z.array(z.string()),
  faults: z.array(z.string()),
});

export const MinerIdsBodySchema = AreaScopeSchema.extend({ ids: IdListSchema });

export const MinerPoolBodySchema = MinerIdsBodySchema.extend({
  pool_address: z
    .string({ error: rule('rule.required') })
    .trim()
    .min(1, { error: rule('rule.required') })
    .max(256, { error: rule('rule.tooLong', { max: 256 }) })
    .regex(/^(stratum\+(tcp|ssl):\/\/)?[A-Za-z0-9.-]+:\d{1,5}$/, { error: rule('rule.poolAddress') }),
  worker: z
    .string({ error: rule('rule.required') })
    .trim()
    .min(1, { error: rule('rule.required') })
    .max(128, { error: rule('rule.tooLong', { max: 128 }) }),
  /** Sent to the miners only; never stored or returned. */
  password: z
    .string()
    .max(128, { error: rule('rule.tooLong', { max: 128 }) })
    .optional(),
});
export type MinerPoolBody = z.infer<typeof MinerPoolBodySchema>;

export const MinerOverclockBodySchema = MinerIdsBodySchema.extend({
  status: OnOffSchema,
  min: intInRange(limits.autoFrequencyMin, limits.autoFrequencyMax).optional(),
  max: intInRange(limits.autoFrequencyMin, limits.autoFrequencyMax).optional(),
}).superRefine((b, ctx) => {
  if (b.min !== undefined && b.max !== undefined && b.min > b.max)
    ctx.addIssue({ code: 'custom', path: ['min'], message: rule('rule.minNotAboveMax') });
});

export const MinerModeBodySchema = MinerIdsBodySchema.extend({
  mode: z.enum(['high', 'low'], { error: rule('rule.mode') }),
});

export const minerActions = ['restart', 'high', 'low', 'resave', 'overclock_on', 'overclock_off'] as const;
export type MinerAction = (typeof minerActions)[number];
export const MinerMultipleBodySchema = MinerIdsBodySchema.extend({
  action: z.enum(minerActions, { error: rule('rule.action') }),
});

/** Per-miner outcome of a device action: its command, or `not_found` (nothing sent). */
export const MinerBatchResultSchema = z.object({
  batch_id: z.string(),
  commands: z.array(
    z.object({
      miner_id: z.number().int(),
      command_id: z.string().nullable(),
      status: z.enum(outcomeStatuses),
    }),
  ),
});
export type MinerBatchResult = z.infer<typeof MinerBatchResultSchema>;

export const MinerDeletedSchema = z.object({ deleted: z.number().int() });

const point = z.number().nullable();
export const MinerHistorySchema = historyOf({
  hashrate: point,
  power_w: point,
  chip_max_temp: point,
});
