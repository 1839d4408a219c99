import { z } from 'zod';
import { AreaIdBodySchema, AreaScopeSchema, IdListSchema, maxEpochMs } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { MinerFilterSchema } from './miner.js';
import { logPartLimits } from './mqtt.js';
import { numeric, pageFields, rule } from './rules.js';

/**
 * Miner log export (spec §2 `/logs/minerLogs`, §3 export log, §4 export statuses): a user picks
 * miners and a time window; the server asks each miner's gateway for that miner's log over MQTT
 * (`miner.logs`, answered in parts on `fbox/<deviceId>/logs`, docs/mqtt.md) and offers one zip with
 * a file per miner.
 */
export const minerLogLimits = {
  /** Miners one export may name. */
  minersMax: 5_000,
  /** The widest time window, ms (7 days). */
  windowMaxMs: 7 * 86_400_000,
  /** How far back a window may start, ms (30 days): gateways keep no older logs. */
  lookBackMs: 30 * 86_400_000,
  /** Bytes of one miner's log the gateway sends at most (the newest of the window): 4 MiB. */
  minerBytes: logPartLimits.partBytes * logPartLimits.partsMax,
  /** Requests outstanding at once on one gateway. */
  perGateway: 4,
  /** Seconds a gateway has to send a miner's log and acknowledge the request. */
  answerSeconds: 60,
  /** Exports kept per mine (the oldest finished ones must be deleted first). */
  perMine: 200,
} as const;

/** How the miners are picked: whole FBOXes, tanks or miner groups, chosen miners, or the miner-list filter. */
export const minerLogScopes = ['fbox', 'tank', 'group', 'miners', 'filter'] as const;
export type MinerLogScope = (typeof minerLogScopes)[number];

/** Export statuses (spec §4): Processing, Finished, Canceled. */
export const minerLogExportStatuses = ['processing', 'finished', 'canceled'] as const;
export type MinerLogExportStatus = (typeof minerLogExportStatuses)[number];

/** One miner of an export: waiting, asked (its gateway is sending), its log stored, failed, or dropped by a cancel. */
export const minerLogItemStates = ['queued', 'requested', 'done', 'failed', 'canceled'] as const;
export type MinerLogItemState = (typeof minerLogItemStates)[number];

const epochMs = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .min(0, { error: rule('rule.invalid') })
    .max(maxEpochMs, { error: rule('rule.invalid') }),
);

/** The miner-list filter as an export scope (its paging does not apply). */
export const MinerLogFilterSchema = MinerFilterSchema.omit({ area_id: true, page: true, limit: true });

/**
 * A new export: the window (`from` < `to`, at most 7 days, starting at most 30 days back) and the
 * miners, by `scope`: `ids` names the FBOXes, tanks, groups or miners; `filter` is the miner list's
 * filter. The server checks the window against its clock and counts the miners (1–5,000).
 */
export const MinerLogExportBodySchema = AreaScopeSchema.extend({
  scope: z.enum(minerLogScopes, { error: rule('rule.invalid') }),
  ids: z.preprocess((v) => (v === '' || v === null ? undefined : v), IdListSchema.optional()),
  filter: MinerLogFilterSchema.optional(),
  from: epochMs,
  to: epochMs,
}).superRefine((b, ctx) => {
  if (b.scope === 'filter' ? b.filter === undefined : b.ids === undefined)
    ctx.addIssue({
      code: 'custom',
      path: [b.scope === 'filter' ? 'filter' : 'ids'],
      message: rule('rule.required'),
    });
  if (b.to <= b.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
  else if (b.to - b.from > minerLogLimits.windowMaxMs)
    ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.windowMaxDays', { max: 7 }) });
});
export type MinerLogExportBody = z.infer<typeof MinerLogExportBodySchema>;

export const MinerLogExportSchema = z.object({
  id: z.number().int(),
  area_id: z.number().int(),
  scope: z.enum(minerLogScopes),
  /** What was picked, in words ("Hydro 01, Immersion 02", a group's name, the filter). */
  scope_label: z.string(),
  from: z.number(),
  to: z.number(),
  status: z.enum(minerLogExportStatuses),
  /** Total miner count, done count, failed count (spec §3). */
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** Bytes of log stored so far (the zip is a little smaller: it is compressed). */
  bytes: z.number().int(),
  /** Who asked for it (username), null when that account is gone. */
  created_by: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  /** When it is deleted by itself (the retention period after it was made). */
  expires_at: z.number(),
});
export type MinerLogExport = z.infer<typeof MinerLogExportSchema>;

export const MinerLogListBodySchema = AreaScopeSchema.extend(pageFields);

/** One export's miners, optionally only those in one state (the failures, with their reasons). */
export const MinerLogItemsBodySchema = AreaIdBodySchema.extend({
  ...pageFields,
  state: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(minerLogItemStates, { error: rule('rule.invalid') }).optional(),
  ),
});

export const MinerLogItemSchema = z.object({
  miner_id: z.number().int(),
  sn: z.string(),
  worker: z.string(),
  ip: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  state: z.enum(minerLogItemStates),
  /** Why it failed: the gateway's answer, "no answer in time", "FBOX offline"… */
  error: z.string().nullable(),
  bytes: z.number().int(),
  updated_at: z.number(),
});
export type MinerLogItem = z.infer<typeof MinerLogItemSchema>;

export const MinerLogDownloadQuerySchema = AreaIdBodySchema;

const Nothing = z.null();
const LOG = '/ff-plat-api/api/admin/log/export';

/**
 * Miner log export (`admin/log/export` of spec §7). Starting, canceling and deleting an export is a
 * device action (it sends commands to the miners' gateways): masters, administrators and operators
 * with Miner control. Whoever sees the mine follows and downloads the exports.
 */
export const minerLogEndpoints = {
  minerLogExport: endpoint({
    method: 'POST',
    path: LOG,
    permission: 'operate:minerControl',
    body: MinerLogExportBodySchema,
    data: MinerLogExportSchema,
    mutates: true,
    success: 'api.logExportStarted',
  }),
  minerLogExportList: endpoint({
    method: 'POST',
    path: `${LOG}/list`,
    permission: 'user',
    body: MinerLogListBodySchema,
    data: listOf(MinerLogExportSchema),
  }),
  minerLogExportItems: endpoint({
    method: 'POST',
    path: `${LOG}/items`,
    permission: 'user',
    body: MinerLogItemsBodySchema,
    data: listOf(MinerLogItemSchema),
  }),
  /** Stops a processing export: nothing more is asked, answers still on the way are dropped. */
  minerLogExportCancel: endpoint({
    method: 'POST',
    path: `${LOG}/cancel`,
    permission: 'operate:minerControl',
    body: AreaIdBodySchema,
    data: MinerLogExportSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** Deletes an export and its stored logs (a processing one is canceled first). */
  minerLogExportDelete: endpoint({
    method: 'POST',
    path: `${LOG}/delete`,
    permission: 'operate:minerControl',
    body: AreaIdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
  /** The zip: one `<FBOX>/<SN>.log` per miner whose log arrived, and `export.txt` with every miner's outcome. */
  minerLogExportDownload: endpoint({
    method: 'GET',
    path: `${LOG}/download`,
    permission: 'user',
    query: MinerLogDownloadQuerySchema,
    data: z.string(),
    download: true,
  }),
} as const;
