/** True for a unique-constraint violation on either dialect (a race lost to another request). */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/**
 * The unique index a violation broke, when the driver tells it: PostgreSQL names the constraint,
 * SQLite names an expression index in its message ("UNIQUE constraint failed: index 'name'").
 */
export const uniqueIndexOf = (error: unknown): string | undefined => {
  const { constraint, message } = (error ?? {}) as { constraint?: unknown; message?: unknown };
  if (typeof constraint === 'string') return constraint;
  return typeof message === 'string' ? /index '([^']+)'/.exec(message)?.[1] : undefined;
};
