import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ALARM_SEVERITIES } from '@sitewatch/contracts/alarms';
import { TRAP_LIMITS, TRAP_MESSAGES, type TrapFilter, type TrapFilterInput } from '@sitewatch/contracts/snmp';
import { type FormEvent, useState } from 'react';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useAllDestinations, useSaveFilter } from './api.ts';

const OID = /^\.?\d{1,10}(\.\d{1,10}){1,127}$/;
type Errors = Partial<Record<'name' | 'oidPrefix' | 'varbindOid' | 'varbindValue' | 'destinations' | 'form', string>>;

/** Create or edit a trap filter: what it matches and which destinations get the traps. */
export function FilterDialog(props: { filter: TrapFilter | null; onClose(): void }) {
  const f = props.filter;
  const fullScreen = useMediaQuery('(max-width:600px)');
  const save = useSaveFilter(f?.id ?? null);
  const destinations = useAllDestinations();
  const [site, setSite] = useState<Option | null>(f?.assetId ? { id: f.assetId, name: f.siteName ?? '' } : null);
  const [device, setDevice] = useState<Option | null>(
    f?.deviceId ? { id: f.deviceId, name: f.deviceLabel ?? '', label: f.deviceLabel ?? '' } : null,
  );
  const [v, setV] = useState({
    name: f?.name ?? '',
    oidPrefix: f?.oidPrefix ?? '',
    varbindOid: f?.varbindOid ?? '',
    varbindValue: f?.varbindValue ?? '',
    minSeverity: f?.minSeverity ?? '',
    enabled: f?.enabled ?? true,
  });
  const [chosen, setChosen] = useState<number[]>(f?.destinationIds ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof typeof v) => (ev: { target: { value: string } }) => setV((o) => ({ ...o, [key]: ev.target.value }));

  function submit(ev: FormEvent) {
    ev.preventDefault();
    const next: Errors = {};
    if (!v.name.trim()) next.name = TRAP_MESSAGES.nameRequired;
    if (v.oidPrefix.trim() && !OID.test(v.oidPrefix.trim())) next.oidPrefix = TRAP_MESSAGES.oid;
    if (v.varbindOid.trim() && !OID.test(v.varbindOid.trim())) next.varbindOid = TRAP_MESSAGES.oid;
    if (Boolean(v.varbindOid.trim()) !== Boolean(v.varbindValue.trim())) next.varbindValue = TRAP_MESSAGES.varbindPair;
    if (chosen.length === 0) next.destinations = TRAP_MESSAGES.destinationsRequired;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const input: TrapFilterInput = {
      name: v.name.trim(),
      oidPrefix: v.oidPrefix.trim(),
      varbindOid: v.varbindOid.trim() || null,
      varbindValue: v.varbindValue.trim() || null,
      deviceId: device?.id ?? null,
      assetId: site?.id ?? null,
      minSeverity: (v.minSeverity || null) as TrapFilterInput['minSeverity'],
      destinationIds: chosen,
      enabled: v.enabled,
    };
    save.mutate(input, {
      onSuccess: () => {
        toast.success(f ? TRAP_MESSAGES.updated : TRAP_MESSAGES.created);
        props.onClose();
      },
      onError: (error) => setErrors({ form: isHttpError(error) ? (error.detail ?? error.message) : 'Not saved. Try again.' }),
    });
  }

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <form onSubmit={submit} noValidate data-testid="filter-form">
        <DialogTitle>{f ? `Edit ${f.name}` : 'Add trap filter'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {errors.form ? <Alert severity="error">{errors.form}</Alert> : null}
            <TextField
              label="Name"
              required
              size="small"
              value={v.name}
              onChange={set('name')}
              error={Boolean(errors.name)}
              helperText={errors.name}
              slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.name, 'data-testid': 'filter-name' } }}
            />
            <TextField
              label="Trap OID prefix"
              size="small"
              value={v.oidPrefix}
              onChange={set('oidPrefix')}
              error={Boolean(errors.oidPrefix)}
              helperText={errors.oidPrefix ?? 'Empty: every trap. 1.3.6.1.6.3.1.1.5 takes the generic traps.'}
              slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.oid, 'data-testid': 'filter-oid' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Varbind OID"
                size="small"
                fullWidth
                value={v.varbindOid}
                onChange={set('varbindOid')}
                error={Boolean(errors.varbindOid)}
                helperText={errors.varbindOid}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.oid } }}
              />
              <TextField
                label="Varbind value contains"
                size="small"
                fullWidth
                value={v.varbindValue}
                onChange={set('varbindValue')}
                error={Boolean(errors.varbindValue)}
                helperText={errors.varbindValue}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.value } }}
              />
            </Stack>
            <SitePicker
              label="Site (any when empty)"
              value={site}
              onChange={(s) => {
                setSite(s);
                setDevice(null);
              }}
            />
            <DevicePicker label="Source device (any when empty)" value={device} onChange={setDevice} assetId={site?.id ?? null} />
            <TextField select label="Severity at least" size="small" value={v.minSeverity} onChange={set('minSeverity')}>
              <MenuItem value="">Any trap</MenuItem>
              {ALARM_SEVERITIES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            <FormGroup data-testid="filter-destinations">
              <FormLabel component="legend">Destinations</FormLabel>
              {(destinations.data?.contents ?? []).map((d) => (
                <FormControlLabel
                  key={d.id}
                  label={`${d.name} (${d.host}:${d.port})`}
                  control={
                    <Checkbox
                      checked={chosen.includes(d.id)}
                      onChange={(e) => setChosen((c) => (e.target.checked ? [...c, d.id] : c.filter((x) => x !== d.id)))}
                    />
                  }
                />
              ))}
              {destinations.data?.contents.length === 0 ? <Alert severity="info">Add a trap destination first.</Alert> : null}
              {errors.destinations ? <Alert severity="error">{errors.destinations}</Alert> : null}
            </FormGroup>
            <FormControlLabel
              control={<Switch checked={v.enabled} onChange={(e) => setV((o) => ({ ...o, enabled: e.target.checked }))} />}
              label="Enabled"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="filter-save">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
