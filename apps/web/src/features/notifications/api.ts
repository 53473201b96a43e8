import { type InboxItem, type InboxList, NOTIFICATION_EVENTS, NOTIFICATION_INBOX } from '@sitewatch/contracts/notifications';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { realtime, usePollingFallback } from '../../lib/realtime.ts';
import { useUser } from '../../lib/session.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { inboxKeys } from './keys.ts';

// Any notification event (new item, another tab marked something) makes the inbox stale.
realtime.invalidateOn('notification', inboxKeys.all);

/** SPEC 9: refresh every 30 s by default, never more often than every 3 s. */
export function inboxRefreshMs(seconds: number | undefined): number {
  return Math.max(NOTIFICATION_INBOX.minRefreshSec, seconds ?? NOTIFICATION_INBOX.refreshSec) * 1000;
}

/** GET /notification/inbox/ page by page (10 a page), newest first; the first page also feeds the badge. */
export function useInbox() {
  const user = useUser();
  const settings = useCustomerSettings().data;
  const refetchInterval = usePollingFallback(inboxRefreshMs(settings?.notificationRefreshSec));
  return useInfiniteQuery({
    queryKey: inboxKeys.inbox,
    enabled: Boolean(user),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.get('/notification/inbox/', {
        query: { page: pageParam, limit: NOTIFICATION_INBOX.pageSize, orderBy: '-createdAt' },
        signal,
        toast: false,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.contents.length, 0);
      return loaded < last.totalCount && last.contents.length > 0 ? pages.length + 1 : undefined;
    },
    refetchInterval,
    staleTime: 5_000,
  });
}

type InboxCache = InfiniteData<InboxList, number>;

function patchCache(data: InboxCache | undefined, change: (item: InboxItem) => InboxItem, unreadCount?: number): InboxCache | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      unreadCount: unreadCount ?? page.unreadCount,
      contents: page.contents.map(change),
    })),
  };
}

/** PUT /notification/inbox/{id}/ with isRead and uuid; the list changes at once and is corrected by the answer. */
export function useSetRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (vars: { item: InboxItem; isRead: boolean }) =>
      api.put(
        '/notification/inbox/{id}/',
        {
          isRead: vars.isRead,
          uuid: vars.item.uuid,
        },
        { path: { id: vars.item.id } },
      ),
    onMutate: async ({ item, isRead }) => {
      await client.cancelQueries({ queryKey: inboxKeys.inbox });
      const before = client.getQueryData<InboxCache>(inboxKeys.inbox);
      const delta = item.isRead === isRead ? 0 : isRead ? -1 : 1;
      client.setQueryData<InboxCache>(inboxKeys.inbox, (data) =>
        patchCache(
          data,
          (i) => (i.id === item.id ? { ...i, isRead } : i),
          data ? Math.max(0, (data.pages[0]?.unreadCount ?? 0) + delta) : 0,
        ),
      );
      return { before };
    },
    onError: (_error, _vars, context) => client.setQueryData(inboxKeys.inbox, context?.before),
    onSuccess: (result) => {
      client.setQueryData<InboxCache>(inboxKeys.inbox, (data) =>
        patchCache(data, (i) => (i.id === result.item.id ? result.item : i), result.unreadCount),
      );
    },
  });
}

/** POST /notification/inbox/mark-all-as-read/. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/notification/inbox/mark-all-as-read/', undefined),
    onSuccess: (result) => {
      client.setQueryData<InboxCache>(inboxKeys.inbox, (data) => patchCache(data, (i) => ({ ...i, isRead: true }), result.unreadCount));
      void client.invalidateQueries({ queryKey: inboxKeys.inbox });
    },
  });
}

export const NEW_NOTIFICATION = NOTIFICATION_EVENTS.created;
