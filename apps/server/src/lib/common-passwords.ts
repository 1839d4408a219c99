import { Code, limits } from '@fbox/contracts';
import { ApiError } from './api-error.js';

let common: Promise<Set<string>> | undefined;

/**
 * zxcvbn-ts's list of the ~49,000 most used passwords (from leaked password sets), lower case, kept
 * to those the length rule would let through (about 18,000). Loaded on first use: decompressing it
 * costs about 0.1 s, which start-up need not pay.
 */
const commonPasswords = (): Promise<Set<string>> => {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].filter((p) => p.length >= limits.passwordMin)),
  );
  return common;
};

/** Whether the password, in any letter case, is one of the most common ones. */
export const isCommonPassword = async (password: string): Promise<boolean> =>
  (await commonPasswords()).has(password.toLowerCase());

/**
 * Refuses a common password as a new password (ASVS 2.1.7), as a field error of `field`.
 * @throws ApiError VALIDATION naming the field, rule `rule.passwordCommon`.
 */
export const refuseCommonPassword = async (password: string, field = 'password'): Promise<void> => {
  if (await isCommonPassword(password)) {
    throw new ApiError(Code.VALIDATION, 'api.validation', undefined, {
      errors: [{ field, rule: 'rule.passwordCommon' }],
    });
  }
};
