import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { badgeText, type InboxItem, NOTIFICATION_MESSAGES, NOTIFICATION_POPUP } from '@sitewatch/contracts/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useRealtimeConnection } from '../../lib/realtime.ts';
import { isSafeInAppPath } from '../../lib/safe-redirect.ts';
import { useUser } from '../../lib/session.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { useInbox, useMarkAllRead, useSetRead } from './api.ts';
import { LivePopups } from './LivePopups.tsx';
import { NotificationList } from './NotificationList.tsx';
import { popupsEnabled } from './popup-queue.ts';

/**
 * The notification bell of the top bar (SPEC 2.7): unread badge (99+ above 99), the scrolling inbox with Mark all
 * as read and per-item read/unread, and the live popups. It also keeps this tab's push socket open.
 */
export function Bell() {
  const client = useQueryClient();
  useRealtimeConnection(client);
  const user = useUser();
  const settings = useCustomerSettings().data;
  const navigate = useNavigate();
  const inbox = useInbox();
  const setRead = useSetRead();
  const markAll = useMarkAllRead();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const unread = inbox.data?.pages[0]?.unreadCount ?? 0;

  // Popups for items that polling found while the socket was down (push brings them otherwise).
  const baseline = useRef<number | null>(null);
  const polled = useMemo(() => {
    const first = inbox.data?.pages[0]?.contents ?? [];
    const newest = first.reduce((max, i) => Math.max(max, i.id), 0);
    if (baseline.current === null) {
      if (inbox.data) baseline.current = newest;
      return [];
    }
    const since = baseline.current;
    baseline.current = Math.max(since, newest);
    return first.filter((i) => i.id > since && !i.isRead);
  }, [inbox.data]);

  const open = (item: InboxItem) => {
    setAnchor(null);
    if (!item.isRead) setRead.mutate({ item, isRead: true });
    const url = item.notification.metadata.url;
    if (isSafeInAppPath(url)) void navigate(url);
  };

  const autoClose = settings?.popupAutoClose ?? NOTIFICATION_POPUP.autoClose;
  const autoCloseMs = autoClose ? (settings?.popupAutoCloseSec ?? NOTIFICATION_POPUP.autoCloseSec) * 1000 : null;
  const label = unread > 0 ? `${NOTIFICATION_MESSAGES.title}: ${unread} unread` : NOTIFICATION_MESSAGES.title;
  return (
    <>
      <Tooltip title={NOTIFICATION_MESSAGES.title}>
        <IconButton onClick={(e) => setAnchor(e.currentTarget)} aria-label={label} aria-haspopup="dialog" data-testid="notification-bell">
          <Badge
            color="error"
            badgeContent={unread > 0 ? badgeText(unread) : undefined}
            invisible={unread === 0}
            data-testid="notification-badge"
          >
            <NotificationsNoneOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 380, maxWidth: 'calc(100vw - 24px)' }, 'data-testid': 'notification-panel' } as object }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }} component="h2">
            {NOTIFICATION_MESSAGES.title}
          </Typography>
          <Button
            size="small"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
            data-testid="notification-mark-all"
          >
            {NOTIFICATION_MESSAGES.markAllAsRead}
          </Button>
        </Box>
        <NotificationList inbox={inbox} onOpen={open} onToggleRead={(item) => setRead.mutate({ item, isRead: !item.isRead })} />
      </Popover>
      <LivePopups
        enabled={popupsEnabled(settings?.livePopup, user?.notificationConfig?.popup)}
        autoCloseMs={autoCloseMs}
        polled={polled}
        onView={open}
      />
    </>
  );
}
