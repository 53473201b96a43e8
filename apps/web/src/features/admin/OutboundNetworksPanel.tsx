import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorState } from '../../components/ErrorState.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useOutboundNetworks, useSaveOutboundNetworks } from './api.ts';

const entriesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);

/**
 * The networks this organisation's devices may be dialled in (device diagnostics, camera streams, SNMP and trap
 * destinations): the install's default, or a list of its own (`public` and site networks as addresses or CIDRs).
 */
export function OutboundNetworksPanel() {
  const networks = useOutboundNetworks();
  const save = useSaveOutboundNetworks();
  const [own, setOwn] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!networks.data) return;
    setOwn(networks.data.networks !== null);
    setText((networks.data.networks ?? networks.data.installDefault).join('\n'));
  }, [networks.data]);

  if (networks.isPending) return <Skeleton height={160} />;
  if (networks.isError) return <ErrorState onRetry={() => void networks.refetch()} />;
  const installDefault = networks.data.installDefault;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const list = own ? entriesOf(text) : null;
    setError(null);
    save.mutate(list, {
      onSuccess: () => toast.success(COMMON_MESSAGES.settingsUpdated),
      onError: (failure) => setError((isHttpError(failure) && detailOf(failure.data)) || COMMON_MESSAGES.failedToUpdateSettings),
    });
  };

  return (
    <Box data-testid="outbound-networks-panel">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The networks this organisation's devices may be reached in: device diagnostics, camera streams, SNMP polls and trap destinations go
        nowhere else. <code>public</code> stands for every public internet address; list site networks as addresses or CIDRs such as{' '}
        <code>10.1.0.0/16</code>. Loopback, link-local, cloud metadata and this server's own addresses stay refused whatever is listed.
      </Typography>
      <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit} sx={{ p: 2 }}>
        <FormControlLabel
          control={<Switch checked={!own} onChange={(e) => setOwn(!e.target.checked)} data-testid="outbound-default" />}
          label={`Use the install's default (${installDefault.join(', ') || 'none'})`}
        />
        <TextField
          label="Allowed networks, one per line"
          value={own ? text : installDefault.join('\n')}
          onChange={(e) => setText(e.target.value)}
          disabled={!own}
          multiline
          minRows={3}
          fullWidth
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { 'data-testid': 'outbound-networks', spellCheck: false } }}
        />
        {own && entriesOf(text).length === 0 ? (
          <Alert severity="warning" sx={{ mt: 1.5 }}>
            With no network listed, nothing is dialled for this organisation's devices.
          </Alert>
        ) : null}
        {error ? (
          <Alert severity="error" sx={{ mt: 1.5 }} data-testid="outbound-networks-error">
            {error}
          </Alert>
        ) : null}
        <Box sx={{ mt: 1.5 }}>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="outbound-networks-save">
            Save
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
