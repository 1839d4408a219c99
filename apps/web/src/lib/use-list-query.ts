import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  type ListQuery,
  type ListQueryConfig,
  nextListQuery,
  parseListQuery,
  writeListQuery,
} from './list-query';

/**
 * A server-paged list's query, kept in the URL (so a reload, the back button or a shared link shows
 * the same page). `update` merges a change; a new filter, sort or page size goes back to page 1.
 */
export const useListQuery = (config: ListQueryConfig) => {
  const [search, setSearch] = useSearchParams();
  const { filterKeys, defaultLimit, maxLimit } = config;
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKeys is compared by content
  const stableConfig = useMemo(
    () => ({ filterKeys, defaultLimit, maxLimit }),
    [filterKeys.join(','), defaultLimit, maxLimit],
  );
  const query = useMemo(() => parseListQuery(search, stableConfig), [search, stableConfig]);

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

  return { query, update, setFilters };
};

export type ListQueryState = ReturnType<typeof useListQuery>;
