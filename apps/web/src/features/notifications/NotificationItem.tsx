import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type InboxItem, NOTIFICATION_MESSAGES } from '@sitewatch/contracts/notifications';
import { can } from '../../lib/access.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import { useUser } from '../../lib/session.ts';
import { CameraAtEventButton } from '../video/CameraAtEventButton.tsx';

interface Props {
  item: InboxItem;
  onOpen(item: InboxItem): void;
  onToggleRead(item: InboxItem): void;
}

/** One inbox entry: what happened, where, when; opening it follows its link; a button toggles read/unread. */
export function NotificationItem({ item, onOpen, onToggleRead }: Props) {
  const { message, metadata, actor } = item.notification;
  const asset = metadata.data.additionalInformation.assetLabel;
  const toggleLabel = item.isRead ? NOTIFICATION_MESSAGES.markAsUnread : NOTIFICATION_MESSAGES.markAsRead;
  // an alarm's or a ticket's device: one click to its cameras at the event time
  const user = useUser();
  const deviceId = metadata.data.entityId;
  const withCamera = deviceId !== null && /^(alarm|ticket)\./.test(item.notification.verb) && can(user, 'view_camera');
  return (
    <ListItem
      disablePadding
      data-testid="notification-item"
      data-read={item.isRead ? 'true' : 'false'}
      secondaryAction={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          {withCamera && deviceId !== null ? <CameraAtEventButton deviceId={deviceId} at={item.createdAt} /> : null}
          <Tooltip title={toggleLabel}>
            <IconButton
              edge="end"
              size="small"
              aria-label={toggleLabel}
              onClick={() => onToggleRead(item)}
              data-testid="notification-toggle-read"
            >
              {item.isRead ? <MarkEmailUnreadOutlined fontSize="small" /> : <MarkEmailReadOutlined fontSize="small" />}
            </IconButton>
          </Tooltip>
        </Box>
      }
      sx={{ bgcolor: item.isRead ? 'transparent' : 'action.hover', borderBottom: 1, borderColor: 'divider' }}
    >
      <ListItemButton onClick={() => onOpen(item)} sx={{ alignItems: 'flex-start', gap: 1.25, pr: withCamera ? 10 : 6 }}>
        <Box
          aria-hidden
          sx={{ width: 8, height: 8, mt: 0.9, borderRadius: '50%', flexShrink: 0, bgcolor: item.isRead ? 'transparent' : 'primary.main' }}
        />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: item.isRead ? 400 : 600, wordBreak: 'break-word' }}>
            {message}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            {[asset, actor?.email].filter(Boolean).join(' · ')}
          </Typography>
          <Typography variant="caption" color="text.secondary" title={formatDateTime(item.createdAt)}>
            {formatRelative(item.createdAt)}
          </Typography>
        </Box>
      </ListItemButton>
    </ListItem>
  );
}
