import { z } from 'zod';
import { numericWithDefault } from './rules.js';

/** One field error of a validation failure: the field path and an i18n message key. */
export const FieldErrorSchema = z.object({
  field: z.string(),
  rule: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

/**
 * The response envelope of every API call. `code` 1 is success; other codes come from `Code`.
 * Info-style calls also carry `info` (same text as `msg`).
 */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({
    code: z.number().int(),
    msg: z.string(),
    info: z.string().optional(),
    data,
  });

export interface Envelope<T> {
  code: number;
  msg: string;
  info?: string;
  data: T;
}

/** Data of a validation failure (`code` -2). */
export const ValidationErrorDataSchema = z.object({ errors: z.array(FieldErrorSchema) });
export type ValidationErrorData = z.infer<typeof ValidationErrorDataSchema>;

/** Standard list request and response shapes (DESIGN §5). */
export const ListQuerySchema = z.object({
  page: numericWithDefault(z.number().int().min(1), 1),
  limit: numericWithDefault(z.number().int().min(1).max(500), 20),
  sort: z.string().max(64).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });
