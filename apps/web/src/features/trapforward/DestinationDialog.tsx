import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
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
import { useSaveDestination } from './api.ts';
import { TrapFormDialog, useTrapForm } from './TrapFormDialog.tsx';

type Errors = Partial<Record<'name' | 'host' | 'port' | 'community' | 'user' | 'authKey' | 'privKey' | 'form', string>>;

/** Create or edit a trap destination. Secrets are write-only: left empty on edit, the stored one stays. */
export function DestinationDialog(props: { destination: TrapDestination | null; onClose(): void }) {
  const d = props.destination;
  const save = useSaveDestination(d?.id ?? null);
  const form = useTrapForm(
    {
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
    },
    save,
    { editing: d !== null, onClose: props.onClose },
  );
  const { v, set, errors } = form;
  const v3 = v.version === 'v3';

  function submit() {
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
    form.submit(
      next,
      (): TrapDestinationInput => ({
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
      }),
    );
  }

  const secretHint = (stored: boolean | undefined) => (stored ? 'Stored. Leave empty to keep it.' : undefined);
  return (
    <TrapFormDialog title={d ? `Edit ${d.name}` : 'Add trap destination'} testId="destination" form={form} onSubmit={submit}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Host"
          required
          size="small"
          fullWidth
          {...form.text('host')}
          slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.host, 'data-testid': 'destination-host' } }}
        />
        <TextField
          label="Port"
          size="small"
          type="number"
          {...form.text('port')}
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
              {...form.text('user')}
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
              <TextField select label="Privacy" size="small" value={v.privProtocol} onChange={set('privProtocol')} sx={{ minWidth: 140 }}>
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
    </TrapFormDialog>
  );
}
