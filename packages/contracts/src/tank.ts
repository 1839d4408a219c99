import { z } from 'zod';
import {
  AreaIdBodySchema,
  AreaListQuerySchema,
  AreaScopeSchema,
  DeviceStatusSchema,
  historyOf,
  IdListSchema,
  OptionalIdSchema,
  outcomeStatuses,
  sortOf,
} from './devices.js';
import { IdSchema, intInRange, OnOffSchema, rule } from './rules.js';

/** Oil-immersion tanks (`fbox.oillist`, spec §3). Fan and pump loads are percent of 5000/6000. */

export const TankListQuerySchema = AreaListQuerySchema.extend({
  fbox_id: OptionalIdSchema,
  status: z.preprocess((v) => (v === '' ? undefined : v), DeviceStatusSchema.optional()),
  sort: sortOf([
    'id',
    'name',
    'no',
    'work_number',
    'fbox_name',
    'status',
    'oil_in_temp',
    'oil_out_temp',
    'liquid_level',
    'energy_saving',
    'control_mode',
    'miner_count',
    'hashrate',
  ]),
});
export type TankListQuery = z.infer<typeof TankListQuerySchema>;

export const TankListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  no: z.number().int(),
  work_number: z.string(),
  fbox_id: z.number().int(),
  fbox_name: z.string(),
  status: DeviceStatusSchema,
  oil_in_temp: z.number(),
  oil_out_temp: z.number(),
  liquid_level: z.number(),
  energy_saving: z.boolean(),
  control_mode: z.enum(['auto', 'manual']),
  short_circuit: z.boolean(),
  miner_count: z.number().int(),
  miner_online: z.number().int(),
  /** Sum of its miners' realtime hashrate, TH/s. */
  hashrate: z.number(),
});
export type TankListItem = z.infer<typeof TankListItemSchema>;

/** A fan or pump reading and its load as percent of 5000 (50 Hz) or 6000 (60 Hz); null = no data. */
const LoadSchema = z.object({ no: z.number().int(), value: z.number(), percent: z.number().nullable() });

export const TankDetailSchema = TankListItemSchema.extend({
  area_id: z.number().int(),
  fbox_status: DeviceStatusSchema,
  fans: z.array(LoadSchema),
  oil_pump_efficiency: z.number(),
  oil_pump_percent: z.number().nullable(),
  water_in_temp: z.number(),
  water_speed: z.number(),
  /** Oil temperature probes, °C; -999 = no reading. */
  main_temperatures: z.array(z.number()),
  miner_offline: z.number().int(),
  electricity_hz: z.number().int(),
  updated_at: z.number().nullable(),
});
export type TankDetail = z.infer<typeof TankDetailSchema>;

export const TankSearchQuerySchema = AreaScopeSchema.extend({
  keyword: z
    .string()
    .trim()
    .max(100, { error: rule('rule.tooLong', { max: 100 }) })
    .default(''),
});
export const TankSearchItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  fbox_name: z.string(),
});
export const TankOptionsQuerySchema = AreaScopeSchema.extend({ fbox_id: IdSchema });
export const TankOptionSchema = z.object({ id: z.number().int(), name: z.string(), no: z.number().int() });

const tankName = z
  .string({ error: rule('rule.tankName') })
  .trim()
  .min(1, { error: rule('rule.tankName') })
  .max(50, { error: rule('rule.tooLong', { max: 50 }) });
const workNumber = z
  .string({ error: rule('rule.invalidType') })
  .trim()
  .max(50, { error: rule('rule.tooLong', { max: 50 }) });

export const TankAddBodySchema = AreaScopeSchema.extend({
  fbox_id: IdSchema,
  name: tankName,
  work_number: workNumber.optional(),
  /** Position in the FBOX (telemetry's `tanks[].no`); the next free one when omitted. */
  no: intInRange(1, 64).optional(),
});
export type TankAddBody = z.infer<typeof TankAddBodySchema>;

export const TankEditBodySchema = AreaIdBodySchema.extend({
  name: tankName.optional(),
  work_number: workNumber.optional(),
  no: intInRange(1, 64).optional(),
});
export type TankEditBody = z.infer<typeof TankEditBodySchema>;

export const TankOilSettingBodySchema = AreaIdBodySchema.extend({ energy_saving: OnOffSchema });
export const TankControllerSwitchBodySchema = AreaIdBodySchema.extend({
  control_mode: z.enum(['auto', 'manual'], { error: rule('rule.controlMode') }),
});
export const TankControllerSwitchV2BodySchema = AreaIdBodySchema.extend({
  device: z.enum(['fan', 'pump'], { error: rule('rule.invalid') }),
  no: intInRange(1, 16),
  status: OnOffSchema,
  /** Drive speed, in the units of the fan/pump readings (5000 = 100 % at 50 Hz). */
  speed: intInRange(0, 6000).optional(),
});
export type TankControllerSwitchV2Body = z.infer<typeof TankControllerSwitchV2BodySchema>;

export const tankActions = ['energy_saving_on', 'energy_saving_off', 'auto', 'manual'] as const;
export type TankAction = (typeof tankActions)[number];
export const TankMultipleBodySchema = AreaScopeSchema.extend({
  ids: IdListSchema,
  action: z.enum(tankActions, { error: rule('rule.action') }),
});

export const TankBatchResultSchema = z.object({
  batch_id: z.string(),
  commands: z.array(
    z.object({
      tank_id: z.number().int(),
      command_id: z.string().nullable(),
      status: z.enum(outcomeStatuses),
    }),
  ),
});

export const TankIdsBodySchema = AreaIdBodySchema;

const point = z.number().nullable();
export const TankHistorySchema = historyOf({
  oil_in_temp: point,
  oil_out_temp: point,
  liquid_level: point,
});
