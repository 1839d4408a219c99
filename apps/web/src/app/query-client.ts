import { QueryClient } from '@tanstack/react-query';
import { onSessionCleared } from '../lib/session';

/** Errors are shown by the API client, so queries do not retry into repeated toasts. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

onSessionCleared(() => queryClient.clear());
