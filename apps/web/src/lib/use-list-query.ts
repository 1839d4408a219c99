import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  ignoredParams,
  type ListQuery,
  type ListQueryConfig,
  nextListQuery,
  parseListQuery,
  writeListQuery,
} from './list-query';

/**
 * A server-paged list's query, kept in the URL (so a reload, the back button or a shared link shows
 * the same page). `update` merges a change; a new filter, sort or page size goes back to page 1.
 * `ignored` lists URL filters the list's schema refuses (left out of the request, shown as a notice).
 */
export const useListQuery = (config: ListQueryConfig) => {
  const [search, setSearch] = useSearchParams();
  const { filterKeys, defaultLimit, maxLimit, schema } = config;
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKeys is compared by content
  const stableConfig = useMemo(
    () => ({ filterKeys, defaultLimit, maxLimit, schema }),
    [filterKeys.join(','), defaultLimit, maxLimit, schema],
  );
  const query = useMemo(() => parseListQuery(search, stableConfig), [search, stableConfig]);
  const ignored = useMemo(() => ignoredParams(search, stableConfig), [search, stableConfig]);

  const update = useCallback(
    (change: Partial<ListQuery>) =>
      setSearch(
        (current) => {
          const previous = parseListQuery(current, stableConfig);
          return writeListQuery(current, nextListQuery(previous, change), stableConfig);
        },
        { replace: false },
      ),
    [setSearch, stableConfig],
  );

  const setFilters = useCallback((filters: ListQuery['filters']) => update({ filters }), [update]);

  return { query, ignored, update, setFilters };
};

export type ListQueryState = ReturnType<typeof useListQuery>;
