import { Code, type CodeValue, rule, type SharedMessageKey } from '@fbox/contracts';

/**
 * A business outcome other than success. Services throw it; the HTTP adapter turns it into the
 * envelope `{code, msg, data}` with `msg` localized from `messageKey`.
 */
export class ApiError extends Error {
  constructor(
    readonly code: CodeValue,
    readonly messageKey: SharedMessageKey,
    readonly params?: Record<string, string | number>,
    readonly data: unknown = null,
  ) {
    super(messageKey);
    this.name = 'ApiError';
  }
}

/**
 * A conflict one field's value caused (a name or number already used): the envelope carries it as
 * that field's error, so the form says it on the field and not only in a toast.
 */
export const fieldConflict = (field: string, key: SharedMessageKey): ApiError =>
  new ApiError(Code.CONFLICT, key, undefined, { errors: [{ field, rule: key }] });

/**
 * A value the contract accepts but the stored data refutes (a meter reading lower than the one
 * before it): the envelope carries it as that field's error, with the rule's parameters.
 */
export const fieldInvalid = (
  field: string,
  key: SharedMessageKey,
  params?: Record<string, string | number>,
): ApiError =>
  new ApiError(Code.VALIDATION, 'api.validation', undefined, {
    errors: [{ field, rule: rule(key, params) }],
  });
