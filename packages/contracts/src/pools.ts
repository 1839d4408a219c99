import { z } from 'zod';
import { AreaIdBodySchema, AreaListQuerySchema, AreaScopeSchema, sortOf } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { flagFromInput, IdSchema, requiredText, rule } from './rules.js';

/**
 * Mining pools of a mine (spec §3 Observer link, §7 `fbox.pool` and `admin/area/pool`): observer
 * links people open in the pool's web site, and the pool subaccounts whose read-only observer and API
 * credentials the revenue statistics use. API secrets are write-only: no answer ever carries them.
 */
export const poolLimits = {
  poolMax: 64,
  subaccountMax: 64,
  coinMax: 32,
  urlMax: 500,
  secretMax: 256,
} as const;

/** Whitespace or a control character anywhere: never part of an address someone typed on purpose. */
const hasSpaceOrControl = (text: string): boolean =>
  /\s/.test(text) || [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Whether a text is an absolute http(s) address with a host. Anything else (javascript:, data:,
 * relative paths, `http:host` without slashes) is refused, so a stored link is safe to open.
 */
export const isHttpUrl = (text: string): boolean => {
  if (!/^https?:\/\/[^\s/?#]/i.test(text) || hasSpaceOrControl(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** A required, trimmed http(s) address. */
export const HttpUrlSchema = requiredText(poolLimits.urlMax).refine(isHttpUrl, {
  error: rule('rule.httpUrl'),
});

/** An http(s) address that may be left empty ('' or missing: none). */
export const OptionalHttpUrlSchema = z.preprocess(
  (v) => (v === null ? undefined : v),
  z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(poolLimits.urlMax, { error: rule('rule.tooLong', { max: poolLimits.urlMax }) })
    .refine((text) => text === '' || isHttpUrl(text), { error: rule('rule.httpUrl') })
    .optional(),
);

/** A write-only secret: '' or missing keeps the stored one. Not trimmed inside; edges are. */
const SecretSchema = z.preprocess(
  (v) => (v === null ? undefined : v),
  z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(poolLimits.secretMax, { error: rule('rule.tooLong', { max: poolLimits.secretMax }) })
    .optional(),
);

/** A flag from JSON (true/false) or a form field ('1'/'0', 'true'/'false'); missing is false. */
const FlagSchema = z.preprocess(flagFromInput, z.boolean({ error: rule('rule.invalid') }).optional());

/** The fields an observer link and a pool subaccount share. */
const poolFields = {
  pool: requiredText(poolLimits.poolMax),
  subaccount: requiredText(poolLimits.subaccountMax),
  coin: requiredText(poolLimits.coinMax),
};

// ── Observer links (`fbox.pool`) ──

export const ObserverLinkSchema = z.object({
  id: z.number().int(),
  area_id: z.number().int(),
  pool: z.string(),
  subaccount: z.string(),
  coin: z.string(),
  /** An http(s) address (checked on the way in). */
  link: z.string(),
  created_at: z.number(),
});
export type ObserverLink = z.infer<typeof ObserverLinkSchema>;

export const ObserverLinkListQuerySchema = AreaListQuerySchema.extend({
  sort: sortOf(['id', 'pool', 'subaccount', 'coin', 'created_at']),
});
export type ObserverLinkListQuery = z.infer<typeof ObserverLinkListQuerySchema>;

/** Spec §5: mining pool, subaccount name, coins and link are all required. */
export const ObserverLinkCreateBodySchema = AreaScopeSchema.extend({
  ...poolFields,
  link: HttpUrlSchema,
});
export type ObserverLinkCreateBody = z.infer<typeof ObserverLinkCreateBodySchema>;

// ── Pool subaccounts (`admin/area/pool`) ──

/** A pool subaccount as answered: secrets only as "stored or not". */
/**
 * How reading a subaccount's pool went: `pending` (the first read is under way), `ok`, `failed` (the
 * pool refused or could not be reached; retried), `unsupported` (no adapter speaks that pool: its
 * revenue is estimated).
 */
export const poolSyncStatuses = ['pending', 'ok', 'failed', 'unsupported'] as const;
export type PoolSyncStatus = (typeof poolSyncStatuses)[number];

export const PoolSyncSchema = z.object({
  status: z.enum(poolSyncStatuses),
  last_attempt_at: z.number(),
  last_success_at: z.number().nullable(),
  /** The pool's reason for the last failure, in English as the pool said it. */
  last_error: z.string().nullable(),
  next_attempt_at: z.number(),
});
export type PoolSync = z.infer<typeof PoolSyncSchema>;

export const PoolSubaccountSchema = z.object({
  id: z.number().int(),
  area_id: z.number().int(),
  pool: z.string(),
  subaccount: z.string(),
  coin: z.string(),
  /** The read-only observer address at the pool; '' when none. */
  observer_url: z.string(),
  has_api_key: z.boolean(),
  has_api_secret: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
  /** The pool sync's last outcome; null before the first (or without an API key). */
  sync: PoolSyncSchema.nullable(),
});
export type PoolSubaccount = z.infer<typeof PoolSubaccountSchema>;

export const PoolSubaccountListBodySchema = AreaListQuerySchema.extend({
  sort: sortOf(['id', 'pool', 'subaccount', 'coin', 'updated_at']),
});
export type PoolSubaccountListBody = z.infer<typeof PoolSubaccountListBodySchema>;

/**
 * Creates a pool subaccount, or updates the one named by `id`. Pool, subaccount, coin and the
 * observer address are written as sent (an empty address: none). A secret left empty keeps the
 * stored one; `clear_api_key` / `clear_api_secret` remove it. Setting and clearing one secret in
 * the same call is refused.
 */
export const PoolSubaccountSaveBodySchema = AreaScopeSchema.extend({
  id: z.preprocess((v) => (v === '' || v === null ? undefined : v), IdSchema.optional()),
  ...poolFields,
  observer_url: OptionalHttpUrlSchema,
  api_key: SecretSchema,
  api_secret: SecretSchema,
  clear_api_key: FlagSchema,
  clear_api_secret: FlagSchema,
}).superRefine((body, ctx) => {
  for (const name of ['api_key', 'api_secret'] as const) {
    if (body[name] && body[`clear_${name}`]) {
      ctx.addIssue({ code: 'custom', path: [name], message: rule('rule.setOrClear') });
    }
  }
});
export type PoolSubaccountSaveBody = z.infer<typeof PoolSubaccountSaveBodySchema>;

const Nothing = z.null();

/** Observer links (`fbox.pool`, legacy) and pool subaccounts (`admin/area/pool`, platform). */
export const poolEndpoints = {
  observerLinkList: endpoint({
    method: 'GET',
    path: '/index/fbox.pool/index',
    permission: 'user',
    query: ObserverLinkListQuerySchema,
    data: listOf(ObserverLinkSchema),
  }),
  observerLinkCreate: endpoint({
    method: 'POST',
    path: '/index/fbox.pool/create',
    permission: 'manage',
    body: ObserverLinkCreateBodySchema,
    data: ObserverLinkSchema,
    mutates: true,
    success: 'api.modified',
  }),
  observerLinkDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.pool/deleted',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
  poolSubaccountList: endpoint({
    method: 'POST',
    alsoGet: true,
    path: '/ff-plat-api/api/admin/area/pool/list',
    permission: 'user',
    body: PoolSubaccountListBodySchema,
    data: listOf(PoolSubaccountSchema),
  }),
  poolSubaccountSave: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/area/pool/save',
    permission: 'manage',
    body: PoolSubaccountSaveBodySchema,
    data: PoolSubaccountSchema,
    mutates: true,
    success: 'api.modified',
  }),
  poolSubaccountRemove: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/area/pool/remove',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
} as const;
