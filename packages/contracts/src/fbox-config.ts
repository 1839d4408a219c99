import { z } from 'zod';
import { AreaIdBodySchema, AreaScopeSchema, CommandSchema, DeviceStatusSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { limits } from './limits.js';
import { commandStatuses } from './mqtt.js';
import { intInRange, rule } from './rules.js';

/**
 * FBOX configuration: per-mine defaults (`admin/area/config`), one FBOX's effective configuration
 * (its own values, else the mine's defaults, else built-ins), and the account switches' effects
 * (the overclock policy sent to the account's miners).
 */
export const fboxConfigLimits = {
  temperatureMin: 0,
  temperatureMax: 100,
  humidityMin: 0,
  humidityMax: 100,
  /** Reporting interval: a bounded range rather than the chart interval options of spec §9. */
  reportingIntervalMin: limits.reportingIntervalMin,
  reportingIntervalMax: limits.reportingIntervalMax,
} as const;

/** The fields of an FBOX configuration, in form order. */
export const fboxConfigFields = [
  'voltage_min',
  'voltage_max',
  'temperature_max',
  'humidity_max',
  'delay_switch_value',
  'reporting_interval',
] as const;
export type FboxConfigField = (typeof fboxConfigFields)[number];

/** Values every FBOX has when neither it nor its mine sets one. */
export const builtinFboxConfig = {
  voltage_min: limits.voltageReferenceMin,
  voltage_max: limits.voltageReferenceMax,
  temperature_max: 45,
  humidity_max: 85,
  delay_switch_value: 0,
  reporting_interval: 30,
} as const satisfies Record<FboxConfigField, number>;

/** Rule of each field (the form mirrors them). */
export const fboxConfigFieldSchemas = {
  voltage_min: intInRange(limits.voltageReferenceMin, limits.voltageReferenceMax),
  voltage_max: intInRange(limits.voltageReferenceMin, limits.voltageReferenceMax),
  temperature_max: intInRange(fboxConfigLimits.temperatureMin, fboxConfigLimits.temperatureMax),
  humidity_max: intInRange(fboxConfigLimits.humidityMin, fboxConfigLimits.humidityMax),
  delay_switch_value: intInRange(limits.delaySwitchMin, limits.delaySwitchMax),
  reporting_interval: intInRange(
    fboxConfigLimits.reportingIntervalMin,
    fboxConfigLimits.reportingIntervalMax,
  ),
} as const satisfies Record<FboxConfigField, z.ZodType>;

/** Voltage band: the minimum must be below the maximum. */
const voltageBelow = (
  v: { voltage_min?: number | null | undefined; voltage_max?: number | null | undefined },
  ctx: z.RefinementCtx,
) => {
  if (
    typeof v.voltage_min === 'number' &&
    typeof v.voltage_max === 'number' &&
    v.voltage_min >= v.voltage_max
  )
    ctx.addIssue({ code: 'custom', path: ['voltage_min'], message: rule('rule.voltageMinBelowMax') });
};

export const FboxConfigValuesSchema = z.object({
  voltage_min: z.number(),
  voltage_max: z.number(),
  temperature_max: z.number(),
  humidity_max: z.number(),
  /** Pause between power-unit (PDU) batch switches, ms. */
  delay_switch_value: z.number(),
  /** Telemetry period, seconds. */
  reporting_interval: z.number(),
});
export type FboxConfigValues = z.infer<typeof FboxConfigValuesSchema>;

// ── Mine defaults (admin/area/config) ──────────────────────────────────────────────────────

export const FboxDefaultsSaveBodySchema =
  AreaScopeSchema.extend(fboxConfigFieldSchemas).superRefine(voltageBelow);
export type FboxDefaultsSaveBody = z.infer<typeof FboxDefaultsSaveBodySchema>;

/** A mine's FBOX defaults; `custom` false: the mine has none, these are the built-ins. */
export const FboxDefaultsSchema = FboxConfigValuesSchema.extend({
  area_id: z.number().int(),
  custom: z.boolean(),
  updated_at: z.number().nullable(),
});
export type FboxDefaults = z.infer<typeof FboxDefaultsSchema>;

// ── One FBOX's configuration ───────────────────────────────────────────────────────────────

/** Where an effective value comes from: the FBOX itself, its mine's defaults, the account, or built in. */
export const configSources = ['fbox', 'mine', 'account', 'builtin'] as const;
export type ConfigSource = (typeof configSources)[number];

const nullableField = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' ? null : v), schema.nullable().optional());

/**
 * Saving one FBOX's configuration. Per field: a number sets the FBOX's own value, `null` drops it
 * (the mine default or built-in applies again), absent keeps it.
 */
export const FboxConfigSaveBodySchema = AreaIdBodySchema.extend({
  voltage_min: nullableField(fboxConfigFieldSchemas.voltage_min),
  voltage_max: nullableField(fboxConfigFieldSchemas.voltage_max),
  temperature_max: nullableField(fboxConfigFieldSchemas.temperature_max),
  humidity_max: nullableField(fboxConfigFieldSchemas.humidity_max),
  delay_switch_value: nullableField(fboxConfigFieldSchemas.delay_switch_value),
  reporting_interval: nullableField(fboxConfigFieldSchemas.reporting_interval),
}).superRefine(voltageBelow);
export type FboxConfigSaveBody = z.infer<typeof FboxConfigSaveBodySchema>;

const ownValue = z.number().nullable();

export const FboxConfigSchema = z.object({
  fbox_id: z.number().int(),
  area_id: z.number().int(),
  fbox_name: z.string(),
  status: DeviceStatusSchema,
  /** What applies now. */
  values: FboxConfigValuesSchema,
  sources: z.record(z.enum(fboxConfigFields), z.enum(configSources)),
  /** The FBOX's own values (null: inherited). */
  own: z.object({
    voltage_min: ownValue,
    voltage_max: ownValue,
    temperature_max: ownValue,
    humidity_max: ownValue,
    delay_switch_value: ownValue,
    reporting_interval: ownValue,
  }),
  /** What was last stored for the box and sent to its gateway; differs from `values` after a mine default changed. */
  applied: FboxConfigValuesSchema,
  /** The latest `fbox.config` command of this box. */
  last_command: CommandSchema.nullable(),
});
export type FboxConfig = z.infer<typeof FboxConfigSchema>;

export const FboxConfigSavedSchema = z.object({
  command_id: z.string(),
  status: z.enum(commandStatuses),
  config: FboxConfigSchema,
});

// ── Account switches ───────────────────────────────────────────────────────────────────────

/** The overclock policy last sent to the account's miners (after Auto Overclock changed). */
export const OverclockPolicySchema = z.object({
  status: z.enum(['on', 'off']),
  min: z.number(),
  max: z.number(),
  /** Batch of the `miner.overclock` commands; null when never sent. */
  batch_id: z.string().nullable(),
  /** Miners it was sent to. */
  miners: z.number().int(),
  sent_at: z.number().nullable(),
  /** Commands of the batch per status. */
  counts: z.record(z.enum(commandStatuses), z.number().int()),
});
export type OverclockPolicy = z.infer<typeof OverclockPolicySchema>;

export const fboxConfigEndpoints = {
  fboxDefaultsList: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/area/config/list',
    permission: 'user',
    body: AreaScopeSchema,
    data: FboxDefaultsSchema,
  }),
  fboxDefaultsSave: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/area/config/save',
    permission: 'manage',
    body: FboxDefaultsSaveBodySchema,
    data: FboxDefaultsSchema,
    mutates: true,
    success: 'api.modified',
  }),
  fboxDefaultsRemove: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/area/config/remove',
    permission: 'manage',
    body: AreaScopeSchema,
    data: FboxDefaultsSchema,
    mutates: true,
    success: 'api.modified',
  }),
  fboxConfigDetail: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/fbox/config/detail',
    permission: 'user',
    body: AreaIdBodySchema,
    data: FboxConfigSchema,
  }),
  fboxConfigSave: endpoint({
    method: 'POST',
    path: '/ff-plat-api/api/admin/fbox/config/save',
    permission: 'manage',
    body: FboxConfigSaveBodySchema,
    data: FboxConfigSavedSchema,
    mutates: true,
    success: 'api.commandSent',
  }),
  overclockPolicy: endpoint({
    method: 'GET',
    path: '/index/fbox.user/overclockpolicy',
    permission: 'user',
    data: OverclockPolicySchema,
  }),
} as const;
