import type { FieldError } from '@fbox/contracts';

/** `group_ids.0` → `group_ids`: a field error of a list item is shown on the list's field. */
export const topLevelErrors = (errors: FieldError[]): FieldError[] =>
  errors.map((error) => ({ ...error, field: error.field.split('.')[0] ?? error.field }));
