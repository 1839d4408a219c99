import { z } from 'zod';
import { limits } from './limits.js';
import { PasswordSchema, requiredText, rule, TotpCodeSchema } from './rules.js';

/** Login form (spec §3): username is trimmed; googleCode is empty unless the account uses TOTP. */
export const LoginBodySchema = z.object({
  username: requiredText(limits.usernameMax),
  password: z
    .string({ error: rule('rule.required') })
    .min(1, { error: rule('rule.required') })
    .max(128, { error: rule('rule.tooLong', { max: 128 }) }),
  googleCode: z
    .string()
    .trim()
    .max(16, { error: rule('rule.totpCode') })
    .optional()
    .default(''),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginDataSchema = z.object({ logintoken: z.string() });
export type LoginData = z.infer<typeof LoginDataSchema>;

/** Data of a rate-limited login (`code` -6): seconds until the next attempt is accepted. */
export const RateLimitedDataSchema = z.object({ retryAfter: z.number().int() });

export const ChangePasswordBodySchema = z.object({
  oldpassword: z
    .string({ error: rule('rule.required') })
    .min(1, { error: rule('rule.required') })
    .max(128, { error: rule('rule.tooLong', { max: 128 }) }),
  password: PasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** TOTP enrolment: the secret and otpauth:// URL for the QR code, pending until confirmed with a code. */
export const TotpSetupDataSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetupData = z.infer<typeof TotpSetupDataSchema>;

export const TotpCodeBodySchema = z.object({ code: TotpCodeSchema });
export type TotpCodeBody = z.infer<typeof TotpCodeBodySchema>;
