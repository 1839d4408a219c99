import { z } from 'zod';
import { limits } from './limits.js';
import { IdSchema, numeric, requiredText, rule } from './rules.js';

/**
 * A mine as the area selector lists it (spec §3 "Area"): every signed-in user of the mine reads this,
 * so it never carries the Agent Key or other management fields.
 */
export const AreaSchema = z.object({
  id: z.number().int(),
  area_name: z.string(),
  electricity_hz: z.number().int(),
});
export type Area = z.infer<typeof AreaSchema>;

/** Mine fields of the Manage Mines screen beyond the selector's (spec §3, §5). */
export const mineLimits = {
  commentMax: 500,
  contactMax: 200,
  /** Price of one kWh in the site's currency; an upper bound catches typing slips, not real prices. */
  electricityPriceMax: 1_000_000,
  /**
   * The price existing mines got when the column was added (migration 0007): a typical industrial
   * rate of 0.05 per kWh, shown on the Manage Mines screen so an administrator can correct it.
   */
  defaultElectricityPrice: 0.05,
} as const;

const ElectricityHzSchema = numeric(
  z
    .number({ error: rule('rule.electricityHz') })
    .refine((hz) => hz === 50 || hz === 60, { error: rule('rule.electricityHz') }),
);

/**
 * Electricity price (spec §5): required, a valid number, greater than 0. Form fields arrive as text:
 * an empty one is "required", anything but a plain decimal ("1e3", "0x10", "12abc") "a valid number".
 */
export const ElectricityPriceSchema = numeric(
  z
    .number({ error: rule('rule.number') })
    .refine((price) => price > 0, { error: rule('rule.positive') })
    .refine((price) => price <= mineLimits.electricityPriceMax, {
      error: rule('rule.numberMax', { max: mineLimits.electricityPriceMax }),
    }),
);

/** An optional free text: trimmed, '' when absent. */
const optionalText = (max: number) =>
  z
    .string({ error: rule('rule.invalidType') })
    .trim()
    .max(max, { error: rule('rule.tooLong', { max }) });

/** Mine fields a master sets when creating one; the Agent Key is generated. */
export const AreaCreateBodySchema = z.object({
  area_name: requiredText(limits.areaNameMax),
  electricity_hz: ElectricityHzSchema.optional(),
  electricity_price: ElectricityPriceSchema,
  comment: optionalText(mineLimits.commentMax).optional(),
  contact: optionalText(mineLimits.contactMax).optional(),
});
export type AreaCreateBody = z.infer<typeof AreaCreateBodySchema>;

/** An edit changes only the fields it sends; a sent price follows the same rules as on create. */
export const AreaEditBodySchema = z.object({
  id: IdSchema,
  area_name: requiredText(limits.areaNameMax).optional(),
  electricity_hz: ElectricityHzSchema.optional(),
  electricity_price: ElectricityPriceSchema.optional(),
  comment: optionalText(mineLimits.commentMax).optional(),
  contact: optionalText(mineLimits.contactMax).optional(),
});
export type AreaEditBody = z.infer<typeof AreaEditBodySchema>;

export const IdBodySchema = z.object({ id: IdSchema });
export type IdBody = z.infer<typeof IdBodySchema>;

/** Unread notifications of the top bar's badge. */
export const UnreadCountSchema = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;
