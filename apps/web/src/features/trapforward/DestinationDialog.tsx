import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  SNMP_AUTH_PROTOCOLS,
  SNMP_PRIV_PROTOCOLS,
  SNMP_SECURITY_LEVELS,
  SNMP_VERSIONS,
  TRAP_LIMITS,
  TRAP_MESSAGES,
  type TrapDestination,
  type TrapDestinationInput,
} from '@sitewatch/contracts/snmp';
import { type FormEvent, useState } from 'react';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useSaveDestination } from './api.ts';

type Errors = Partial<Record<'name' | 'host' | 'port' | 'community' | 'user' | 'authKey' | 'privKey' | 'form', string>>;

/** Create or edit a trap destination. Secrets are write-only: left empty on edit, the stored one stays. */
export function DestinationDialog(props: { destination: TrapDestination | null; onClose(): void }) {
  const d = props.destination;
  const fullScreen = useMediaQuery('(max-width:600px)');
  const save = useSaveDestination(d?.id ?? null);
  const [v, setV] = useState({
    name: d?.name ?? '',
    host: d?.host ?? '',
    port: String(d?.port ?? 162),
    version: d?.version ?? 'v2c',
    mode: d?.mode ?? 'trap',
    community: '',
    user: d?.user ?? '',
    securityLevel: d?.securityLevel ?? 'authPriv',
    authProtocol: d?.authProtocol ?? 'sha',
    authKey: '',
    privProtocol: d?.privProtocol ?? 'aes',
    privKey: '',
    enabled: d?.enabled ?? true,
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof typeof v) => (ev: { target: { value: string } }) => setV((o) => ({ ...o, [key]: ev.target.value }));
  const v3 = v.version === 'v3';

  function submit(ev: FormEvent) {
    ev.preventDefault();
    const next: Errors = {};
    if (!v.name.trim()) next.name = TRAP_MESSAGES.nameRequired;
    if (!v.host.trim()) next.host = TRAP_MESSAGES.hostRequired;
    const port = Number(v.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) next.port = 'Port must be 1 to 65535';
    if (!v3 && !v.community && !d?.hasCommunity) next.community = TRAP_MESSAGES.communityRequired;
    if (v3 && !v.user.trim()) next.user = TRAP_MESSAGES.userRequired;
    if (v3 && v.securityLevel !== 'noAuthNoPriv' && (v.authKey ? v.authKey.length < 8 : !d?.hasAuthKey))
      next.authKey = TRAP_MESSAGES.authKeyRequired;
    if (v3 && v.securityLevel === 'authPriv' && (v.privKey ? v.privKey.length < 8 : !d?.hasPrivKey))
      next.privKey = TRAP_MESSAGES.privKeyRequired;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const input: TrapDestinationInput = {
      name: v.name.trim(),
      host: v.host.trim(),
      port,
      version: v.version,
      mode: v.version === 'v1' ? 'trap' : v.mode,
      community: v.community || null,
      user: v3 ? v.user.trim() : '',
      securityLevel: v.securityLevel,
      authProtocol: v.authProtocol,
      authKey: v.authKey || null,
      privProtocol: v.privProtocol,
      privKey: v.privKey || null,
      enabled: v.enabled,
    };
    save.mutate(input, {
      onSuccess: () => {
        toast.success(d ? TRAP_MESSAGES.updated : TRAP_MESSAGES.created);
        props.onClose();
      },
      onError: (error) => setErrors({ form: isHttpError(error) ? (error.detail ?? error.message) : 'Not saved. Try again.' }),
    });
  }

  const secretHint = (stored: boolean | undefined) => (stored ? 'Stored. Leave empty to keep it.' : undefined);
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <form onSubmit={submit} noValidate data-testid="destination-form">
        <DialogTitle>{d ? `Edit ${d.name}` : 'Add trap destination'}</DialogTitle>
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
              slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.name, 'data-testid': 'destination-name' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Host"
                required
                size="small"
                fullWidth
                value={v.host}
                onChange={set('host')}
                error={Boolean(errors.host)}
                helperText={errors.host}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.host, 'data-testid': 'destination-host' } }}
              />
              <TextField
                label="Port"
                size="small"
                type="number"
                value={v.port}
                onChange={set('port')}
                error={Boolean(errors.port)}
                helperText={errors.port}
                sx={{ minWidth: 110 }}
                slotProps={{ htmlInput: { min: 1, max: 65535, 'data-testid': 'destination-port' } }}
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label="Version"
                size="small"
                fullWidth
                value={v.version}
                onChange={set('version')}
                data-testid="destination-version"
              >
                {SNMP_VERSIONS.map((x) => (
                  <MenuItem key={x} value={x}>
                    {x}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Send as"
                size="small"
                fullWidth
                value={v.version === 'v1' ? 'trap' : v.mode}
                onChange={set('mode')}
                disabled={v.version === 'v1'}
              >
                <MenuItem value="trap">Trap</MenuItem>
                <MenuItem value="inform">Inform (acknowledged, retried)</MenuItem>
              </TextField>
            </Stack>
            {v3 ? (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField
                    label="User"
                    required
                    size="small"
                    fullWidth
                    value={v.user}
                    onChange={set('user')}
                    error={Boolean(errors.user)}
                    helperText={errors.user}
                    slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.user } }}
                  />
                  <TextField select label="Security level" size="small" fullWidth value={v.securityLevel} onChange={set('securityLevel')}>
                    {SNMP_SECURITY_LEVELS.map((x) => (
                      <MenuItem key={x} value={x}>
                        {x}
                      </MenuItem>
                    ))}
                  </TextField>
                </Stack>
                {v.securityLevel !== 'noAuthNoPriv' ? (
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <TextField
                      select
                      label="Authentication"
                      size="small"
                      value={v.authProtocol}
                      onChange={set('authProtocol')}
                      sx={{ minWidth: 140 }}
                    >
                      {SNMP_AUTH_PROTOCOLS.map((x) => (
                        <MenuItem key={x} value={x}>
                          {x.toUpperCase()}
                        </MenuItem>
                      ))}
                    </TextField>
                    <TextField
                      label="Authentication key"
                      type="password"
                      autoComplete="new-password"
                      size="small"
                      fullWidth
                      value={v.authKey}
                      onChange={set('authKey')}
                      error={Boolean(errors.authKey)}
                      helperText={errors.authKey ?? secretHint(d?.hasAuthKey)}
                      slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.secret } }}
                    />
                  </Stack>
                ) : null}
                {v.securityLevel === 'authPriv' ? (
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <TextField
                      select
                      label="Privacy"
                      size="small"
                      value={v.privProtocol}
                      onChange={set('privProtocol')}
                      sx={{ minWidth: 140 }}
                    >
                      {SNMP_PRIV_PROTOCOLS.map((x) => (
                        <MenuItem key={x} value={x}>
                          {x.toUpperCase()}
                        </MenuItem>
                      ))}
                    </TextField>
                    <TextField
                      label="Privacy key"
                      type="password"
                      autoComplete="new-password"
                      size="small"
                      fullWidth
                      value={v.privKey}
                      onChange={set('privKey')}
                      error={Boolean(errors.privKey)}
                      helperText={errors.privKey ?? secretHint(d?.hasPrivKey)}
                      slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.secret } }}
                    />
                  </Stack>
                ) : null}
              </>
            ) : (
              <TextField
                label="Community"
                type="password"
                autoComplete="new-password"
                size="small"
                value={v.community}
                onChange={set('community')}
                error={Boolean(errors.community)}
                helperText={errors.community ?? secretHint(d?.hasCommunity)}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.secret, 'data-testid': 'destination-community' } }}
              />
            )}
            <FormControlLabel
              control={<Switch checked={v.enabled} onChange={(e) => setV((o) => ({ ...o, enabled: e.target.checked }))} />}
              label="Enabled"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="destination-save">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
