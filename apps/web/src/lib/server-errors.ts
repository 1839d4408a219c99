import { limits } from '@fbox/contracts';
import type { FormInstance } from 'antd';
import { ApiError } from './api';
import { toast } from './feedback';
import { applyFieldErrors, fieldErrorText } from './form-rules';

/** How one form reads the server's field errors. */
export interface ServerErrorOptions {
  /** The server's field name as the form's (`mobile` → `mobileNumber`, `group_ids.0` → `group_ids`). */
  field?: (field: string) => string;
  /** A leading path segment the form's names leave out (`pushContent`). */
  prefix?: string;
}

/**
 * What a form does when its save fails: the server's field errors go onto their fields, and an
 * error for a field the form does not show is toasted (forms save with `quietValidation`, so the
 * API client says nothing about a -2 answer that carries field errors: without the toast the user
 * would see nothing). Anything else (a business error, a network failure) the API client has
 * already shown.
 */
export const showServerErrors = (
  form: FormInstance,
  error: unknown,
  options: ServerErrorOptions = {},
): void => {
  if (!(error instanceof ApiError)) return;
  const { field, prefix } = options;
  const errors = field ? error.fieldErrors.map((e) => ({ ...e, field: field(e.field) })) : error.fieldErrors;
  const unmatched = applyFieldErrors(form, errors, prefix);
  for (const e of unmatched) void toast('error', fieldErrorText(e), limits.toastMs / 1000);
};
