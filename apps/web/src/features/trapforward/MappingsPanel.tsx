import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ALARM_SEVERITIES } from '@sitewatch/contracts/alarms';
import { TRAP_LIMITS, TRAP_MESSAGES, TRAP_PERMISSIONS, type TrapMapping, type TrapMappingInput } from '@sitewatch/contracts/snmp';
import { useState } from 'react';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { useDeleteMapping, useMappings, useSaveMapping } from './api.ts';
import { TrapFormDialog, useTrapForm } from './TrapFormDialog.tsx';

const OID = /^\.?\d{1,10}(\.\d{1,10}){1,127}$/;
const DEVICE_TYPES = ['CAMERA', 'DVR', 'ALARMPANEL', 'HDD', 'GENERATOR', 'UPS', 'RECTIFIER', 'ETH', 'ROUTER'];

function MappingDialog(props: { mapping: TrapMapping | null; onClose(): void }) {
  const m = props.mapping;
  const save = useSaveMapping(m?.id ?? null);
  const form = useTrapForm(
    {
      name: m?.name ?? '',
      trapOid: m?.trapOid ?? '',
      action: m?.action ?? 'raise',
      alarmKey: m?.alarmKey ?? '',
      instanceOid: m?.instanceOid ?? '',
      severity: m?.severity ?? 'MAJOR',
      createTicket: m?.createTicket ?? false,
      deviceType: m?.deviceType ?? '',
      enabled: m?.enabled ?? true,
    },
    save,
    { editing: m !== null, onClose: props.onClose },
  );
  const { v, set, errors } = form;

  function submit() {
    const next: typeof errors = {};
    if (!v.name.trim()) next.name = TRAP_MESSAGES.nameRequired;
    if (!OID.test(v.trapOid.trim())) next.trapOid = TRAP_MESSAGES.oid;
    if (!v.alarmKey.trim()) next.alarmKey = 'Alarm key is required';
    if (v.instanceOid.trim() && !OID.test(v.instanceOid.trim())) next.instanceOid = TRAP_MESSAGES.oid;
    form.submit(
      next,
      (): TrapMappingInput => ({
        name: v.name.trim(),
        trapOid: v.trapOid.trim(),
        action: v.action,
        alarmKey: v.alarmKey.trim(),
        instanceOid: v.instanceOid.trim() || null,
        severity: v.severity,
        createTicket: v.createTicket,
        deviceType: v.deviceType || null,
        enabled: v.enabled,
      }),
    );
  }

  return (
    <TrapFormDialog title={m ? `Edit ${m.name}` : 'Add OID mapping'} testId="mapping" form={form} nameLabel="Alarm name" onSubmit={submit}>
      <TextField
        label="Trap OID"
        required
        size="small"
        {...form.text('trapOid')}
        slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.oid } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select label="Action" size="small" fullWidth value={v.action} onChange={set('action')}>
          <MenuItem value="raise">Raise the alarm</MenuItem>
          <MenuItem value="clear">Clear the alarm</MenuItem>
        </TextField>
        <TextField select label="Severity" size="small" fullWidth value={v.severity} onChange={set('severity')}>
          {ALARM_SEVERITIES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField
        label="Alarm key"
        required
        size="small"
        value={v.alarmKey}
        onChange={set('alarmKey')}
        error={Boolean(errors.alarmKey)}
        helperText={errors.alarmKey ?? 'A raise and the clear that ends it share this key.'}
        slotProps={{ htmlInput: { maxLength: 80 } }}
      />
      <TextField
        label="Instance varbind OID"
        size="small"
        value={v.instanceOid}
        onChange={set('instanceOid')}
        error={Boolean(errors.instanceOid)}
        helperText={errors.instanceOid ?? 'Optional: one alarm per value of this varbind (e.g. ifIndex).'}
        slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.oid } }}
      />
      <TextField select label="Device type" size="small" value={v.deviceType} onChange={set('deviceType')}>
        <MenuItem value="">Every type</MenuItem>
        {DEVICE_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {t}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Switch checked={v.createTicket} onChange={(e) => form.setV((o) => ({ ...o, createTicket: e.target.checked }))} />}
        label="Open a device-health ticket"
      />
    </TrapFormDialog>
  );
}

/** The tenant's OID → alarm mappings: which traps raise or clear which alarm. */
export function MappingsPanel(props: { permissions: Set<string> }) {
  const { permissions } = props;
  const list = useMappings();
  const remove = useDeleteMapping();
  const [editing, setEditing] = useState<TrapMapping | 'new' | null>(null);
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'Traps of this OID no longer raise or clear the alarm; alarms already raised stay until cleared.',
    successMessage: TRAP_MESSAGES.deleted,
  });
  return (
    <Box>
      {permissions.has(TRAP_PERMISSIONS.addFilter) ? (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1.5 }}>
          <Button variant="outlined" onClick={() => setEditing('new')} data-testid="add-mapping">
            Add mapping
          </Button>
        </Box>
      ) : null}
      {confirm.dialog}
      {editing ? <MappingDialog mapping={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {list.isError ? (
        <ErrorState onRetry={() => list.refetch()} />
      ) : list.data?.totalCount === 0 ? (
        <EmptyState
          title="No OID mappings yet"
          description="Map trap OIDs (linkDown, UPS on battery) to alarms on the device that sent them."
        />
      ) : (
        <Stack spacing={1} data-testid="mapping-list">
          {(list.data?.contents ?? []).map((m) => (
            <Paper key={m.id} variant="outlined" sx={{ p: 1.5 }}>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 140 }}>{m.name}</Typography>
                <Chip
                  size="small"
                  label={m.action === 'raise' ? 'Raises' : 'Clears'}
                  color={m.action === 'raise' ? 'warning' : 'success'}
                />
                <Chip size="small" label={m.severity} variant="outlined" />
                {m.enabled ? null : <Chip size="small" label="Disabled" />}
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {m.trapOid} · key {m.alarmKey}
                {m.instanceOid ? ` per ${m.instanceOid}` : ''}
                {m.deviceType ? ` · ${m.deviceType}` : ''}
                {m.createTicket ? ' · opens a ticket' : ''}
              </Typography>
              <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
                {permissions.has(TRAP_PERMISSIONS.changeFilter) ? (
                  <Button size="small" onClick={() => setEditing(m)} aria-label={`Edit ${m.name} ${m.action}`}>
                    Edit
                  </Button>
                ) : null}
                {permissions.has(TRAP_PERMISSIONS.deleteFilter) ? (
                  <Button size="small" color="error" onClick={() => confirm.ask({ id: m.id, name: m.name })}>
                    Delete
                  </Button>
                ) : null}
              </Box>
            </Paper>
          ))}
        </Stack>
      )}
    </Box>
  );
}
