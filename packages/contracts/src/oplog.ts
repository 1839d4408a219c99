import { z } from 'zod';
import { maxEpochMs, OptionalIdSchema } from './devices.js';
import { type Endpoint, endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { numeric, pageFields, rule } from './rules.js';

/**
 * The operation log (Operation Log screen): every state-changing call — each endpoint marked
 * `mutates`, plus login and logout — is recorded with who, when, from where, which mine, what and
 * the outcome. The API only reads it: no endpoint edits or deletes a record.
 */

/** Session calls recorded although they change no configuration. */
export const sessionActions = ['login', 'logout'] as const;

/** Whether calls of an endpoint are recorded in the operation log. */
export const isRecordedEndpoint = (name: string, e: Pick<Endpoint, 'mutates'>): boolean =>
  e.mutates === true || (sessionActions as readonly string[]).includes(name);

/** The label key of an action (the endpoint's name), e.g. `oplog.action.fboxCreate`. */
export const actionLabelKey = (action: string): string => `oplog.action.${action}`;

export const oplogOutcomes = ['success', 'failed'] as const;
export const OplogOutcomeSchema = z.enum(oplogOutcomes, { error: rule('rule.invalid') });

const epochMs = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .nonnegative({ error: rule('rule.invalid') })
    .max(maxEpochMs, { error: rule('rule.invalid') }),
);

const emptyAsUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Filters of the log: user, action (endpoint name), mine, outcome and a time range [from, to). */
const filterFields = {
  user_id: OptionalIdSchema,
  action: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\w{1,64}$/, { error: rule('rule.invalid') })
      .optional(),
  ),
  mine_id: OptionalIdSchema,
  outcome: z.preprocess(emptyAsUndefined, OplogOutcomeSchema.optional()),
  from: z.preprocess(emptyAsUndefined, epochMs.optional()),
  to: z.preprocess(emptyAsUndefined, epochMs.optional()),
};

const timeOrder = (q: { from?: number | undefined; to?: number | undefined }, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && q.to <= q.from)
    ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
};

export const OplogExportQuerySchema = z.object(filterFields).superRefine(timeOrder);
export type OplogExportQuery = z.infer<typeof OplogExportQuerySchema>;

export const OplogListQuerySchema = z
  .object({
    ...filterFields,
    ...pageFields,
  })
  .superRefine(timeOrder);
export type OplogListQuery = z.infer<typeof OplogListQuerySchema>;

/** One recorded call. `params` is the request's input with every secret replaced by `***`. */
export const OplogEntrySchema = z.object({
  id: z.number().int(),
  /** UTC epoch ms. */
  at: z.number(),
  /** null for a failed login of an unknown user name. */
  user_id: z.number().int().nullable(),
  username: z.string(),
  ip: z.string().nullable(),
  /** The mine the call acted in, when it named one the caller may see. */
  area_id: z.number().int().nullable(),
  area_name: z.string().nullable(),
  /** The endpoint's name (`fboxCreate`); labels are `oplog.action.<name>`. */
  action: z.string(),
  path: z.string(),
  /** What the call named: ids and/or a name from its input ('' when none). */
  target: z.string(),
  params: z.unknown(),
  outcome: OplogOutcomeSchema,
  /** The envelope code the caller got (1 = success). */
  code: z.number().int(),
  /** The envelope message, localized. */
  message: z.string(),
});
export type OplogEntry = z.infer<typeof OplogEntrySchema>;

export const OplogUserSchema = z.object({ id: z.number().int().nullable(), username: z.string() });
export type OplogUser = z.infer<typeof OplogUserSchema>;

/** The operation log: every state-changing call, read-only. */
export const oplogEndpoints = {
  oplogList: endpoint({
    method: 'GET',
    path: '/index/fbox.oplog/index',
    permission: 'user',
    query: OplogListQuerySchema,
    data: listOf(OplogEntrySchema),
  }),
  oplogUsers: endpoint({
    method: 'GET',
    path: '/index/fbox.oplog/users',
    permission: 'user',
    data: z.array(OplogUserSchema),
  }),
  oplogExport: endpoint({
    method: 'GET',
    path: '/index/fbox.oplog/export',
    permission: 'user',
    query: OplogExportQuerySchema,
    data: z.string(),
    download: true,
  }),
} as const;
