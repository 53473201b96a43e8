import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import { type InboxItem, NOTIFICATION_INBOX, NOTIFICATION_MESSAGES } from '@sitewatch/contracts/notifications';
import { type UIEvent, useEffect, useRef } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import type { useInbox } from './api.ts';
import { NotificationItem } from './NotificationItem.tsx';

interface Props {
  inbox: ReturnType<typeof useInbox>;
  onOpen(item: InboxItem): void;
  onToggleRead(item: InboxItem): void;
}

/**
 * The scrolling inbox: the next page of 10 loads when the list is scrolled to within 50 px of its end, after a
 * 500 ms pause (SPEC 9), so that a fast scroll does not fire a burst of requests.
 */
export function NotificationList({ inbox, onOpen, onToggleRead }: Props) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const items = inbox.data?.pages.flatMap((p) => p.contents) ?? [];

  const handleScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    const nearEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= NOTIFICATION_INBOX.scrollOffsetPx;
    if (!nearEnd || !inbox.hasNextPage || inbox.isFetchingNextPage || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void inbox.fetchNextPage();
    }, NOTIFICATION_INBOX.scrollDelayMs);
  };

  if (inbox.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress size={28} aria-label="Loading notifications" />
      </Box>
    );
  }
  if (inbox.isError && items.length === 0) return <ErrorState onRetry={() => void inbox.refetch()} />;
  if (items.length === 0) {
    return (
      <EmptyState compact image="/images/notifications-empty.svg" title={NOTIFICATION_MESSAGES.empty} data-testid="notifications-empty" />
    );
  }
  return (
    <Box onScroll={handleScroll} sx={{ maxHeight: 440, overflowY: 'auto' }} data-testid="notification-list">
      <List disablePadding>
        {items.map((item) => (
          <NotificationItem key={item.id} item={item} onOpen={onOpen} onToggleRead={onToggleRead} />
        ))}
      </List>
      {inbox.isFetchingNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5 }}>
          <CircularProgress size={20} aria-label="Loading more notifications" />
        </Box>
      ) : null}
    </Box>
  );
}
