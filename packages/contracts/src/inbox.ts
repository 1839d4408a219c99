import { z } from 'zod';
import { type AlertLevel, type AlertMetric, type AlertTarget, alertMetrics, alertTargets } from './alarm.js';
import { OptionalIdSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import type { SharedMessageKey } from './messages-en.js';
import { type CommandKind, commandKinds } from './mqtt.js';
import { IdSchema, pageFields, rule } from './rules.js';
import { alertLevels } from './user.js';

/**
 * The user's inbox (issue 13 item 4, catalogue screen Messages and the top bar's badge): alert
 * transitions of the mines the user sees, and system messages addressed to the user (a command they
 * sent failed, an export finished). Each message stores its kind and parameters, so the web renders
 * it in the reader's current language (`inbox.text.<kind>` with the parameters); the stored title and
 * content are an English fallback for other readers (scripts, older clients).
 */
export const inboxKinds = ['alert_fired', 'alert_recovered', 'command_failed', 'system'] as const;
export const InboxKindSchema = z.enum(inboxKinds, { error: rule('rule.invalid') });
export type InboxKind = (typeof inboxKinds)[number];

/** Which messages a list shows: unread only, read only, or all (unset). */
export const inboxReadStates = ['unread', 'read'] as const;

/**
 * A message's parameters: names to short values (metric, level, device and FBOX names, a reading, a
 * command kind, a count). A `system` message names its text by `key` (a shared message key).
 */
export const InboxParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type InboxParams = z.infer<typeof InboxParamsSchema>;

const emptyAsUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * The list of the caller's messages, newest first: `area_id` is the top bar's mine (its messages
 * and the ones of no mine, as the badge counts them); `state` and `kind` filter.
 */
export const InboxListQuerySchema = z.object({
  area_id: OptionalIdSchema,
  state: z.preprocess(emptyAsUndefined, z.enum(inboxReadStates, { error: rule('rule.invalid') }).optional()),
  kind: z.preprocess(emptyAsUndefined, InboxKindSchema.optional()),
  ...pageFields,
});
export type InboxListQuery = z.infer<typeof InboxListQuerySchema>;

/** One message as the inbox shows it. Times are UTC epoch ms. */
export const InboxMessageSchema = z.object({
  id: z.number().int(),
  kind: InboxKindSchema,
  /** 1 critical, 2 major, 3 minor (alert levels); system messages use 3 unless they say otherwise. */
  level: z.number().int(),
  /** The mine it is about; null for a message about no mine. */
  area_id: z.number().int().nullable(),
  area_name: z.string().nullable(),
  /** The alert of an alert transition. */
  alert_id: z.number().int().nullable(),
  /** Whether that alert is still open (the link goes to realtime alerts, else to history). */
  alert_open: z.boolean().nullable(),
  params: InboxParamsSchema,
  /** English fallback texts. */
  title: z.string(),
  content: z.string(),
  created_at: z.number(),
  read_at: z.number().nullable(),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

/** Marks every unread message of the caller read; with `area_id`, that mine's (and no mine's) only. */
export const InboxReadAllBodySchema = z.object({ area_id: OptionalIdSchema });
export type InboxReadAllBody = z.infer<typeof InboxReadAllBodySchema>;

export const InboxReadAllDataSchema = z.object({ updated: z.number().int() });

export const inboxEndpoints = {
  /** The caller's messages, paged, newest first. */
  inboxList: endpoint({
    method: 'GET',
    path: '/index/fbox.message/index',
    permission: 'user',
    query: InboxListQuerySchema,
    data: listOf(InboxMessageSchema),
  }),
  /** Marks one of the caller's messages read (a second time keeps the first time). */
  inboxRead: endpoint({
    method: 'POST',
    path: '/index/fbox.message/read',
    permission: 'user',
    body: z.object({ id: IdSchema }),
    data: InboxMessageSchema,
    mutates: true,
  }),
  /** Marks the caller's unread messages read; answers how many. */
  inboxReadAll: endpoint({
    method: 'POST',
    path: '/index/fbox.message/readAll',
    permission: 'user',
    body: InboxReadAllBodySchema,
    data: InboxReadAllDataSchema,
    mutates: true,
  }),
};

// ── Rendering: one text for the web (reader's language) and the stored fallback (English) ──────

/** A translator of shared keys (the web's `t`, or the server's `translate` bound to a language). */
export type InboxTranslate = (key: SharedMessageKey, params?: Record<string, string | number>) => string;

/** The unit a metric's readings are in (°C unless said otherwise). */
export const alertMetricUnit = (metric: AlertMetric): string => {
  if (metric === 'fbox_voltage_out_of_range') return 'V';
  if (metric === 'fbox_humidity_high' || metric === 'liquid_level_low' || metric === 'hashrate_low_pct')
    return '%';
  return '°C';
};

const text = (params: InboxParams, name: string): string => {
  const value = params[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};
const number = (params: InboxParams, name: string): number | null => {
  const value = params[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};
const isMetric = (value: string): value is AlertMetric => value in alertMetrics;
const isCommandKind = (value: string): value is CommandKind =>
  (commandKinds as readonly string[]).includes(value);
const isLevel = (value: number): value is AlertLevel => (alertLevels as readonly number[]).includes(value);

/**
 * A message's title and content in the language of `tr`, from its kind and parameters; the stored
 * fallback texts when the parameters name nothing this version knows (a newer kind or metric).
 */
export const inboxText = (
  message: Pick<InboxMessage, 'kind' | 'level' | 'params' | 'title' | 'content'>,
  tr: InboxTranslate,
): { title: string; content: string } => {
  const p = message.params;
  const fallback = { title: message.title, content: message.content };
  const where = { fbox: text(p, 'fbox'), mine: text(p, 'mine') };
  if (message.kind === 'alert_fired' || message.kind === 'alert_recovered') {
    const metric = text(p, 'metric');
    const target = text(p, 'target');
    if (!isMetric(metric) || !(alertTargets as readonly string[]).includes(target)) return fallback;
    const reading = (value: number | null) =>
      value === null ? '' : `${Math.round(value * 10) / 10} ${alertMetricUnit(metric)}`;
    const level = isLevel(message.level) ? tr(`alertLevel.${message.level}`) : String(message.level);
    const args = {
      metric: tr(`alertMetric.${metric}`),
      level,
      target: tr(`alertTarget.${target as AlertTarget}`),
      device: text(p, 'device'),
      ...where,
    };
    const value = reading(number(p, message.kind === 'alert_fired' ? 'value' : 'peak'));
    const detail = text(p, 'detail');
    // An FBOX's own alert names the box once.
    const parts = [tr(target === 'fbox' ? 'inbox.content.fboxIn' : 'inbox.content.device', args)];
    if (value)
      parts.push(
        tr(message.kind === 'alert_fired' ? 'inbox.content.value' : 'inbox.content.peak', { value }),
      );
    if (detail) parts.push(tr('inbox.content.detail', { detail }));
    return { title: tr(`inbox.title.${message.kind}`, args), content: parts.join(tr('inbox.separator')) };
  }
  if (message.kind === 'command_failed') {
    const kind = text(p, 'command');
    if (!isCommandKind(kind)) return fallback;
    const count = number(p, 'count') ?? 1;
    const command = tr(`inbox.command.${kind}`);
    const device = text(p, 'device');
    const reason =
      text(p, 'status') === 'timed_out'
        ? tr('inbox.content.timedOut')
        : text(p, 'error') || tr('inbox.content.failed');
    const title =
      count > 1
        ? tr('inbox.title.command_failed_many', { command, count })
        : tr('inbox.title.command_failed', { command });
    const place = device
      ? tr('inbox.content.deviceIn', { device, ...where })
      : tr('inbox.content.fboxIn', where);
    return { title, content: `${place}${tr('inbox.separator')}${reason}` };
  }
  // A system message names its texts by shared key (`inbox.…`, typed where it is written).
  const titleKey = text(p, 'title_key');
  const contentKey = text(p, 'content_key');
  if (!titleKey.startsWith('inbox.')) return fallback;
  const args = Object.fromEntries(
    Object.entries(p).filter((entry): entry is [string, string | number] => entry[1] !== null),
  );
  const title = tr(titleKey as SharedMessageKey, args);
  const content = contentKey.startsWith('inbox.') ? tr(contentKey as SharedMessageKey, args) : '';
  return {
    title: title && title !== titleKey ? title : message.title,
    content: content && content !== contentKey ? content : message.content,
  };
};
