import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  ALARM_STATUS_COLOURS,
  type AlarmStatus,
  DEVICE_STATUS_COLOURS,
  type DeviceMetadata,
  type DeviceState,
  type DeviceStatus,
  type TemplateTelemetry,
} from '@sitewatch/contracts/devices';
import type { ReactNode } from 'react';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { filledChip } from '../../lib/contrast.ts';
import { formatRelative } from '../../lib/format.ts';

/** Online / Offline / Not yet connected, in the status colours. */
export function StatusChip({ status }: { status: string }) {
  const colours = useStatusColours();
  const colour = colours.text(DEVICE_STATUS_COLOURS[status as DeviceStatus] ?? '#9e9e9e');
  return (
    <Chip
      size="small"
      label={status}
      variant="outlined"
      sx={{ borderColor: colour, color: colour, fontWeight: 600 }}
      data-testid="status-chip"
    />
  );
}

export function AlarmChip({ alarmStatus }: { alarmStatus: string | null }) {
  if (!alarmStatus) return null;
  const colour = ALARM_STATUS_COLOURS[alarmStatus as AlarmStatus] ?? '#4F6F77';
  return <Chip size="small" label={alarmStatus} sx={{ ...filledChip(colour), fontWeight: 600 }} />;
}

/** Maintenance, muted and disabled flags of a device. */
export function ToggleChips({ metadata }: { metadata: Pick<DeviceMetadata, 'maintenance' | 'muteDevice' | 'enableDevice'> }) {
  return (
    <>
      {metadata.maintenance ? <Chip size="small" color="warning" label="Maintenance" /> : null}
      {metadata.muteDevice ? <Chip size="small" label="Muted" /> : null}
      {metadata.enableDevice === false ? <Chip size="small" color="error" label="Disabled" /> : null}
    </>
  );
}

function valueText(value: DeviceState[string] | undefined, key: TemplateTelemetry): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number')
    return `${Number.isInteger(value) ? value : value.toFixed(2).replace(/\.?0+$/, '')}${key.unit ? ` ${key.unit}` : ''}`;
  return `${value}${key.unit ? ` ${key.unit}` : ''}`;
}

/**
 * The values of a device for the keys of its template (or type), each under its template label, else its raw key.
 * `reportedOnly` (live values): only keys the device reported, template keys first, so that no value of another
 * time stands beside live ones. Otherwise a template key the device never reported shows a dash.
 */
export function DeviceValues({
  keys,
  state,
  updatedAt,
  dense,
  reportedOnly,
}: {
  keys: TemplateTelemetry[];
  state: DeviceState;
  updatedAt: string | null;
  dense?: boolean;
  reportedOnly?: boolean;
}) {
  const extra = Object.keys(state).filter((k) => !keys.some((t) => t.key === k));
  const declared = reportedOnly ? keys.filter((t) => state[t.key] !== undefined) : keys;
  const all: TemplateTelemetry[] = [...declared, ...extra.map((k) => ({ key: k, label: k, valueType: 'string' as const }))];
  return (
    <Box>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: dense ? '1fr auto' : 'repeat(auto-fill, minmax(150px, 1fr))',
          gap: dense ? 0.25 : 1.5,
          m: 0,
        }}
        data-testid="device-values"
      >
        {all.map((k) =>
          dense ? (
            <Box key={k.key} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {k.label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right', fontWeight: 600 }}>
                {valueText(state[k.key], k)}
              </Typography>
            </Box>
          ) : (
            <Box key={k.key}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {k.label}
              </Typography>
              <Typography component="dd" variant="h6" sx={{ m: 0 }}>
                {valueText(state[k.key], k)}
              </Typography>
            </Box>
          ),
        )}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {updatedAt ? `Last reported ${formatRelative(updatedAt)}` : 'No values reported yet'}
      </Typography>
    </Box>
  );
}

/** A titled block of a detail page. */
export function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
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
