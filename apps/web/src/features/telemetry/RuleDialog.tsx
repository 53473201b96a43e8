import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { ALARM_OPERATORS, ALARM_SEVERITIES, type AlarmRule, alarmRuleInputSchema } from '@sitewatch/contracts/alarms';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES } from '@sitewatch/contracts/devices';
import { useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useSaveRule } from './api.ts';

interface Form {
  name: string;
  deviceType: string;
  kind: 'threshold' | 'inactivity';
  key: string;
  operator: string;
  threshold: string;
  durationSeconds: string;
  severity: string;
  createTicket: boolean;
  enabled: boolean;
}

const fromRule = (r: AlarmRule | null): Form => ({
  name: r?.name ?? '',
  deviceType: r?.deviceType ?? 'GENERATOR',
  kind: r?.kind ?? 'threshold',
  key: r?.key ?? '',
  operator: r?.operator ?? '<',
  threshold: r?.threshold === null || r?.threshold === undefined ? '' : String(r.threshold),
  durationSeconds: String(r?.durationSeconds ?? 0),
  severity: r?.severity ?? 'MAJOR',
  createTicket: r?.createTicket ?? true,
  enabled: r?.enabled ?? true,
});

/** Create or edit an alarm rule (threshold on a key for a duration, or inactivity) for a device type. */
export function RuleDialog({ open, rule, onClose }: { open: boolean; rule: AlarmRule | null; onClose(): void }) {
  const [form, setForm] = useState<Form>(() => fromRule(rule));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveRule();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));

  function handleSave() {
    const parsed = alarmRuleInputSchema.safeParse({
      name: form.name,
      deviceType: form.deviceType,
      templateId: rule?.templateId ?? null,
      kind: form.kind,
      key: form.kind === 'threshold' ? form.key : null,
      operator: form.kind === 'threshold' ? form.operator : null,
      threshold: form.kind === 'threshold' && form.threshold.trim() !== '' ? Number(form.threshold) : null,
      durationSeconds: Number(form.durationSeconds),
      severity: form.severity,
      createTicket: form.createTicket,
      enabled: form.enabled,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the rule');
      return;
    }
    setError(null);
    save.mutate(
      { id: rule?.id, input: parsed.data },
      {
        onSuccess: () => {
          showToast('success', rule ? 'Alarm rule updated' : 'Alarm rule created');
          onClose();
        },
        onError: (e) => setError(isHttpError(e) ? (detailOf(e.data) ?? 'The rule could not be saved') : 'The rule could not be saved'),
      },
    );
  }

  return (
    <Dialog open={open} onClose={save.isPending ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{rule ? 'Edit alarm rule' : 'New alarm rule'}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <TextField label="Name" value={form.name} onChange={(e) => set({ name: e.target.value })} required autoFocus />
        <TextField select label="Device type" value={form.deviceType} onChange={(e) => set({ deviceType: e.target.value })}>
          {DEVICE_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {DEVICE_TYPE_LABELS[t]}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Condition" value={form.kind} onChange={(e) => set({ kind: e.target.value as Form['kind'] })}>
          <MenuItem value="threshold">A value crosses a threshold</MenuItem>
          <MenuItem value="inactivity">No data (inactivity)</MenuItem>
        </TextField>
        {form.kind === 'threshold' ? (
          <>
            <TextField
              label="Telemetry key"
              value={form.key}
              onChange={(e) => set({ key: e.target.value })}
              helperText="For example fuelLevel"
            />
            <TextField select label="Operator" value={form.operator} onChange={(e) => set({ operator: e.target.value })}>
              {ALARM_OPERATORS.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Threshold"
              type="number"
              value={form.threshold}
              onChange={(e) => set({ threshold: e.target.value })}
              helperText="true/false values count as 1/0"
            />
          </>
        ) : null}
        <TextField
          label={form.kind === 'threshold' ? 'For at least (seconds)' : 'Silent for (seconds)'}
          type="number"
          value={form.durationSeconds}
          onChange={(e) => set({ durationSeconds: e.target.value })}
        />
        <TextField select label="Severity" value={form.severity} onChange={(e) => set({ severity: e.target.value })}>
          {ALARM_SEVERITIES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={form.createTicket} onChange={(e) => set({ createTicket: e.target.checked })} />}
          label="Open a device health ticket"
        />
        <FormControlLabel
          control={<Switch checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />}
          label="Enabled"
        />
        {error ? <span style={{ color: '#d32f2f' }}>{error}</span> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={handleSave} disabled={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
