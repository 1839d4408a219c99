import { useCallback, useMemo, useState } from 'react';
import { type ListQuery, nextListQuery } from '../../lib/list-query';
import type { ListQueryState } from '../../lib/use-list-query';

/**
 * A list query kept in the component, for the several tables of one task page (queue, history,
 * detail) that cannot all own `page` in the URL. Same rules: a new filter goes back to page 1.
 */
export const useLocalListQuery = (defaultLimit = 20): ListQueryState => {
  const [query, setQuery] = useState<ListQuery>({ page: 1, limit: defaultLimit, filters: {} });
  const update = useCallback(
    (change: Partial<ListQuery>) => setQuery((previous) => nextListQuery(previous, change)),
    [],
  );
  const setFilters = useCallback((filters: ListQuery['filters']) => update({ filters }), [update]);
  // Nothing comes from the URL here, so nothing is ignored.
  return useMemo(() => ({ query, ignored: [], update, setFilters }), [query, update, setFilters]);
};
