import { z } from 'zod';
import { limits } from './limits.js';
import { IdSchema, requiredText, rule } from './rules.js';

/** A mine (spec §3 "Area"). */
export const AreaSchema = z.object({
  id: z.number().int(),
  area_name: z.string(),
  electricity_hz: z.number().int(),
});
export type Area = z.infer<typeof AreaSchema>;

const ElectricityHzSchema = z.coerce
  .number({ error: rule('rule.electricityHz') })
  .refine((hz) => hz === 50 || hz === 60, { error: rule('rule.electricityHz') });

export const AreaCreateBodySchema = z.object({
  area_name: requiredText(limits.areaNameMax),
  electricity_hz: ElectricityHzSchema.optional(),
});
export type AreaCreateBody = z.infer<typeof AreaCreateBodySchema>;

export const AreaEditBodySchema = z.object({
  id: IdSchema,
  area_name: requiredText(limits.areaNameMax).optional(),
  electricity_hz: ElectricityHzSchema.optional(),
});
export type AreaEditBody = z.infer<typeof AreaEditBodySchema>;

export const IdBodySchema = z.object({ id: IdSchema });
export type IdBody = z.infer<typeof IdBodySchema>;

/** Unread notifications of the top bar's badge. */
export const UnreadCountSchema = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;
