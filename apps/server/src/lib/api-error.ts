import type { CodeValue, SharedMessageKey } from '@fbox/contracts';

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
