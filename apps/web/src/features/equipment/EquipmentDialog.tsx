import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  EQUIPMENT_CATEGORIES,
  EQUIPMENT_LIMITS,
  EQUIPMENT_MESSAGES,
  EQUIPMENT_STATUS_LABELS,
  EQUIPMENT_STATUSES,
  type Equipment,
  type EquipmentInput,
} from '@sitewatch/contracts/equipment';
import { type FormEvent, useState } from 'react';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useSaveEquipment } from './api.ts';

type Errors = Partial<Record<'site' | 'name' | 'serial' | 'warrantyUntil' | 'form', string>>;

/** Create or edit one equipment; refuses to save what the server would refuse, and shows its answer otherwise. */
export function EquipmentDialog(props: { open: boolean; equipment: Equipment | null; onClose(): void }) {
  const e = props.equipment;
  const fullScreen = useMediaQuery('(max-width:600px)');
  const save = useSaveEquipment(e?.id ?? null);
  const [site, setSite] = useState<Option | null>(e ? { id: e.assetId, name: e.siteName } : null);
  const [device, setDevice] = useState<Option | null>(
    e?.deviceId ? { id: e.deviceId, name: e.deviceLabel ?? '', label: e.deviceLabel ?? '' } : null,
  );
  const [values, setValues] = useState({
    name: e?.name ?? '',
    category: (e?.category ?? 'Generator') as EquipmentInput['category'],
    make: e?.make ?? '',
    model: e?.model ?? '',
    serial: e?.serial ?? '',
    installDate: e?.installDate ?? '',
    warrantyUntil: e?.warrantyUntil ?? '',
    notes: e?.notes ?? '',
    status: (e?.status ?? 'ACTIVE') as EquipmentInput['status'],
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof typeof values) => (ev: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: ev.target.value }));

  function submit(ev: FormEvent) {
    ev.preventDefault();
    const next: Errors = {};
    if (!site) next.site = EQUIPMENT_MESSAGES.siteRequired;
    if (!values.name.trim()) next.name = EQUIPMENT_MESSAGES.nameRequired;
    if (!values.serial.trim()) next.serial = EQUIPMENT_MESSAGES.serialRequired;
    if (values.installDate && values.warrantyUntil && values.warrantyUntil < values.installDate)
      next.warrantyUntil = EQUIPMENT_MESSAGES.warrantyBeforeInstall;
    setErrors(next);
    if (Object.keys(next).length > 0 || !site) return;
    const input: EquipmentInput = {
      ...values,
      assetId: site.id,
      deviceId: device?.id ?? null,
      installDate: values.installDate || null,
      warrantyUntil: values.warrantyUntil || null,
    };
    save.mutate(input, {
      onSuccess: () => {
        toast.success(e ? EQUIPMENT_MESSAGES.updated : EQUIPMENT_MESSAGES.created);
        props.onClose();
      },
      onError: (error) => {
        const detail = isHttpError(error) ? (error.detail ?? error.message) : 'Not saved. Try again.';
        setErrors(detail === EQUIPMENT_MESSAGES.serialTaken ? { serial: detail } : { form: detail });
      },
    });
  }

  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <form onSubmit={submit} noValidate data-testid="equipment-form">
        <DialogTitle>{e ? `Edit ${e.name}` : 'Add equipment'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {errors.form ? <Alert severity="error">{errors.form}</Alert> : null}
            <SitePicker
              label="Site"
              value={site}
              onChange={(v) => {
                setSite(v);
                setDevice(null);
              }}
              required
            />
            {errors.site ? <Alert severity="error">{errors.site}</Alert> : null}
            <TextField
              label="Name"
              required
              size="small"
              value={values.name}
              onChange={set('name')}
              error={Boolean(errors.name)}
              helperText={errors.name}
              slotProps={{ htmlInput: { maxLength: EQUIPMENT_LIMITS.name, 'data-testid': 'equipment-name' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField select label="Category" size="small" value={values.category} onChange={set('category')} fullWidth>
                {EQUIPMENT_CATEGORIES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c}
                  </MenuItem>
                ))}
              </TextField>
              <TextField select label="Status" size="small" value={values.status} onChange={set('status')} fullWidth>
                {EQUIPMENT_STATUSES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {EQUIPMENT_STATUS_LABELS[s]}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Make"
                size="small"
                value={values.make}
                onChange={set('make')}
                fullWidth
                slotProps={{ htmlInput: { maxLength: EQUIPMENT_LIMITS.text } }}
              />
              <TextField
                label="Model"
                size="small"
                value={values.model}
                onChange={set('model')}
                fullWidth
                slotProps={{ htmlInput: { maxLength: EQUIPMENT_LIMITS.text } }}
              />
            </Stack>
            <TextField
              label="Serial number"
              required
              size="small"
              value={values.serial}
              onChange={set('serial')}
              error={Boolean(errors.serial)}
              helperText={errors.serial}
              slotProps={{ htmlInput: { maxLength: EQUIPMENT_LIMITS.serial, 'data-testid': 'equipment-serial' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Install date"
                type="date"
                size="small"
                value={values.installDate}
                onChange={set('installDate')}
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                label="Warranty until"
                type="date"
                size="small"
                value={values.warrantyUntil}
                onChange={set('warrantyUntil')}
                error={Boolean(errors.warrantyUntil)}
                helperText={errors.warrantyUntil}
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </Stack>
            <DevicePicker
              label="Linked device (reports its telemetry)"
              value={device}
              onChange={setDevice}
              assetId={site?.id ?? null}
              disabled={!site}
            />
            <TextField
              label="Notes"
              size="small"
              multiline
              minRows={2}
              value={values.notes}
              onChange={set('notes')}
              slotProps={{ htmlInput: { maxLength: EQUIPMENT_LIMITS.notes } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="equipment-save">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
