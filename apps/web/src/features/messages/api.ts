import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fallbackRefetchInterval } from '../../lib/live-socket';

const quiet = { silent: true } as const;

/**
 * Query keys of the inbox. A live `inbox` message (sent only to the users concerned) makes them all
 * stale: the badge and the Messages page refetch. Every call names the selected mine (`call` adds
 * it), so both show that mine's messages and those of no mine.
 */
export const messageKeys = {
  all: ['message'] as const,
  unread: () => [...messageKeys.all, 'unread'] as const,
  list: (params: object) => [...messageKeys.all, 'list', params] as const,
};

/** Unread count for the top bar badge: live, and refreshed every 60 s in the background. */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: messageKeys.unread(),
    queryFn: () => call('unreadCount', {}, quiet),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });

export const useUnreadCount = () => useQuery({ ...unreadCountQuery(), select: (unread) => unread.count });

/** A page of the user's messages for the filters in the URL, newest first. */
export const useInboxList = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: messageKeys.list(params),
    queryFn: () => call('inboxList', params, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefetchInterval,
  });
};

/** Marks one message read (opening it); the badge and the list refresh. */
export const useMarkRead = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('inboxRead', { id }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
};

/** Marks every unread message of the selected mine (and of no mine) read. */
export const useMarkAllRead = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('inboxReadAll', {}, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
};
