import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SYSTEM_ALERTS_POLL_MS } from '@sitewatch/contracts/constants';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { type SystemAlert, useAddSystemAlert, useRemoveSystemAlert, useSystemAlerts } from '../tenant-settings/api.ts';

/** SPEC 5: 'Please use maximum 250 characters'. */
export const ALERT_MAX = 250;

export function alertMessageError(message: string, t: (key: string) => string): string | undefined {
  if (message.length > ALERT_MAX) return COMMON_MESSAGES.maxCharacters;
  if (!message.trim()) return t('admin.required');
  return undefined;
}

export function SystemAlertsPanel() {
  const { t } = useTranslation();
  const alerts = useSystemAlerts(true, SYSTEM_ALERTS_POLL_MS);
  const add = useAddSystemAlert();
  const remove = useRemoveSystemAlert();
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState<SystemAlert | null>(null);
  const tooLong = message.length > ALERT_MAX;
  const error = touched || tooLong ? alertMessageError(message, t) : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (alertMessageError(message, t)) return;
    add.mutate(message.trim(), {
      onSuccess: () => {
        toast.success(COMMON_MESSAGES.successfullyCreated);
        setMessage('');
        setTouched(false);
      },
      onError: (failure) => toast.error((isHttpError(failure) && detailOf(failure.data)) || t('errors.loadFailed')),
    });
  };

  const rows = alerts.data ?? [];
  return (
    <Box data-testid="system-alerts-panel">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('admin.alertsIntro')}
      </Typography>
      <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit} sx={{ p: 2, mb: 3 }}>
        <TextField
          label={t('admin.newAlert')}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onBlur={() => setTouched(Boolean(message))}
          error={Boolean(error)}
          helperText={error ?? t('admin.characters', { count: message.length, max: ALERT_MAX })}
          multiline
          minRows={2}
          slotProps={{
            htmlInput: { 'data-testid': 'alert-message', 'aria-describedby': 'alert-message-help' },
            formHelperText: { id: 'alert-message-help' },
          }}
        />
        <Box sx={{ mt: 1.5 }}>
          <Button type="submit" variant="contained" disabled={add.isPending || tooLong} data-testid="alert-add">
            {t('admin.addAlert')}
          </Button>
        </Box>
      </Paper>
      {alerts.isPending ? (
        <Skeleton height={48} />
      ) : rows.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState compact title={t('admin.alertsEmpty')} />
        </Paper>
      ) : (
        <Paper variant="outlined">
          <List aria-label={t('admin.alerts')} data-testid="alerts-list">
            {rows.map((alert) => (
              <ListItem
                key={alert.id}
                divider
                data-testid="alert-row"
                secondaryAction={
                  <IconButton edge="end" aria-label={t('admin.removeAlert')} onClick={() => setPending(alert)} data-testid="alert-remove">
                    <DeleteOutlined />
                  </IconButton>
                }
              >
                <ListItemText primary={alert.message} sx={{ pr: 4, overflowWrap: 'anywhere' }} />
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <ConfirmDialog
        open={Boolean(pending)}
        title={t('admin.removeTitle')}
        text={pending ? t('admin.removeText', { message: pending.message }) : undefined}
        confirmLabel={t('app.delete')}
        destructive
        busy={remove.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          remove.mutate(pending.id, {
            onSuccess: () => toast.success(COMMON_MESSAGES.successfullyDeleted),
            onSettled: () => setPending(null),
          });
        }}
      />
    </Box>
  );
}
