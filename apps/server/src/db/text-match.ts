import { type Expression, type SqlBool, sql } from 'kysely';

/** `field` / `-field` → the whitelisted column expression and direction (the schema whitelists). */
export const parseSort = <F extends string>(
  sort: string | undefined,
  columns: Record<F, string>,
  fallback: F,
): { column: string; direction: 'asc' | 'desc' } => {
  const descending = sort?.startsWith('-') ?? false;
  const field = (sort ? sort.replace(/^-/, '') : fallback) as F;
  return { column: columns[field] ?? columns[fallback], direction: descending ? 'desc' : 'asc' };
};

/** The LIKE pattern of a case-insensitive substring match, with wildcards in the keyword escaped. */
export const containsPattern = (keyword: string): string =>
  `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` (lower-cased) matches a `containsPattern`, on both dialects. */
export const matchesPattern = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

/** Case-insensitive substring match on both dialects, with LIKE wildcards in the keyword escaped. */
export const containsText = (column: string, keyword: string): Expression<SqlBool> =>
  matchesPattern(column, containsPattern(keyword));
