/**
 * The list contract of DESIGN §5 as it lives in the URL: `page` (from 1), `limit`, `sort` (`field` or
 * `-field`) and typed filters. Pure functions, so the table ↔ URL mapping is tested without a browser.
 */
export interface ListQuery {
  page: number;
  limit: number;
  /** `field` ascending, `-field` descending, undefined for the server's default order. */
  sort?: string;
  /** Filter values by name; an empty string or undefined is "no filter". */
  filters: Record<string, string | undefined>;
}

/** A list endpoint's query schema (contracts): each filter and the sort are checked with their own. */
export interface QuerySchema {
  shape: Record<string, { safeParse(value: unknown): { success: boolean } }>;
}

export interface ListQueryConfig {
  /** Query parameter names that are filters of this list (others in the URL are left alone). */
  filterKeys: readonly string[];
  /**
   * The endpoint's query schema: a filter or sort value in the URL that it refuses (an old or
   * hand-made link, `?status=1`) is left out of the request and reported, not sent to fail the list.
   */
  schema?: QuerySchema;
  defaultLimit?: number;
  /** The largest page size the server accepts (DESIGN §5: 500). */
  maxLimit?: number;
}

export const pageSizeOptions = [10, 20, 50, 100] as const;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 500;

const positiveInt = (text: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, max) : fallback;
};

/** Reads a list query from URL search parameters; bad numbers fall back to the defaults. */
export const parseListQuery = (search: URLSearchParams, config: ListQueryConfig): ListQuery => {
  const limit = positiveInt(
    search.get('limit'),
    config.defaultLimit ?? DEFAULT_LIMIT,
    config.maxLimit ?? MAX_LIMIT,
  );
  const filters: Record<string, string | undefined> = {};
  for (const key of config.filterKeys) {
    const value = search.get(key);
    if (value !== null && value !== '' && accepted(config, key, value)) filters[key] = value;
  }
  const sortText = search.get('sort') || undefined;
  const sort = sortText && accepted(config, 'sort', sortText) ? sortText : undefined;
  return { page: positiveInt(search.get('page'), 1), limit, sort, filters };
};

/** Whether the list's schema (if any) takes this value of a URL parameter. */
const accepted = (config: ListQueryConfig, key: string, value: string): boolean =>
  config.schema?.shape[key]?.safeParse(value).success ?? true;

/** The filter and sort parameters of the URL that the list's schema refuses (left out of requests). */
export const ignoredParams = (
  search: URLSearchParams,
  config: ListQueryConfig,
): { key: string; value: string }[] =>
  [...config.filterKeys, 'sort'].flatMap((key) => {
    const value = search.get(key);
    return value !== null && value !== '' && !accepted(config, key, value) ? [{ key, value }] : [];
  });

/**
 * Writes a list query into search parameters, keeping parameters that are not part of the list (an
 * `id` of the page, …). Defaults are left out so a fresh list has a clean URL.
 */
export const writeListQuery = (
  base: URLSearchParams,
  query: ListQuery,
  config: ListQueryConfig,
): URLSearchParams => {
  const next = new URLSearchParams(base);
  for (const key of ['page', 'limit', 'sort', ...config.filterKeys]) next.delete(key);
  if (query.page > 1) next.set('page', String(query.page));
  if (query.limit !== (config.defaultLimit ?? DEFAULT_LIMIT)) next.set('limit', String(query.limit));
  if (query.sort) next.set('sort', query.sort);
  for (const key of config.filterKeys) {
    const value = query.filters[key];
    if (value !== undefined && value !== '') next.set(key, value);
  }
  return next;
};

const sameFilters = (a: ListQuery['filters'], b: ListQuery['filters']) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if ((a[key] || undefined) !== (b[key] || undefined)) return false;
  return true;
};

/**
 * The next query after a change: a new filter, sort or page size starts again at page 1, because the
 * old page number means nothing in a different result set.
 */
export const nextListQuery = (previous: ListQuery, change: Partial<ListQuery>): ListQuery => {
  const merged: ListQuery = {
    ...previous,
    ...change,
    filters: change.filters ? { ...previous.filters, ...change.filters } : previous.filters,
  };
  const reset =
    !sameFilters(previous.filters, merged.filters) ||
    previous.sort !== merged.sort ||
    previous.limit !== merged.limit;
  return reset ? { ...merged, page: 1 } : merged;
};

export type SortOrder = 'ascend' | 'descend';

/** antd's sorter (field + order) as the contract's `sort`. */
export const toSortParam = (field: string | undefined, order: SortOrder | null | undefined) =>
  field && order ? (order === 'descend' ? `-${field}` : field) : undefined;

/** The order antd should show on a column for the current `sort`. */
export const sortOrderOf = (sort: string | undefined, field: string): SortOrder | null => {
  if (sort === field) return 'ascend';
  if (sort === `-${field}`) return 'descend';
  return null;
};

/** The request parameters of a list query: filters flattened beside page, limit and sort. */
export const toRequestParams = (query: ListQuery): Record<string, string | number> => {
  const params: Record<string, string | number> = { page: query.page, limit: query.limit };
  if (query.sort) params.sort = query.sort;
  for (const [key, value] of Object.entries(query.filters)) if (value) params[key] = value;
  return params;
};
