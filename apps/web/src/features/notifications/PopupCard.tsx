import CloseIcon from '@mui/icons-material/Close';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type InboxItem, NOTIFICATION_MESSAGES } from '@sitewatch/contracts/notifications';
import { useState } from 'react';
import { formatRelative } from '../../lib/format.ts';
import { AlarmTicketAction } from '../telemetry/AlarmTicketAction.tsx';
import { changeToInProgress, isInProgress, isTicketNotice } from './ticket-status.ts';

interface Props {
  item: InboxItem;
  onView(item: InboxItem): void;
  onClose(item: InboxItem): void;
}

/** One live popup (SPEC 2.7): the notice, and View, Change to Inprogress (tickets) and Close. */
export function PopupCard({ item, onView, onClose }: Props) {
  const { message, metadata } = item.notification;
  const data = metadata.data;
  const [state, setState] = useState<'idle' | 'busy' | 'done'>(isInProgress(item) ? 'done' : 'idle');
  const handleInProgress = async () => {
    if (data.id === null) return;
    setState('busy');
    setState((await changeToInProgress(data.id).catch(() => false)) ? 'done' : 'idle');
  };
  return (
    <Paper
      elevation={8}
      sx={{ p: 1.5, width: 340, maxWidth: 'calc(100vw - 32px)', borderLeft: 4, borderColor: 'primary.main' }}
      data-testid="live-popup"
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <NotificationsActiveOutlined color="primary" fontSize="small" sx={{ mt: 0.25 }} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }} data-testid="live-popup-message">
            {message}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
            {data.additionalInformation.assetLabel ? <Chip size="small" label={data.additionalInformation.assetLabel} /> : null}
            {data.priority ? <Chip size="small" variant="outlined" label={data.priority} /> : null}
            {data.status ? (
              <Chip size="small" variant="outlined" label={state === 'done' && isTicketNotice(item) ? 'INPROGRESS' : data.status} />
            ) : null}
          </Box>
          <Typography variant="caption" color="text.secondary">
            {formatRelative(item.createdAt)}
          </Typography>
        </Box>
        <IconButton size="small" aria-label={NOTIFICATION_MESSAGES.close} onClick={() => onClose(item)} data-testid="live-popup-close">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
        {isTicketNotice(item) ? (
          <Button size="small" disabled={state !== 'idle'} onClick={() => void handleInProgress()} data-testid="live-popup-inprogress">
            {state === 'done' ? NOTIFICATION_MESSAGES.alreadyInProgress : NOTIFICATION_MESSAGES.changeToInprogress}
          </Button>
        ) : null}
        {item.notification.verb === 'alarm.raised' && typeof data.alarmId === 'number' ? (
          <AlarmTicketAction alarm={{ id: data.alarmId, ticketId: null, ticketNo: null, ticketOpen: false }} />
        ) : null}
        <Button size="small" variant="contained" onClick={() => onView(item)} data-testid="live-popup-view">
          {NOTIFICATION_MESSAGES.view}
        </Button>
      </Box>
    </Paper>
  );
}
