import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api';

/** Query keys of messages (alerts pushed to the user). */
export const messageKeys = {
  all: ['message'] as const,
  unread: () => [...messageKeys.all, 'unread'] as const,
};

/** Unread count for the top bar badge: fresh for 60 s, refreshed every 60 s in the background. */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: messageKeys.unread(),
    queryFn: () => call('unreadCount', {}, { silent: true }),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });

export const useUnreadCount = () => useQuery({ ...unreadCountQuery(), select: (unread) => unread.count });
