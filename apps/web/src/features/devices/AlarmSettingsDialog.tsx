import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  alarmActionQuestion,
  alarmActionSuccess,
  DEVICE_ALARM_DIALOG,
  DEVICE_MESSAGES,
  type DeviceToggleKey,
} from '@sitewatch/contracts/devices';
import { useState } from 'react';
import { showToast } from '../../lib/toasts.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { useAlarmAction, useDevice } from './api.ts';

const SETTING: Record<DeviceToggleKey, 'maintenanceMode' | 'muteMode' | 'enableDevice'> = {
  maintenance: 'maintenanceMode',
  muteDevice: 'muteMode',
  enableDevice: 'enableDevice',
};
const ORDER: DeviceToggleKey[] = ['maintenance', 'muteDevice', 'enableDevice'];

/** Whether any toggle of the dialog is configured to show (SPEC 6: each alarm toggle shows only if configured). */
export function useAlarmDialogAvailable(): boolean {
  const settings = useCustomerSettings().data?.deviceAlarmActions;
  return Boolean(settings && ORDER.some((k) => settings[SETTING[k]].show));
}

interface Pending {
  key: DeviceToggleKey;
  /** The switch's new position; for Disable Device "on" means the device gets disabled. */
  on: boolean;
}

/**
 * SPEC 2.14 / 4: Maintenance, Mute Device and Disable Device, each confirmed before it is posted to
 * alarm-actions; a note when the action raises a ticket; 'Apply to all child devices' for parent devices.
 */
export function AlarmSettingsDialog({
  deviceId,
  open,
  onClose,
  onUpdated,
}: {
  deviceId: number;
  open: boolean;
  onClose(): void;
  onUpdated?: () => void;
}) {
  const device = useDevice(open ? deviceId : null);
  const settings = useCustomerSettings().data?.deviceAlarmActions;
  const action = useAlarmAction(deviceId);
  const [pending, setPending] = useState<Pending | null>(null);
  const [applyToChildren, setApplyToChildren] = useState(false);
  const [note, setNote] = useState('');

  const metadata = device.data?.metadata;
  const isOn = (key: DeviceToggleKey) => (key === 'enableDevice' ? metadata?.enableDevice === false : Boolean(metadata?.[key]));
  const createsTicket = pending ? Boolean(settings?.[SETTING[pending.key]].createTicket) : false;

  const handleConfirm = () => {
    if (!pending) return;
    const telemetryValue = pending.key === 'enableDevice' ? !pending.on : pending.on;
    action.mutate(
      {
        telemetryKey: pending.key,
        telemetryValue,
        updateChildDevice: Boolean(device.data?.isParent) && applyToChildren,
        createTicket: createsTicket,
        description: createsTicket ? note.trim() : '',
      },
      {
        onSuccess: () => {
          showToast('success', alarmActionSuccess(pending.key, telemetryValue));
          setPending(null);
          setNote('');
          onUpdated?.();
          onClose();
        },
        onError: () => {
          showToast('error', DEVICE_MESSAGES.alarmActionFailed);
          setPending(null);
        },
      },
    );
  };

  return (
    <>
      <Dialog open={open && !pending} onClose={onClose} maxWidth="xs" fullWidth data-testid="alarm-settings-dialog">
        <DialogTitle>{DEVICE_ALARM_DIALOG.title}</DialogTitle>
        <DialogContent>
          {device.isLoading || !device.data ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 2 }}>
              <CircularProgress size={20} />
              <Typography>{DEVICE_ALARM_DIALOG.loading}</Typography>
            </Box>
          ) : (
            <Box sx={{ display: 'grid', gap: 1 }}>
              <Typography variant="body2" color="text.secondary">
                {device.data.label} · {device.data.status}
              </Typography>
              {ORDER.filter((key) => settings?.[SETTING[key]].show).map((key) => (
                <FormControlLabel
                  key={key}
                  control={
                    <Switch
                      checked={isOn(key)}
                      onChange={(e) => setPending({ key, on: e.target.checked })}
                      slotProps={{ input: { 'data-testid': `toggle-${key}` } as object }}
                    />
                  }
                  label={DEVICE_ALARM_DIALOG.toggles[key]}
                />
              ))}
              {device.data.isParent ? (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={applyToChildren}
                      onChange={(e) => setApplyToChildren(e.target.checked)}
                      data-testid="apply-children"
                    />
                  }
                  label={DEVICE_ALARM_DIALOG.applyToChildren}
                />
              ) : null}
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={Boolean(pending)}
        onClose={action.isPending ? undefined : () => setPending(null)}
        maxWidth="xs"
        fullWidth
        data-testid="alarm-confirm-dialog"
      >
        <DialogTitle>{pending ? alarmActionQuestion(pending.key, pending.on) : ''}</DialogTitle>
        <DialogContent>
          {applyToChildren && device.data?.isParent ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              This applies to {device.data.label} and every device under it.
            </Alert>
          ) : null}
          {createsTicket ? (
            <TextField
              label={DEVICE_ALARM_DIALOG.notePrompt}
              multiline
              minRows={3}
              fullWidth
              value={note}
              onChange={(e) => setNote(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 250, 'data-testid': 'alarm-note' } }}
              helperText={`${note.length}/250 · a ticket is raised for this action`}
            />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPending(null)} disabled={action.isPending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={handleConfirm} disabled={action.isPending} data-testid="alarm-confirm">
            Confirm
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
