import { z } from 'zod';
import {
  AreaIdBodySchema,
  AreaListQuerySchema,
  AreaScopeSchema,
  OptionalIdSchema,
  sortOf,
} from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import {
  flagFromInput,
  IdSchema,
  intInRange,
  numeric,
  numericWithDefault,
  optionalNumeric,
  rule,
} from './rules.js';
import { ExportFormatSchema } from './tasks.js';
import { alertLevels } from './user.js';

/** What an alert rule watches (issue 13): the FBOX container, a tank, or a miner. */
export const alertTargets = ['fbox', 'tank', 'miner'] as const;
export type AlertTarget = (typeof alertTargets)[number];

/** A severity of `alertLevels` (1 critical, 2 major, 3 minor; labels `alertLevel.<n>`). */
export type AlertLevel = (typeof alertLevels)[number];

/**
 * How a metric's condition reads: a value `above` or `below` the threshold, any value `outside`
 * [threshold, threshold_max], or a `state` that holds or not (no threshold, no hysteresis).
 */
export type AlertComparison = 'above' | 'below' | 'outside' | 'state';

interface AlertMetricInfo {
  target: AlertTarget;
  comparison: AlertComparison;
  /** The range a threshold may take (in the metric's unit); none for a state. */
  range?: { min: number; max: number };
}

/**
 * Every metric a rule can watch, with its target, how its condition reads and its threshold range.
 * Units: °C for temperatures, % for humidity, liquid level and hashrate (realtime as a percent of
 * theoretical), V for voltage (each phase), m³/h for flow. docs/alerts.md ("Metrics") says exactly
 * when each state holds.
 */
export const alertMetrics = {
  fbox_temp_high: { target: 'fbox', comparison: 'above', range: { min: 0, max: 100 } },
  fbox_humidity_high: { target: 'fbox', comparison: 'above', range: { min: 0, max: 100 } },
  fbox_voltage_out_of_range: { target: 'fbox', comparison: 'outside', range: { min: 0, max: 1000 } },
  fbox_offline: { target: 'fbox', comparison: 'state' },
  oil_out_temp_high: { target: 'tank', comparison: 'above', range: { min: 0, max: 150 } },
  oil_in_temp_high: { target: 'tank', comparison: 'above', range: { min: 0, max: 150 } },
  liquid_level_low: { target: 'tank', comparison: 'below', range: { min: 0, max: 100 } },
  short_circuit: { target: 'tank', comparison: 'state' },
  chip_temp_high: { target: 'miner', comparison: 'above', range: { min: 0, max: 150 } },
  hashrate_low_pct: { target: 'miner', comparison: 'below', range: { min: 1, max: 100 } },
  miner_offline: { target: 'miner', comparison: 'state' },
  miner_fault: { target: 'miner', comparison: 'state' },
  /** A power meter (position 1 or 2) absent from a box that reports meters, or reading -999. */
  meter_missing: { target: 'fbox', comparison: 'state' },
  /** Hydro loop flow, m³/h. */
  flow_low: { target: 'fbox', comparison: 'below', range: { min: 0, max: 10_000 } },
  /** A water pump switched on whose drive reports speed 0. */
  pump_fault: { target: 'fbox', comparison: 'state' },
  /** Auto mode, yet the oil pump's drive reports 0. */
  tank_pump_fault: { target: 'tank', comparison: 'state' },
  /** Auto mode, yet a fan's drive reports 0. */
  fan_fault: { target: 'tank', comparison: 'state' },
  /** The miner reports a pool or worker other than the one the cloud configured for it. */
  pool_hijacked: { target: 'miner', comparison: 'state' },
} as const satisfies Record<string, AlertMetricInfo>;

export type AlertMetric = keyof typeof alertMetrics;
export const alertMetricNames = Object.keys(alertMetrics) as [AlertMetric, ...AlertMetric[]];

/** The metrics decided by offline detection (and telemetry), not by a reading. */
export const offlineMetrics = ['fbox_offline', 'miner_offline'] as const satisfies readonly AlertMetric[];

export const alertRuleLimits = {
  /** How long a condition must hold before it fires: up to a day. */
  sustainMaxSeconds: 86_400,
  /** The recovery margin, in the metric's unit. */
  hysteresisMax: 50,
  /** Rules one mine may hold: each is evaluated on every message of its target. */
  perMineMax: 100,
  /** The longest silence: a week, in minutes. */
  silenceMaxMinutes: 7 * 24 * 60,
} as const;

export const AlertMetricSchema = z.enum(alertMetricNames, { error: rule('rule.alertMetric') });

export const AlertLevelSchema = numeric(
  z.union(
    alertLevels.map((level) => z.literal(level)) as [
      z.ZodLiteral<AlertLevel>,
      z.ZodLiteral<AlertLevel>,
      z.ZodLiteral<AlertLevel>,
    ],
    { error: rule('rule.alertLevel') },
  ),
);

/** Thresholds of every metric lie well within this; beyond it a value is a typing slip. */
const thresholdLimit = 1_000_000;

/** A threshold; null (as a rule read back carries it) counts as not given. */
const thresholdNumber = z
  .number({ error: rule('rule.number') })
  .min(-thresholdLimit, { error: rule('rule.range', { min: -thresholdLimit, max: thresholdLimit }) })
  .max(thresholdLimit, { error: rule('rule.range', { min: -thresholdLimit, max: thresholdLimit }) })
  .nullable();

/** The fields of a rule as a user sets them, before the checks that read several at once. */
const alertRuleFieldShape = {
  metric: AlertMetricSchema,
  level: AlertLevelSchema,
  threshold: optionalNumeric(thresholdNumber),
  threshold_max: optionalNumeric(thresholdNumber),
  sustain_seconds: intInRange(0, alertRuleLimits.sustainMaxSeconds),
  hysteresis: numericWithDefault(
    z
      .number({ error: rule('rule.range', { min: 0, max: alertRuleLimits.hysteresisMax }) })
      .min(0, { error: rule('rule.range', { min: 0, max: alertRuleLimits.hysteresisMax }) })
      .max(alertRuleLimits.hysteresisMax, {
        error: rule('rule.range', { min: 0, max: alertRuleLimits.hysteresisMax }),
      }),
    0,
  ),
  enabled: z.preprocess(flagFromInput, z.boolean({ error: rule('rule.invalid') })).default(true),
};

type RuleFieldsIn = {
  metric: AlertMetric;
  threshold?: number | null | undefined;
  threshold_max?: number | null | undefined;
  hysteresis: number;
};

/**
 * The checks across a rule's fields: the threshold is required and within its metric's range for
 * a value metric; `threshold_max` only for a range (voltage: min below max); a state metric takes
 * neither, and its hysteresis is 0.
 */
const withRuleChecks = <S extends z.ZodType<RuleFieldsIn>>(schema: S) =>
  schema
    .superRefine((fields, ctx) => {
      const info: AlertMetricInfo = alertMetrics[fields.metric];
      if (!info.range) return;
      const { min, max } = info.range;
      const check = (path: 'threshold' | 'threshold_max', value: number | null | undefined) => {
        if (value == null) ctx.addIssue({ code: 'custom', path: [path], message: rule('rule.required') });
        else if (value < min || value > max)
          ctx.addIssue({ code: 'custom', path: [path], message: rule('rule.range', { min, max }) });
      };
      check('threshold', fields.threshold);
      if (info.comparison !== 'outside') return;
      check('threshold_max', fields.threshold_max);
      if (
        fields.threshold != null &&
        fields.threshold_max != null &&
        fields.threshold >= fields.threshold_max
      ) {
        ctx.addIssue({ code: 'custom', path: ['threshold_max'], message: rule('rule.voltageMinBelowMax') });
      }
    })
    .transform((fields) => {
      const { comparison } = alertMetrics[fields.metric] as AlertMetricInfo;
      return {
        ...fields,
        threshold: comparison === 'state' ? null : (fields.threshold ?? null),
        threshold_max: comparison === 'outside' ? (fields.threshold_max ?? null) : null,
        hysteresis: comparison === 'state' ? 0 : fields.hysteresis,
      };
    });

/** A rule as a user sets it. */
export const AlertRuleFieldsSchema = withRuleChecks(z.object(alertRuleFieldShape));
export type AlertRuleFields = z.output<typeof AlertRuleFieldsSchema>;

/** A rule of a mine, as stored and listed. */
export const AlertRuleSchema = z.object({
  id: IdSchema,
  area_id: IdSchema,
  metric: AlertMetricSchema,
  level: AlertLevelSchema,
  /** Value metrics: the threshold (a range's minimum); null for a state. */
  threshold: z.number().nullable(),
  /** A range's maximum (voltage); null otherwise. */
  threshold_max: z.number().nullable(),
  sustain_seconds: z.number().int(),
  hysteresis: z.number(),
  enabled: z.boolean(),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;

/** The rules of a mine, all or those of one target (the Tank and Machine Alert Rules screens). */
export const AlertRuleListQuerySchema = AreaScopeSchema.extend({
  target: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(alertTargets, { error: rule('rule.invalid') }).optional(),
  ),
});
export type AlertRuleListQuery = z.infer<typeof AlertRuleListQuerySchema>;

/** Adds a rule to a mine, or (with `id`) changes one of its rules. */
export const AlertRuleSaveBodySchema = withRuleChecks(
  AreaScopeSchema.extend({ id: OptionalIdSchema, ...alertRuleFieldShape }),
);
export type AlertRuleSaveBody = z.output<typeof AlertRuleSaveBodySchema>;

/**
 * The rules a new mine starts with. Thresholds follow the console's own defaults (container 45 °C,
 * the spec's 342–418 V reference); sustain times keep a single odd reading from raising an alert.
 */
export const defaultAlertRules: readonly Omit<AlertRule, 'id' | 'area_id'>[] = [
  {
    metric: 'fbox_temp_high',
    level: 2,
    threshold: 45,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 2,
    enabled: true,
  },
  {
    metric: 'fbox_humidity_high',
    level: 3,
    threshold: 85,
    threshold_max: null,
    sustain_seconds: 300,
    hysteresis: 5,
    enabled: true,
  },
  {
    metric: 'fbox_voltage_out_of_range',
    level: 2,
    threshold: 342,
    threshold_max: 418,
    sustain_seconds: 30,
    hysteresis: 5,
    enabled: true,
  },
  {
    metric: 'fbox_offline',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 120,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'oil_out_temp_high',
    level: 1,
    threshold: 55,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 2,
    enabled: true,
  },
  {
    metric: 'oil_in_temp_high',
    level: 2,
    threshold: 50,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 2,
    enabled: true,
  },
  {
    metric: 'liquid_level_low',
    level: 3,
    threshold: 80,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 2,
    enabled: true,
  },
  {
    metric: 'short_circuit',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 0,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'chip_temp_high',
    level: 2,
    threshold: 90,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 3,
    enabled: true,
  },
  {
    metric: 'hashrate_low_pct',
    level: 3,
    threshold: 80,
    threshold_max: null,
    sustain_seconds: 600,
    hysteresis: 5,
    enabled: true,
  },
  {
    metric: 'miner_offline',
    level: 2,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 300,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'miner_fault',
    level: 3,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'meter_missing',
    level: 3,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 0,
    enabled: true,
  },
  {
    // Loop flow has all but stopped (a closed valve, a dead pump); sites raise it to their design.
    metric: 'flow_low',
    level: 2,
    threshold: 2,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 0.5,
    enabled: true,
  },
  {
    metric: 'pump_fault',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 30,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'tank_pump_fault',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 30,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'fan_fault',
    level: 2,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 0,
    enabled: true,
  },
  {
    metric: 'pool_hijacked',
    level: 1,
    threshold: null,
    threshold_max: null,
    sustain_seconds: 60,
    hysteresis: 0,
    enabled: true,
  },
];

// ── Alert lists: realtime (open) and history (closed) ───────────────────────────────────────

/** Columns the alert lists sort by. */
export const alertSortFields = [
  'started_at',
  'ended_at',
  'level',
  'metric',
  'device_name',
  'fbox_name',
  'value',
  'peak_value',
] as const;

const optionalEnum = <T extends readonly [string, ...string[]]>(
  values: T,
  error: 'rule.invalid' | 'rule.alertMetric',
) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(values, { error: rule(error) }).optional(),
  );

/**
 * The filters of both alert lists: level, target kind, metric, FBOX, and `keyword` on the device's
 * name; newest first unless `sort` says otherwise.
 */
export const AlertListQuerySchema = AreaListQuerySchema.extend({
  level: z.preprocess((v) => (v === '' || v === null ? undefined : v), AlertLevelSchema.optional()),
  target: optionalEnum(alertTargets, 'rule.invalid'),
  metric: optionalEnum(alertMetricNames, 'rule.alertMetric'),
  fbox_id: OptionalIdSchema,
  sort: sortOf(alertSortFields),
});
export type AlertListQuery = z.infer<typeof AlertListQuerySchema>;

/** History adds when the alert started: from (inclusive) and to (exclusive), epoch ms. */
const startedRange = {
  from: optionalNumeric(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .min(0),
  ),
  to: optionalNumeric(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .min(0),
  ),
};
const rangeInOrder = (q: { from?: number | undefined; to?: number | undefined }) =>
  q.from === undefined || q.to === undefined || q.from < q.to;

export const AlertHistoryQuerySchema = AlertListQuerySchema.extend(startedRange).refine(rangeInOrder, {
  path: ['to'],
  error: rule('rule.timeOrder'),
});
export type AlertHistoryQuery = z.infer<typeof AlertHistoryQuerySchema>;

/** The history as a file: the list's filters and order, every page, CSV or XLSX. */
export const AlertHistoryExportQuerySchema = AlertListQuerySchema.extend({
  ...startedRange,
  format: ExportFormatSchema,
}).refine(rangeInOrder, { path: ['to'], error: rule('rule.timeOrder') });
export type AlertHistoryExportQuery = z.infer<typeof AlertHistoryExportQuerySchema>;

/**
 * Why an alert ended: its condition cleared, or it was closed because its rule was changed or
 * turned off, the rule was deleted, or the device was removed from the mine.
 */
export const alertEndReasons = ['recovered', 'rule_changed', 'rule_deleted', 'device_removed'] as const;
export type AlertEndReason = (typeof alertEndReasons)[number];

/** One alert as the lists show it: what, where, how bad, since when (and until when, in history). */
export const AlertItemSchema = z.object({
  id: z.number().int(),
  rule_id: z.number().int(),
  metric: AlertMetricSchema,
  level: z.number().int(),
  target: z.enum(alertTargets),
  device_id: z.number().int(),
  device_name: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  /** The reading that opened it; null for a state metric. */
  value: z.number().nullable(),
  peak_value: z.number().nullable(),
  /** What a state metric reported (a miner's fault code); '' otherwise. */
  detail: z.string(),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  end_reason: z.enum(alertEndReasons).nullable(),
  acked_at: z.number().nullable(),
  /** Who acknowledged it (their user name), when someone did. */
  acked_by: z.string().nullable(),
  ack_note: z.string().nullable(),
  /** Until when the rule is silenced on this device (no notifications go out); null when not. */
  silenced_until: z.number().nullable(),
});
export type AlertItem = z.infer<typeof AlertItemSchema>;

export const alertNoteMax = 200;

/** Acknowledging an alert: who and when come from the session, with an optional note. */
export const AlertAckBodySchema = AreaIdBodySchema.extend({
  note: z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(alertNoteMax, { error: rule('rule.tooLong', { max: alertNoteMax }) })
    .optional(),
});
export type AlertAckBody = z.infer<typeof AlertAckBodySchema>;

/**
 * Silences the rule of an alert on its device for `minutes` (the alert stays on the lists; no
 * notification goes out for it until then); 0 lifts a silence.
 */
export const AlertSilenceBodySchema = AreaIdBodySchema.extend({
  minutes: intInRange(0, alertRuleLimits.silenceMaxMinutes),
  note: z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(alertNoteMax, { error: rule('rule.tooLong', { max: alertNoteMax }) })
    .optional(),
});
export type AlertSilenceBody = z.infer<typeof AlertSilenceBodySchema>;

export const alarmEndpoints = {
  /** Open alerts of the mine (spec §7 `fbox.warnning/index`). */
  alarmCurrent: endpoint({
    method: 'GET',
    path: '/index/fbox.warnning/index',
    permission: 'user',
    query: AlertListQuerySchema,
    data: listOf(AlertItemSchema),
  }),
  /** Closed alerts of the mine (spec §7 `fbox.history/index`). */
  alarmHistory: endpoint({
    method: 'GET',
    path: '/index/fbox.history/index',
    permission: 'user',
    query: AlertHistoryQuerySchema,
    data: listOf(AlertItemSchema),
  }),
  /** Closed alerts of the mine as CSV or XLSX, with the list's filters and order. */
  alarmHistoryExport: endpoint({
    method: 'GET',
    path: '/index/fbox.history/export',
    permission: 'user',
    query: AlertHistoryExportQuerySchema,
    data: z.string(),
    download: true,
  }),
  /** Acknowledges an alert of the mine (once: a second acknowledgement keeps the first). */
  alarmAck: endpoint({
    method: 'POST',
    path: '/index/fbox.warnning/ack',
    permission: 'user',
    body: AlertAckBodySchema,
    data: AlertItemSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** Silences an alert's rule on its device for a while, or lifts the silence (`minutes` 0). */
  alarmSilence: endpoint({
    method: 'POST',
    path: '/index/fbox.warnning/silence',
    permission: 'operate:alertRules',
    body: AlertSilenceBodySchema,
    data: AlertItemSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** The alert rules of a mine (spec §7 `fbox.oillist/get_alert_setting`). */
  alertRuleList: endpoint({
    method: 'GET',
    path: '/index/fbox.oillist/get_alert_setting',
    permission: 'user',
    query: AlertRuleListQuerySchema,
    data: z.array(AlertRuleSchema),
  }),
  /**
   * Adds or changes a rule. (Spec §7's `oil_setting` is the tank's energy-saving command here, so
   * the rule write pairs with `get_alert_setting` under its own name.) Turning a rule off or
   * changing what it watches closes its open alerts.
   */
  alertRuleSave: endpoint({
    method: 'POST',
    path: '/index/fbox.oillist/set_alert_setting',
    permission: 'operate:alertRules',
    body: AlertRuleSaveBodySchema,
    data: AlertRuleSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** Deletes a rule; its open alerts close, its history stays. */
  alertRuleDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.oillist/del_alert_setting',
    permission: 'operate:alertRules',
    body: AreaIdBodySchema,
    data: z.null(),
    mutates: true,
    success: 'api.modified',
  }),
};
