import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, download } from '../../lib/api';
import { type ListQuery, toRequestParams } from '../../lib/list-query';

const quiet = { silent: true } as const;

/** Query keys of the operation log. */
export const oplogKeys = {
  all: ['oplog'] as const,
  list: (params: object) => [...oplogKeys.all, 'list', params] as const,
  users: () => [...oplogKeys.all, 'users'] as const,
};

/** A page of the log for the filters in the URL. */
export const useOplogList = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: oplogKeys.list(params),
    queryFn: () => call('oplogList', params, quiet),
    placeholderData: keepPreviousData,
  });
};

/** The users that appear in the caller's log, for the user filter. */
export const useOplogUsers = () =>
  useQuery({
    queryKey: oplogKeys.users(),
    queryFn: () => call('oplogUsers', undefined, quiet),
    staleTime: 60_000,
  });

/** Downloads the filtered log as CSV. */
export const exportOplog = (query: ListQuery) => {
  const { page: _page, limit: _limit, ...filters } = toRequestParams(query);
  return download('oplogExport', filters, 'operation-log.csv');
};
