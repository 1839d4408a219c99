import { z } from 'zod';
import { limits } from './limits.js';
import { commandKinds, commandStatuses } from './mqtt.js';
import {
  IdSchema,
  intInRange,
  numeric,
  numericWithDefault,
  OnOffSchema,
  optionalNumeric,
  requiredText,
  rule,
} from './rules.js';

/**
 * Shared parts of the device API (FBOX, tank, miner, electricity, home): area scope, list sorting,
 * history series and commands. Units as stored (DESIGN §6): hashrate TH/s, power kW (miners W),
 * energy kWh, temperature °C, humidity %, voltage V, time UTC epoch ms. -999 means "no reading".
 */

/** Limits of the device API. */
export const deviceLimits = {
  /** Devices one batch action may name (a whole 10,000-miner site restarts in one call). */
  batchMax: 10_000,
  /** Buckets one history call may return. */
  historyMaxPoints: 3000,
} as const;

/** The latest instant JavaScript dates reach, ms: time inputs beyond it are typing slips. */
export const maxEpochMs = 8_640_000_000_000_000;

/** Every device call names the mine it acts in; the server checks the caller may see it. */
export const AreaScopeSchema = z.object({ area_id: IdSchema });
export type AreaScope = z.infer<typeof AreaScopeSchema>;

export const AreaIdBodySchema = AreaScopeSchema.extend({ id: IdSchema });
export type AreaIdBody = z.infer<typeof AreaIdBodySchema>;

/** `online` / `offline` of FBOXes, tanks and miners (spec §4). */
export const deviceStatuses = ['online', 'offline'] as const;
export const DeviceStatusSchema = z.enum(deviceStatuses, { error: rule('rule.invalid') });
export type DeviceStatus = z.infer<typeof DeviceStatusSchema>;

export const fboxKinds = ['air', 'immersion', 'hydro'] as const;
export const FboxKindSchema = z.enum(fboxKinds, { error: rule('rule.fboxKind') });
export type FboxKind = z.infer<typeof FboxKindSchema>;

/**
 * `sort` of a list: one whitelisted column, `-column` for descending. Ties are broken by id in the
 * same direction, so paging is deterministic.
 */
export const sortOf = <const F extends readonly [string, ...string[]]>(fields: F) =>
  z
    .enum([...fields, ...fields.map((f) => `-${f}`)] as [string, ...string[]], {
      error: rule('rule.sort'),
    })
    .optional() as z.ZodOptional<z.ZodType<F[number] | `-${F[number]}`, string>>;

/** A list request: paging of DESIGN §5 plus the area. */
export const AreaListQuerySchema = AreaScopeSchema.extend({
  page: numericWithDefault(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .min(1)
      .max(1_000_000),
    1,
  ),
  limit: intInRange(1, 500).default(20),
  keyword: z
    .string()
    .trim()
    .max(100, { error: rule('rule.tooLong', { max: 100 }) })
    .optional(),
});

/** An optional id filter: empty string (an unset form select) means "no filter". */
export const OptionalIdSchema = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  IdSchema.optional(),
);

/**
 * A list of ids from JSON (`[1,2]`), a form field (`"1,2"`, spaces around commas allowed) or
 * repeated fields; each id as `IdSchema`.
 */
export const IdListSchema = z.preprocess(
  (value) => {
    if (typeof value === 'string')
      return value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    if (typeof value === 'number') return [value];
    return value;
  },
  z
    .array(IdSchema, { error: rule('rule.invalid') })
    .min(1, { error: rule('rule.minItems') })
    .max(deviceLimits.batchMax, { error: rule('rule.maxItems', { max: deviceLimits.batchMax }) }),
);

// ── History series ──────────────────────────────────────────────────────────────────────────

/** Chart intervals of spec §9 in seconds: 30 s, 1, 2, 5, 15, 30 min, 1 h, 2 h. */
export const historyIntervals = [30, 60, 120, 300, 900, 1800, 3600, 7200] as const;
export const HistoryIntervalSchema = numeric(
  z
    .number({ error: rule('rule.interval') })
    .refine((s) => (historyIntervals as readonly number[]).includes(s), { error: rule('rule.interval') }),
);

/** `id`, `interval` (seconds), `from`/`to` (epoch ms); at most `historyMaxPoints` buckets. */
export const HistoryQuerySchema = AreaIdBodySchema.extend({
  interval: HistoryIntervalSchema,
  from: numeric(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .nonnegative()
      .max(maxEpochMs),
  ),
  to: numeric(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .positive()
      .max(maxEpochMs),
  ),
}).superRefine((q, ctx) => {
  if (q.to <= q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
  else if ((q.to - q.from) / (q.interval * 1000) > deviceLimits.historyMaxPoints)
    ctx.addIssue({
      code: 'custom',
      path: ['interval'],
      message: rule('rule.tooManyPoints', { max: deviceLimits.historyMaxPoints }),
    });
});
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

/** A metric's bucket value; null when the bucket holds no reading. */
const point = z.number().nullable();

/** Series of one device: `ts` is the start of each bucket (epoch ms, aligned to the interval). */
export const historyOf = <T extends z.ZodRawShape>(metrics: T) =>
  z.object({
    interval: z.number().int(),
    from: z.number(),
    to: z.number(),
    /** Which store answered: raw samples, 1-minute or 1-hour rollups. */
    source: z.enum(['raw', '1m', '1h']),
    points: z.array(z.object({ ts: z.number(), ...metrics })),
  });

export const FboxHistorySchema = historyOf({
  power_kw: point,
  temperature: point,
  humidity: point,
  hashrate: point,
  /** Energy used within the bucket, kWh (from the meters' accumulated reading). */
  energy_kwh: point,
});
export type FboxHistory = z.infer<typeof FboxHistorySchema>;

// ── Commands ────────────────────────────────────────────────────────────────────────────────

/**
 * The setting a command applies, so a screen can say "Mode: low" rather than "miner.mode": low/high
 * power mode, on/off (outlet, overclock, energy saving), auto/manual control. Never a secret.
 */
export const commandVariants = ['low', 'high', 'on', 'off', 'auto', 'manual'] as const;
export type CommandVariant = (typeof commandVariants)[number];

export const CommandSchema = z.object({
  id: z.string(),
  kind: z.enum(commandKinds),
  variant: z.enum(commandVariants).nullable(),
  status: z.enum(commandStatuses),
  error: z.string().nullable(),
  fbox_id: z.number().int(),
  miner_id: z.number().int().nullable(),
  tank_id: z.number().int().nullable(),
  batch_id: z.string().nullable(),
  created_at: z.number(),
  sent_at: z.number().nullable(),
  acked_at: z.number().nullable(),
});
export type Command = z.infer<typeof CommandSchema>;

/** The command a single-device action issued. */
export const CommandRefSchema = z.object({ command_id: z.string(), status: z.enum(commandStatuses) });
export type CommandRef = z.infer<typeof CommandRefSchema>;

/** `not_found`: the id is not a device of this mine; nothing was sent for it. */
export const outcomeStatuses = [...commandStatuses, 'not_found'] as const;

export const CommandStatusQuerySchema = AreaScopeSchema.partial().extend({
  ids: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter((s) => s.trim() !== '') : value),
    z
      .array(z.string().trim().min(1).max(64), { error: rule('rule.invalid') })
      .min(1, { error: rule('rule.minItems') })
      .max(500, { error: rule('rule.maxItems', { max: 500 }) }),
  ),
});
export const CommandBatchQuerySchema = AreaScopeSchema.partial().extend({
  batch_id: z
    .string()
    .trim()
    .min(1, { error: rule('rule.required') })
    .max(64),
});

// ── FBOX ────────────────────────────────────────────────────────────────────────────────────

/**
 * Reporting intervals the FBOX settings offer, seconds. A gateway takes any whole number of seconds
 * in the limits (the mine's FBOX configuration can set 12), so that is the rule, not this list.
 */
export const reportingIntervals = [5, 10, 15, 30, 60] as const;
export const ReportingIntervalSchema = intInRange(limits.reportingIntervalMin, limits.reportingIntervalMax);

const voltage = intInRange(limits.voltageReferenceMin, limits.voltageReferenceMax);
const optionalText = (max: number) =>
  z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(max, { error: rule('rule.tooLong', { max }) });
const MacSchema = z
  .string()
  .trim()
  .regex(/^$|^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/, { error: rule('rule.mac') });

export const FboxListQuerySchema = AreaListQuerySchema.extend({
  status: z.preprocess((v) => (v === '' ? undefined : v), DeviceStatusSchema.optional()),
  kind: z.preprocess((v) => (v === '' ? undefined : v), FboxKindSchema.optional()),
  sort: sortOf([
    'id',
    'name',
    'number',
    'kind',
    'status',
    'temperature',
    'humidity',
    'power',
    'hashrate',
    'miner_online',
    'miner_offline',
    'last_seen',
  ]),
});
export type FboxListQuery = z.infer<typeof FboxListQuerySchema>;

export const FboxListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  kind: FboxKindSchema,
  device_id: z.string(),
  status: DeviceStatusSchema,
  last_seen_at: z.number().nullable(),
  temperature: z.number(),
  humidity: z.number(),
  power_kw: z.number(),
  hashrate: z.number(),
  today_energy_kwh: z.number(),
  miner_online: z.number().int(),
  miner_offline: z.number().int(),
  tank_count: z.number().int(),
});
export type FboxListItem = z.infer<typeof FboxListItemSchema>;

export const FboxOptionSchema = z.object({ id: z.number().int(), name: z.string(), kind: FboxKindSchema });

export const CollectorSchema = z.object({
  no: z.number().int(),
  mac: z.string(),
  account: z.string(),
  /** The password is write-only: only whether one is stored. */
  password_set: z.boolean(),
});

export const MeterSchema = z.object({
  no: z.number().int(),
  meter_number: z.string(),
  sensor_ratio: z.number(),
  /** Accumulated energy since the last reset, kWh (-999 before the first reading). */
  energy_kwh: z.number(),
  /** Instant power, kW. */
  power_kw: z.number(),
  reset_at: z.number().nullable(),
});
export type Meter = z.infer<typeof MeterSchema>;

/** Alarm thresholds and reporting settings of a box (`fbox.boxlist/setting`). */
export const FboxThresholdsSchema = z.object({
  temperature_max: z.number(),
  humidity_max: z.number(),
});

/** One tank in `sub_box_list` of the FBOX detail (compatibility shape). */
export const SubBoxSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  no: z.number().int(),
  work_number: z.string(),
  status: DeviceStatusSchema,
  oil_in_temp: z.number(),
  oil_out_temp: z.number(),
  liquid_level: z.number(),
  /** Oil temperature probes, °C; -999 = no reading (shown as a dash). */
  main_temperatures: z.array(z.object({ num: z.number() })),
});

export const FboxDetailSchema = z.object({
  id: z.number().int(),
  area_id: z.number().int(),
  name: z.string(),
  number: z.string(),
  kind: FboxKindSchema,
  ip_range: z.string(),
  voltage_min: z.number(),
  voltage_max: z.number(),
  voltage_a: z.number(),
  voltage_b: z.number(),
  voltage_c: z.number(),
  temperature: z.number(),
  humidity: z.number(),
  collectors: z.array(CollectorSchema),
  meters: z.array(MeterSchema),
  public_ip: z.string(),
  device_id: z.string(),
  /** Only for masters and administrators; omitted for operators. */
  mqtt_username: z.string().optional(),
  mqtt_password: z.string().optional(),
  flow_rate: z.number(),
  valve_opening: z.number(),
  water_in_temp: z.number(),
  water_out_temp: z.number(),
  pumps: z.array(
    z.object({ no: z.number().int(), status: z.string(), speed: z.number(), percent: z.number().nullable() }),
  ),
  status: DeviceStatusSchema,
  last_seen_at: z.number().nullable(),
  reporting_interval_s: z.number().int(),
  thresholds: FboxThresholdsSchema,
  tank_count: z.number().int(),
  created_at: z.number(),
  // Compatibility fields of the deployed system (DESIGN §5): exact names and units.
  miner_online: z.number().int(),
  miner_offline: z.number().int(),
  /** Localized kind: "Exhaust Fan" / "Oil Immersion" / "Hydro Cooling". */
  fbox_type_name: z.string(),
  immersion_status: z.enum(['On', 'Off', 'Offline']),
  immersion_percent: z.number(),
  /** Container temperature, °C. */
  fbox_temp: z.number(),
  /** Hashrate, TH/s. */
  realtime_power: z.number(),
  /** Power, kW. */
  total_realtime_power: z.number(),
  /** Energy used today (UTC day), kWh. */
  today_use_power: z.number(),
  sub_box_list: z.array(SubBoxSchema),
});
export type FboxDetail = z.infer<typeof FboxDetailSchema>;

/** Editable fields of an FBOX, flat as the legacy form sends them. Collector passwords are write-only. */
const fboxFields = {
  number: optionalText(50).optional(),
  ip_range: optionalText(100).optional(),
  voltage_min: voltage.optional(),
  voltage_max: voltage.optional(),
  collector1_mac: MacSchema.optional(),
  collector1_account: optionalText(64).optional(),
  collector1_password: optionalText(128).optional(),
  collector2_mac: MacSchema.optional(),
  collector2_account: optionalText(64).optional(),
  collector2_password: optionalText(128).optional(),
  meter1_number: optionalText(64).optional(),
  meter1_ratio: optionalNumeric(
    z
      .number({ error: rule('rule.positive') })
      .positive({ error: rule('rule.positive') })
      .max(1e6, { error: rule('rule.positive') }),
  ),
  meter2_number: optionalText(64).optional(),
  meter2_ratio: optionalNumeric(
    z
      .number({ error: rule('rule.positive') })
      .positive({ error: rule('rule.positive') })
      .max(1e6, { error: rule('rule.positive') }),
  ),
};

const voltageOrder = (v: { voltage_min?: number; voltage_max?: number }, ctx: z.RefinementCtx) => {
  if (v.voltage_min !== undefined && v.voltage_max !== undefined && v.voltage_min > v.voltage_max)
    ctx.addIssue({ code: 'custom', path: ['voltage_min'], message: rule('rule.minNotAboveMax') });
};

export const FboxCreateBodySchema = AreaScopeSchema.extend({
  name: requiredText(50),
  kind: FboxKindSchema,
  ...fboxFields,
}).superRefine(voltageOrder);
export type FboxCreateBody = z.infer<typeof FboxCreateBodySchema>;

export const FboxEditBodySchema = AreaIdBodySchema.extend({
  name: requiredText(50).optional(),
  kind: FboxKindSchema.optional(),
  ...fboxFields,
}).superRefine(voltageOrder);
export type FboxEditBody = z.infer<typeof FboxEditBodySchema>;

export const FboxTransferBodySchema = AreaIdBodySchema.extend({ to_area_id: IdSchema });

export const FboxSettingBodySchema = AreaIdBodySchema.extend({
  voltage_min: voltage,
  voltage_max: voltage,
  temperature_max: intInRange(0, 100),
  humidity_max: intInRange(0, 100),
  reporting_interval: ReportingIntervalSchema,
}).superRefine(voltageOrder);
export type FboxSettingBody = z.infer<typeof FboxSettingBodySchema>;

export const MqttCredentialsSchema = z.object({ mqtt_username: z.string(), mqtt_password: z.string() });

// ── Electricity ─────────────────────────────────────────────────────────────────────────────

export const ElectricityFboxSchema = z.object({
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  status: DeviceStatusSchema,
  power_kw: z.number(),
  today_energy_kwh: z.number(),
  meters: z.array(MeterSchema),
});
export const ElectricityIndexSchema = z.object({
  items: z.array(ElectricityFboxSchema),
  total_power_kw: z.number(),
  total_today_energy_kwh: z.number(),
});
export const GetElectricityQuerySchema = AreaScopeSchema.extend({ fbox_id: IdSchema });
export const SetMeterBodySchema = AreaScopeSchema.extend({
  fbox_id: IdSchema,
  meter_no: numeric(
    z
      .number({ error: rule('rule.meterNo') })
      .refine((n) => n === 1 || n === 2, { error: rule('rule.meterNo') }),
  ),
  meter_number: optionalText(64).optional(),
  sensor_ratio: optionalNumeric(
    z
      .number({ error: rule('rule.positive') })
      .positive({ error: rule('rule.positive') })
      .max(1e6, { error: rule('rule.positive') }),
  ),
  reset: OnOffSchema.default('off'),
  /**
   * A reading of the meter's register (kWh, as the meter shows it) taken at `reading_at` (epoch ms),
   * entered where the gateway's readings are missing; it needs a reason (docs/statistics.md).
   */
  reading_kwh: optionalNumeric(
    z
      .number({ error: rule('rule.nonNegative') })
      .min(0, { error: rule('rule.nonNegative') })
      .max(1e12, { error: rule('rule.nonNegative') }),
  ),
  reading_at: optionalNumeric(
    z
      .number({ error: rule('rule.invalid') })
      .int({ error: rule('rule.invalid') })
      .min(0, { error: rule('rule.invalid') }),
  ),
  reason: optionalText(200).optional(),
}).superRefine((b, ctx) => {
  if (b.reading_kwh === undefined) return;
  if (b.reading_at === undefined)
    ctx.addIssue({ code: 'custom', path: ['reading_at'], message: rule('rule.required') });
  if (!b.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: rule('rule.required') });
  if (b.reset === 'on')
    ctx.addIssue({ code: 'custom', path: ['reading_kwh'], message: rule('rule.meterReadingWithReset') });
});
export type SetMeterBody = z.infer<typeof SetMeterBodySchema>;

/** A meter reading entered by a person (`set_meter_data` with `reading_kwh`), and what it moved. */
export const MeterCorrectionSchema = z.object({
  id: z.number().int(),
  fbox_id: z.number().int(),
  no: z.number().int(),
  reading_at: z.number(),
  reading_kwh: z.number(),
  reason: z.string(),
  user_name: z.string(),
  created_at: z.number(),
  /** Energy counted into the hour of the reading (kWh, sensor ratio applied). */
  energy_kwh: z.number(),
  /** The hour of the next reported reading, whose energy changed by `next_delta_kwh`; null if none. */
  next_hour_ts: z.number().nullable(),
  next_delta_kwh: z.number(),
});
export type MeterCorrection = z.infer<typeof MeterCorrectionSchema>;
export const MeterCorrectionsQuerySchema = AreaScopeSchema.extend({ fbox_id: IdSchema });

export const SetMeterDataSchema = z.object({
  meter: MeterSchema,
  /** The `meter.reset` command when a reset was asked for. */
  command: CommandRefSchema.nullable(),
  /** The entered reading, when one was. */
  correction: MeterCorrectionSchema.nullable(),
});

// ── Home (fbox.total/getappindex) ───────────────────────────────────────────────────────────

const onlineOffline = z.object({ online: z.number().int(), offline: z.number().int() });
export const AppIndexSchema = z.object({
  fbox: onlineOffline,
  tank: onlineOffline,
  miner: onlineOffline,
  hashrate: z.number(),
  power_kw: z.number(),
  today_energy_kwh: z.number(),
  /** Last 24 h in `bucket_ms` buckets, summed over the area's FBOXes. */
  series: z.object({
    bucket_ms: z.number().int(),
    points: z.array(z.object({ ts: z.number(), hashrate: point, power_kw: point })),
  }),
});
export type AppIndex = z.infer<typeof AppIndexSchema>;

export const IngestStatsSchema = z.record(z.string(), z.unknown());

// ── Live WebSocket (/ws?area_id=N) ──────────────────────────────────────────────────────────

/** Messages the server pushes; the web invalidates its caches on them. */
export const LiveMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), areaId: z.number().int() }),
  z.object({ type: z.literal('telemetry'), fboxIds: z.array(z.number().int()) }),
  z.object({ type: z.literal('status'), fboxId: z.number().int(), online: z.boolean() }),
  z.object({
    type: z.literal('command'),
    commandId: z.string(),
    status: z.enum(commandStatuses),
    minerId: z.number().int().nullable(),
    tankId: z.number().int().nullable(),
  }),
  /** An alert opened or closed (the alarm lists refetch). */
  z.object({
    type: z.literal('alert'),
    alertId: z.number().int(),
    level: z.number().int(),
    open: z.boolean(),
  }),
  /** The user's inbox changed (sent only to the users it concerns): badge and Messages refetch. */
  z.object({ type: z.literal('inbox') }),
]);
export type LiveMessage = z.infer<typeof LiveMessageSchema>;
