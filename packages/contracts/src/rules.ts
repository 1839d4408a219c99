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

/** An integer from a form field ("12") or JSON (12), within a range. */
export const intInRange = (min: number, max: number) =>
  z.coerce
    .number({ error: rule('rule.range', { min, max }) })
    .int({ error: rule('rule.range', { min, max }) })
    .min(min, { error: rule('rule.range', { min, max }) })
    .max(max, { error: rule('rule.range', { min, max }) });

/** A positive integer id from a form field or JSON. */
export const IdSchema = z.coerce
  .number({ error: rule('rule.invalid') })
  .int({ error: rule('rule.invalid') })
  .positive({ error: rule('rule.invalid') })
  .max(Number.MAX_SAFE_INTEGER, { error: rule('rule.invalid') });

/** `on` / `off` switches of the legacy forms; also accepts 1/0 and booleans. */
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
