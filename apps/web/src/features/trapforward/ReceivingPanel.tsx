import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  SNMP_AUTH_PROTOCOLS,
  SNMP_PRIV_PROTOCOLS,
  SNMP_SECURITY_LEVELS,
  TRAP_LIMITS,
  TRAP_MESSAGES,
  type TrapReceiving,
  type TrapUserInput,
} from '@sitewatch/contracts/snmp';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useReceiving, useRenewCommunity, useSaveReceiving } from './api.ts';

type Level = (typeof SNMP_SECURITY_LEVELS)[number];
const emptyUser = {
  name: '',
  securityLevel: 'authPriv' as Level,
  authProtocol: 'sha' as TrapUserInput['authProtocol'],
  authKey: '',
  privProtocol: 'aes' as TrapUserInput['privProtocol'],
  privKey: '',
};
const failed = (error: unknown) => toast.error((isHttpError(error) && detailOf(error.data)) || 'Could not save');

function Community({ r }: { r: TrapReceiving }) {
  const [shown, setShown] = useState(false);
  const [asking, setAsking] = useState(false);
  const renew = useRenewCommunity();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Community (SNMP v1 and v2c)
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Your devices send traps to udp port {r.port} of this server with this community. It is yours alone: a trap with any other community
        is refused.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography
          component="code"
          data-testid="trap-community"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', flex: 1, minWidth: 160 }}
        >
          {shown ? r.community : '••••••••••••••••'}
        </Typography>
        <Button size="small" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
          {shown ? 'Hide' : 'Show'}
        </Button>
        <Button size="small" color="warning" onClick={() => setAsking(true)} data-testid="renew-community">
          Make a new one
        </Button>
      </Box>
      <ConfirmDialog
        open={asking}
        title="Make a new community?"
        text="The current community stops working at once: traps from devices that still use it are refused."
        confirmLabel="Make a new one"
        destructive
        busy={renew.isPending}
        onClose={() => setAsking(false)}
        onConfirm={() =>
          renew.mutate(undefined, {
            onSuccess: () => {
              setAsking(false);
              setShown(true);
              toast.success(TRAP_MESSAGES.communityRenewed);
            },
            onError: failed,
          })
        }
      />
    </Paper>
  );
}

function Settings({ r }: { r: TrapReceiving }) {
  const save = useSaveReceiving();
  const [relays, setRelays] = useState(r.relays.join('\n'));
  const [adding, setAdding] = useState(emptyUser);
  const kept = (users: TrapReceiving['users']): TrapUserInput[] =>
    users.map((u) => ({ name: u.name, securityLevel: u.securityLevel, authProtocol: u.authProtocol, privProtocol: u.privProtocol }));
  const relayList = () =>
    relays
      .split(/[\s,]+/)
      .map((x) => x.trim())
      .filter(Boolean);
  const submit = (users: TrapUserInput[], done?: () => void) =>
    save.mutate(
      { relays: relayList(), users },
      {
        onSuccess: () => {
          toast.success(TRAP_MESSAGES.receivingSaved);
          done?.();
        },
        onError: failed,
      },
    );
  const addUser = () => {
    const u: TrapUserInput = {
      name: adding.name.trim(),
      securityLevel: adding.securityLevel,
      authProtocol: adding.authProtocol,
      privProtocol: adding.privProtocol,
      ...(adding.securityLevel !== 'noAuthNoPriv' ? { authKey: adding.authKey } : {}),
      ...(adding.securityLevel === 'authPriv' ? { privKey: adding.privKey } : {}),
    };
    submit([...kept(r.users).filter((x) => x.name !== u.name), u], () => setAdding(emptyUser));
  };
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Trusted relays
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          A trap names its device by the address it comes from. Only traps from these addresses (an NMS or proxy that forwards for your
          devices) may name another device in snmpTrapAddress.0 or a v1 agent address.
        </Typography>
        <TextField
          label="Relay addresses or CIDRs, one per line"
          multiline
          minRows={2}
          fullWidth
          size="small"
          value={relays}
          onChange={(e) => setRelays(e.target.value)}
          data-testid="trap-relays"
        />
        <Box sx={{ mt: 1 }}>
          <Button variant="contained" onClick={() => submit(kept(r.users))} disabled={save.isPending} data-testid="save-relays">
            Save relays
          </Button>
        </Box>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          SNMPv3 users
        </Typography>
        {r.users.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No SNMPv3 users yet.
          </Typography>
        ) : (
          <Stack spacing={1} sx={{ my: 1 }} data-testid="trap-users">
            {r.users.map((u) => (
              <Box key={u.name} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 120, overflowWrap: 'anywhere' }}>{u.name}</Typography>
                <Chip size="small" label={u.securityLevel} />
                <Chip size="small" variant="outlined" label={`auth key ${u.hasAuthKey ? 'set' : 'not set'}`} />
                <Chip size="small" variant="outlined" label={`privacy key ${u.hasPrivKey ? 'set' : 'not set'}`} />
                <Button
                  size="small"
                  color="error"
                  aria-label={`Remove ${u.name}`}
                  onClick={() => submit(kept(r.users).filter((x) => x.name !== u.name))}
                >
                  Remove
                </Button>
              </Box>
            ))}
          </Stack>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap>
          <TextField
            label="User name"
            size="small"
            value={adding.name}
            onChange={(e) => setAdding({ ...adding, name: e.target.value })}
            slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.user } }}
          />
          <TextField
            select
            label="Security level"
            size="small"
            value={adding.securityLevel}
            onChange={(e) => setAdding({ ...adding, securityLevel: e.target.value as Level })}
            sx={{ minWidth: 150 }}
          >
            {SNMP_SECURITY_LEVELS.map((l) => (
              <MenuItem key={l} value={l}>
                {l}
              </MenuItem>
            ))}
          </TextField>
          {adding.securityLevel !== 'noAuthNoPriv' ? (
            <>
              <TextField
                select
                label="Auth protocol"
                size="small"
                value={adding.authProtocol}
                onChange={(e) => setAdding({ ...adding, authProtocol: e.target.value as typeof adding.authProtocol })}
                sx={{ minWidth: 120 }}
              >
                {SNMP_AUTH_PROTOCOLS.map((p) => (
                  <MenuItem key={p} value={p}>
                    {p.toUpperCase()}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Auth key"
                type="password"
                autoComplete="new-password"
                size="small"
                value={adding.authKey}
                onChange={(e) => setAdding({ ...adding, authKey: e.target.value })}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.secret } }}
              />
            </>
          ) : null}
          {adding.securityLevel === 'authPriv' ? (
            <>
              <TextField
                select
                label="Privacy protocol"
                size="small"
                value={adding.privProtocol}
                onChange={(e) => setAdding({ ...adding, privProtocol: e.target.value as typeof adding.privProtocol })}
                sx={{ minWidth: 120 }}
              >
                {SNMP_PRIV_PROTOCOLS.map((p) => (
                  <MenuItem key={p} value={p}>
                    {p.toUpperCase()}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Privacy key"
                type="password"
                autoComplete="new-password"
                size="small"
                value={adding.privKey}
                onChange={(e) => setAdding({ ...adding, privKey: e.target.value })}
                slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.secret } }}
              />
            </>
          ) : null}
          <Button onClick={addUser} disabled={save.isPending || adding.name.trim() === ''} data-testid="add-trap-user">
            Add user
          </Button>
        </Stack>
      </Paper>
    </>
  );
}

/** How the tenant's devices send traps in: its own community, its SNMPv3 users and the relays it trusts. */
export function ReceivingPanel() {
  const receiving = useReceiving();
  if (receiving.isError) return <ErrorState onRetry={() => receiving.refetch()} />;
  if (!receiving.data) return null;
  return (
    <Stack spacing={1.5} data-testid="receiving-panel">
      <Community r={receiving.data} />
      <Settings key={receiving.data.relays.join(',')} r={receiving.data} />
    </Stack>
  );
}
