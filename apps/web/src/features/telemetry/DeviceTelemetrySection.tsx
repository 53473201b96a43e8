import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TemplateTelemetry } from '@sitewatch/contracts/devices';
import { ACCESS_TOKEN_PLACEHOLDER } from '@sitewatch/contracts/telemetry';
import { type ReactNode, useState } from 'react';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { showToast } from '../../lib/toasts.ts';
import { useConnection, useLatest } from './api.ts';
import { ChartPanel } from './ChartPanel.tsx';
import { DeviceAlarmsPanel } from './DeviceAlarmsPanel.tsx';
import { keyLabel } from './key-label.ts';

function Panel({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, fontSize: 16 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

const show = (value: unknown) => (typeof value === 'boolean' ? (value ? 'true' : 'false') : value === null ? '—' : String(value));

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast('success', `${what} copied`);
  } catch {
    showToast('error', `Could not copy the ${what.toLowerCase()}`);
  }
}

function CopyLine({ label, text }: { label: string; text: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr auto', alignItems: 'start', gap: 1 }}>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {label}
        </Typography>
        <Box
          component="pre"
          sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {text}
        </Box>
      </Box>
      <Tooltip title={`Copy ${label.toLowerCase()}`}>
        <IconButton aria-label={`Copy ${label.toLowerCase()}`} onClick={() => void copy(text, label)} sx={{ mt: 2 }}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/**
 * Copies the device's access token without showing it (ThingsBoard's "Copy access token"): the token is read by an
 * action of its own, which the activity log records, and goes to the clipboard only.
 */
function CopyAccessToken({ deviceId }: { deviceId: number }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const { accessToken } = await api.post('/iotapp/devices/{id}/access-token/', undefined, { path: { id: deviceId }, toast: false });
      await copy(accessToken, 'Access token');
    } catch {
      showToast('error', 'Could not read the access token');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography variant="body2">
        Access token: <span data-testid="device-access-token-state">set</span>
      </Typography>
      <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} disabled={busy} onClick={() => void onClick()}>
        Copy access token
      </Button>
      <Typography variant="caption" color="text.secondary" sx={{ width: '100%' }}>
        {`The commands below read it from ${ACCESS_TOKEN_PLACEHOLDER}: run export ACCESS_TOKEN='…' with the copied token first.`}
      </Typography>
    </Box>
  );
}

/** Ready command lines and the copy action of the token (administrators only: the server refuses others). */
function ConnectionPanel({ deviceId }: { deviceId: number }) {
  const connection = useConnection(deviceId, true);
  if (connection.isError) return null;
  const c = connection.data;
  return (
    <Panel title="Connect this device">
      {!c ? (
        <Typography variant="body2" color="text.secondary">
          Loading…
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 1 }} data-testid="device-connection">
          <CopyAccessToken deviceId={deviceId} />
          <CopyLine label="MQTT (mosquitto_pub)" text={c.mosquittoPub} />
          <CopyLine label="HTTP (curl)" text={c.curl} />
          <Typography variant="caption" color="text.secondary">
            {c.mqtt.external
              ? `Publish to ${c.mqtt.topic} on the broker at ${c.mqtt.host}:${c.mqtt.port}; attributes to ${c.mqtt.attributesTopic}.`
              : `MQTT ${c.mqtt.host}:${c.mqtt.port}, the token as user name, topic ${c.mqtt.topic} (attributes: ${c.mqtt.attributesTopic}), QoS 0 or 1.`}
          </Typography>
          {c.rateLimited.dropped > 0 && (
            <Typography variant="body2" color="warning.main" data-testid="device-rate-limited">
              {`Rate limited: ${c.rateLimited.dropped.toLocaleString()} messages dropped`}
              {c.rateLimited.lastAt ? `, the last at ${formatDateTime(c.rateLimited.lastAt)}` : ''}
              {c.rateLimited.disconnects > 0 ? ` (disconnected ${c.rateLimited.disconnects}× for flooding)` : ''}
            </Typography>
          )}
        </Box>
      )}
    </Panel>
  );
}

function LiveValues({ deviceId, keys }: { deviceId: number; keys: TemplateTelemetry[] }) {
  const latest = useLatest(deviceId);
  const data = latest.data;
  if (!data) {
    return (
      <Typography variant="body2" color="text.secondary">
        {latest.isError ? 'Live values could not be loaded.' : 'Loading…'}
      </Typography>
    );
  }
  const rows = [...data.telemetry.map((v) => ({ ...v, kind: 'Telemetry' })), ...data.attributes.map((v) => ({ ...v, kind: 'Attribute' }))];
  if (rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No values yet: the device has not reported anything.
      </Typography>
    );
  }
  return (
    <Table size="small" data-testid="live-values">
      <TableHead>
        <TableRow>
          <TableCell>Key</TableCell>
          <TableCell>Value</TableCell>
          <TableCell>Updated</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={`${r.kind}:${r.key}`}>
            <TableCell>
              {r.kind === 'Telemetry' ? keyLabel(keys, r.key) : r.key}
              {r.kind === 'Attribute' ? (
                <Typography component="span" variant="caption" color="text.secondary">
                  {' '}
                  (attribute)
                </Typography>
              ) : null}
            </TableCell>
            <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{show(r.value)}</TableCell>
            <TableCell>{formatDateTime(r.ts)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * What the device page shows of a device's telemetry: live values, a chart of any key, its alarms, and (for
 * administrators) how to connect it. The devices feature renders this on /devices/{id}/view.
 */
export function DeviceTelemetrySection({
  deviceId,
  canManage,
  keys = [],
}: {
  deviceId: number;
  canManage: boolean;
  /** The template's keys, for their labels. */
  keys?: TemplateTelemetry[];
}) {
  const latest = useLatest(deviceId);
  const numericKeys = (latest.data?.telemetry ?? [])
    .filter((v) => typeof v.value === 'number' || typeof v.value === 'boolean')
    .map((v) => v.key);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, mt: 2 }}>
      <Panel title="Live values">
        <LiveValues deviceId={deviceId} keys={keys} />
      </Panel>
      <Panel title="Alarms">
        <DeviceAlarmsPanel deviceId={deviceId} />
      </Panel>
      <Box sx={{ gridColumn: { lg: '1 / -1' } }}>
        <Panel title="Chart">
          <ChartPanel deviceId={deviceId} keys={numericKeys} labels={keys} />
        </Panel>
      </Box>
      {canManage ? (
        <Box sx={{ gridColumn: { lg: '1 / -1' } }}>
          <ConnectionPanel deviceId={deviceId} />
        </Box>
      ) : null}
    </Box>
  );
}
