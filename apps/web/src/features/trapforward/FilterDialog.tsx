import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ALARM_SEVERITIES } from '@sitewatch/contracts/alarms';
import { TRAP_LIMITS, TRAP_MESSAGES, type TrapFilter, type TrapFilterInput } from '@sitewatch/contracts/snmp';
import { useState } from 'react';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useAllDestinations, useSaveFilter } from './api.ts';
import { TrapFormDialog, useTrapForm } from './TrapFormDialog.tsx';

const OID = /^\.?\d{1,10}(\.\d{1,10}){1,127}$/;
type Errors = Partial<Record<'name' | 'oidPrefix' | 'varbindOid' | 'varbindValue' | 'destinations' | 'form', string>>;

/** Create or edit a trap filter: what it matches and which destinations get the traps. */
export function FilterDialog(props: { filter: TrapFilter | null; onClose(): void }) {
  const f = props.filter;
  const save = useSaveFilter(f?.id ?? null);
  const destinations = useAllDestinations();
  const [site, setSite] = useState<Option | null>(f?.assetId ? { id: f.assetId, name: f.siteName ?? '' } : null);
  const [device, setDevice] = useState<Option | null>(
    f?.deviceId ? { id: f.deviceId, name: f.deviceLabel ?? '', label: f.deviceLabel ?? '', assetName: f.deviceSiteName } : null,
  );
  const form = useTrapForm(
    {
      name: f?.name ?? '',
      oidPrefix: f?.oidPrefix ?? '',
      varbindOid: f?.varbindOid ?? '',
      varbindValue: f?.varbindValue ?? '',
      minSeverity: f?.minSeverity ?? '',
      enabled: f?.enabled ?? true,
    },
    save,
    { editing: f !== null, onClose: props.onClose },
  );
  const { v, set, errors } = form;
  const [chosen, setChosen] = useState<number[]>(f?.destinationIds ?? []);

  function submit() {
    const next: Errors = {};
    if (!v.name.trim()) next.name = TRAP_MESSAGES.nameRequired;
    if (v.oidPrefix.trim() && !OID.test(v.oidPrefix.trim())) next.oidPrefix = TRAP_MESSAGES.oid;
    if (v.varbindOid.trim() && !OID.test(v.varbindOid.trim())) next.varbindOid = TRAP_MESSAGES.oid;
    if (Boolean(v.varbindOid.trim()) !== Boolean(v.varbindValue.trim())) next.varbindValue = TRAP_MESSAGES.varbindPair;
    if (chosen.length === 0) next.destinations = TRAP_MESSAGES.destinationsRequired;
    form.submit(
      next,
      (): TrapFilterInput => ({
        name: v.name.trim(),
        oidPrefix: v.oidPrefix.trim(),
        varbindOid: v.varbindOid.trim() || null,
        varbindValue: v.varbindValue.trim() || null,
        deviceId: device?.id ?? null,
        assetId: site?.id ?? null,
        minSeverity: (v.minSeverity || null) as TrapFilterInput['minSeverity'],
        destinationIds: chosen,
        enabled: v.enabled,
      }),
    );
  }

  return (
    <TrapFormDialog title={f ? `Edit ${f.name}` : 'Add trap filter'} testId="filter" form={form} onSubmit={submit}>
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
          {...form.text('varbindOid')}
          slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.oid } }}
        />
        <TextField
          label="Varbind value contains"
          size="small"
          fullWidth
          {...form.text('varbindValue')}
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
    </TrapFormDialog>
  );
}
