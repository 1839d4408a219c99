import { z } from 'zod';
import { limits } from './limits.js';
import type { SharedMessageKey } from './messages.js';

/**
 * Zod issue messages are i18n keys. A rule that needs parameters carries them as JSON after the key
 * (`rule.range {"min":0,"max":10000}`); `parseRuleMessage` splits them again for the localizer.
 */
export const rule = (key: SharedMessageKey, params?: Record<string, string | number>): string =>
  params ? `${key} ${JSON.stringify(params)}` : key;

export const parseRuleMessage = (
  message: string,
): { key: string; params: Record<string, string | number> } => {
  const space = message.indexOf(' ');
  if (space < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, space), params: JSON.parse(message.slice(space + 1)) };
  } catch {
    return { key: message, params: {} };
  }
};

/** A required, trimmed text with a maximum length. */
export const requiredText = (max: number) =>
  z
    .string({ error: rule('rule.required') })
    .trim()
    .min(1, { error: rule('rule.required') })
    .max(max, { error: rule('rule.tooLong', { max }) });

/**
 * Numbers as API inputs carry them: a JSON number, or the decimal text of a form or query field
 * (optional minus, digits, optional fraction). Not hex, binary, exponents, blanks, signs like '+',
 * booleans, null, arrays or objects: `z.coerce.number` read `true` as 1 and `[]` as 0, and
 * `{"id":true}` deleted mine 1 (issue 10). Every numeric input goes through `numeric()`.
 */
const decimalText = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** Missing, or a blank form field ('' or spaces only), reads as absent. */
const isBlank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * Significant digits of decimal text: "0012.3400" has 4, "1200" 2, "0.000123" 3. A double holds any
 * decimal of up to 15 exactly; beyond that, `Number()` may store another number than the one typed
 * ("9007199254740993" becomes …992).
 */
const significantDigits = (text: string): number => {
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  const decimals = fraction.replace(/0+$/, '');
  const digits = `${whole}${decimals}`.replace(/^0+/, '');
  return (decimals === '' ? digits.replace(/0+$/, '') : digits).length;
};
export const maxSignificantDigits = 15;

/**
 * Decimal text becomes its number, unless it has more digits than a number holds exactly (refused,
 * never rounded); a blank value is "required" (or absent when optional); any other value goes on
 * unchanged, so `z.number()` refuses it with the field's own rule.
 */
const numberFromInput =
  (required: boolean) =>
  (value: unknown, ctx: z.core.$RefinementCtx): unknown => {
    if (typeof value === 'string' && decimalText.test(value)) {
      if (significantDigits(value) <= maxSignificantDigits) return Number(value);
      ctx.addIssue({
        code: 'custom',
        message: rule('rule.tooPrecise', { max: maxSignificantDigits }),
        input: value,
      });
      return z.NEVER;
    }
    if (!isBlank(value) && !(required && value === null)) return value;
    if (!required) return undefined;
    ctx.addIssue({ code: 'custom', message: rule('rule.required'), input: value });
    return z.NEVER;
  };

/**
 * A required number from JSON or a form field; `schema` holds its range and messages. NaN and
 * ±Infinity never pass (`z.number()` refuses them).
 */
export const numeric = <S extends z.ZodType>(schema: S) => z.preprocess(numberFromInput(true), schema);

/** An optional number: missing or '' leaves it out; anything else as `numeric`. */
export const optionalNumeric = <S extends z.ZodType>(schema: S) =>
  z.preprocess(numberFromInput(false), schema.optional()).optional();

/** A number with a default for missing or ''; anything else as `numeric`. */
export const numericWithDefault = <S extends z.ZodType<number>>(schema: S, value: number) =>
  z
    .preprocess((input, ctx) => {
      const number = numberFromInput(false)(input, ctx);
      return number === undefined ? value : number;
    }, schema)
    .default(value as z.core.util.NoUndefined<z.output<S>>);

/** An integer within a range, every failure worded as the range. */
export const intRange = (min: number, max: number) =>
  z
    .number({ error: rule('rule.range', { min, max }) })
    .int({ error: rule('rule.range', { min, max }) })
    .min(min, { error: rule('rule.range', { min, max }) })
    .max(max, { error: rule('rule.range', { min, max }) });

/** An integer from a form field ("12") or JSON (12), within a range. */
export const intInRange = (min: number, max: number) => numeric(intRange(min, max));
/** `intInRange`, or nothing when missing or ''. */
export const optionalIntInRange = (min: number, max: number) => optionalNumeric(intRange(min, max));

/** Paging of a list request (DESIGN §5): missing or '' means page 1 of 20 rows. */
export const pageFields = {
  page: numericWithDefault(
    z
      .number({ error: rule('rule.invalid') })
      .int()
      .min(1)
      .max(1_000_000),
    1,
  ),
  limit: numericWithDefault(intRange(1, 500), 20),
};

const idNumber = z
  .number({ error: rule('rule.invalid') })
  .int({ error: rule('rule.invalid') })
  .positive({ error: rule('rule.invalid') })
  .max(Number.MAX_SAFE_INTEGER, { error: rule('rule.invalid') });

/** A positive integer id from a form field or JSON. */
export const IdSchema = numeric(idNumber);

/** An id that may be left out (or sent as ''). */
export const OptionalIdNumberSchema = optionalNumeric(idNumber);

/** `on` / `off` switches of the legacy forms; also accepts 1/0 and booleans. */
/**
 * A yes/no as clients send it: a boolean in a JSON body, `1`/`0` or `true`/`false` text in a form
 * post ('' and null read as no); anything else is left for the schema to refuse.
 */
export const flagFromInput = (v: unknown): unknown => {
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '' || v === null) return false;
  return v;
};

export const OnOffSchema = z.preprocess(
  (value) => {
    if (value === true || value === 1 || value === '1') return 'on';
    if (value === false || value === 0 || value === '0') return 'off';
    return value;
  },
  z.enum(['on', 'off'], { error: rule('rule.onOff') }),
);

export const EmailSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .min(1, { error: rule('rule.required') })
  .max(254, { error: rule('rule.tooLong', { max: 254 }) })
  .email({ error: rule('rule.email') });

export const CountryCodeSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .regex(/^\d{1,3}$/, { error: rule('rule.countryCode') });

export const PhoneNumberSchema = z
  .string({ error: rule('rule.required') })
  .min(1, { error: rule('rule.required') })
  .regex(/^\d{4,15}$/, { error: rule('rule.phoneNumber') });

/** Mobile as the legacy API joins it: country code and number separated by one space ("86 13800138000"). */
export const MobileSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .min(1, { error: rule('rule.required') })
  .regex(/^\d{1,3} \d{4,15}$/, { error: rule('rule.phoneNumber') });

export const PasswordSchema = z
  .string({ error: rule('rule.required') })
  .min(1, { error: rule('rule.required') })
  .min(limits.passwordMin, { error: rule('rule.password') })
  .max(limits.passwordMax, { error: rule('rule.tooLong', { max: limits.passwordMax }) });

export const TotpCodeSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .regex(/^\d{6}$/, { error: rule('rule.totpCode') });
