import { QueryClient } from '@tanstack/react-query';
import { isHttpError, onSessionEnd } from '../../lib/http.ts';
import { OUTBOX_SENT_EVENT } from '../../lib/offline/events.ts';

/** Server state lives in TanStack Query; client errors (4xx) are not retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Without a connection a read still runs once: the http client answers the kept reads from the phone's copies.
      networkMode: 'offlineFirst',
      retry: (failures, error) => {
        if (isHttpError(error) && error.status > 0 && error.status < 500) return false;
        return failures < 2;
      },
    },
    mutations: { retry: false },
  },
});

onSessionEnd(() => queryClient.clear());
if (typeof window !== 'undefined') window.addEventListener(OUTBOX_SENT_EVENT, () => void queryClient.invalidateQueries());
