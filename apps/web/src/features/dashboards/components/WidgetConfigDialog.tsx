import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ALARM_SEVERITIES, ALARM_STATES } from '@sitewatch/contracts/alarms';
import {
  DASHBOARD_LIMITS,
  WIDGET_KIND_LABELS,
  WIDGET_KINDS,
  type Widget,
  type WidgetKind,
  widgetSchema,
} from '@sitewatch/contracts/dashboards';
import { DEVICE_TYPES } from '@sitewatch/contracts/devices';
import { TICKET_STATUSES } from '@sitewatch/contracts/helpdesk/tickets';
import { TELEMETRY_AGGREGATIONS } from '@sitewatch/contracts/telemetry';
import { TICKET_TYPES } from '@sitewatch/contracts/ticket-types';
import { useState } from 'react';
import { useTemplates } from '../../forms/api.ts';
import { DevicePicker } from '../../sites/Pickers.tsx';
import { CameraPicker } from '../../video/index.ts';
import { useComponents } from '../api.ts';

type Draft = Record<string, unknown> & { id: string; kind: WidgetKind; title?: string };

/** Time ranges a chart can show (the last N). */
export const RANGE_CHOICES = [
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
  { label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;

/** A new widget of a kind with the fields it needs empty (the dialog asks for them). */
export function blankWidget(id: string, kind: WidgetKind): Draft {
  return { id, kind, title: '' };
}

/** The first validation message of a draft, or the parsed widget. */
export function checkWidget(draft: Draft): { widget: Widget } | { error: string } {
  const parsed = widgetSchema.safeParse(draft);
  if (parsed.success) return { widget: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'Invalid widget';
  return { error: /expected|Invalid input/i.test(message) && field ? `${field}: this field is required` : message };
}

function MultiSelect({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: readonly string[];
  value: string[];
  onChange(v: string[]): void;
  testId?: string;
}) {
  return (
    <Autocomplete
      multiple
      options={[...options]}
      value={value}
      onChange={(_e, v) => onChange(v)}
      renderInput={(params) => <TextField {...params} label={label} placeholder="All" data-testid={testId} />}
    />
  );
}

/** Configure a widget: its kind's fields, checked by the contract's schema before it goes on the grid. */
export function WidgetConfigDialog({
  initial,
  allowComponent = true,
  onSave,
  onClose,
}: {
  initial: Draft;
  allowComponent?: boolean;
  onSave(widget: Widget): void;
  onClose(): void;
}) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Record<string, unknown>) => setDraft((d) => ({ ...d, ...patch }));
  const kinds = WIDGET_KINDS.filter((k) => allowComponent || k !== 'component');
  const handleSave = () => {
    const result = checkWidget(draft);
    if ('error' in result) return setError(result.error);
    onSave(result.widget);
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} data-testid="widget-dialog">
      <DialogTitle>Widget</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            select
            label="Kind"
            value={draft.kind}
            onChange={(e) => setDraft(blankWidget(draft.id, e.target.value as WidgetKind))}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-kind' } as object } }}
          >
            {kinds.map((k) => (
              <MenuItem key={k} value={k} data-testid={`widget-kind-${k}`}>
                {WIDGET_KIND_LABELS[k]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Title"
            value={draft.title ?? ''}
            onChange={(e) => set({ title: e.target.value })}
            slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.widgetTitle, 'data-testid': 'widget-title' } }}
          />
          <KindFields draft={draft} set={set} />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleSave} data-testid="widget-save">
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const ids = (v: unknown) => (Array.isArray(v) ? (v as number[]) : []);
const strs = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

function DeviceList({ value, onChange, single }: { value: number[]; onChange(v: number[]): void; single?: boolean }) {
  const [names, setNames] = useState<Record<number, string>>({});
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {value.length ? (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }} data-testid="widget-devices">
          {value.map((id) => (
            <Chip key={id} label={names[id] ?? `Device #${id}`} onDelete={() => onChange(value.filter((x) => x !== id))} />
          ))}
        </Box>
      ) : null}
      {single && value.length ? null : (
        <DevicePicker
          label={single ? 'Device' : 'Add device'}
          value={null}
          onChange={(option) => {
            if (!option || value.includes(option.id)) return;
            setNames((n) => ({ ...n, [option.id]: option.label || option.name }));
            onChange(single ? [option.id] : [...value, option.id].slice(0, DASHBOARD_LIMITS.seriesDevices));
          }}
        />
      )}
    </Box>
  );
}

function KeysField({ value, onChange, single }: { value: string[]; onChange(v: string[]): void; single?: boolean }) {
  const [text, setText] = useState(value.join(', '));
  return (
    <TextField
      label={single ? 'Key' : 'Keys (comma separated)'}
      value={text}
      helperText={single ? 'The telemetry key, e.g. temperature' : 'Telemetry keys, e.g. temperature, humidity'}
      onChange={(e) => {
        setText(e.target.value);
        const keys = e.target.value
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
        onChange(single ? keys.slice(0, 1) : keys.slice(0, DASHBOARD_LIMITS.seriesKeys));
      }}
      slotProps={{ htmlInput: { 'data-testid': 'widget-keys' } }}
    />
  );
}

function KindFields({ draft, set }: { draft: Draft; set(patch: Record<string, unknown>): void }) {
  const components = useComponents({ limit: 200 });
  const forms = useTemplates();
  const range = draft.range as { kind: string; lastMs?: number } | undefined;
  const num = (v: string) => (v.trim() === '' ? null : Number(v));
  switch (draft.kind) {
    case 'timeseries':
      return (
        <>
          <DeviceList value={ids(draft.deviceIds)} onChange={(v) => set({ deviceIds: v })} />
          <KeysField value={strs(draft.keys)} onChange={(v) => set({ keys: v })} />
          <TextField select label="Aggregation" value={(draft.agg as string) ?? 'none'} onChange={(e) => set({ agg: e.target.value })}>
            {TELEMETRY_AGGREGATIONS.map((a) => (
              <MenuItem key={a} value={a}>
                {a === 'none' ? 'Raw values' : a}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Time range"
            value={range?.kind === 'relative' ? String(range.lastMs) : String(86_400_000)}
            onChange={(e) => set({ range: { kind: 'relative', lastMs: Number(e.target.value) } })}
          >
            {RANGE_CHOICES.map((r) => (
              <MenuItem key={r.ms} value={String(r.ms)}>
                {r.label}
              </MenuItem>
            ))}
          </TextField>
        </>
      );
    case 'latest':
      return (
        <>
          <DeviceList single value={typeof draft.deviceId === 'number' ? [draft.deviceId] : []} onChange={(v) => set({ deviceId: v[0] })} />
          <TextField select label="Show" value={(draft.display as string) ?? 'value'} onChange={(e) => set({ display: e.target.value })}>
            <MenuItem value="value">Latest value</MenuItem>
            <MenuItem value="gauge">Gauge</MenuItem>
            <MenuItem value="status">Status</MenuItem>
          </TextField>
          {draft.display === 'status' ? null : (
            <>
              <KeysField single value={typeof draft.key === 'string' ? [draft.key] : []} onChange={(v) => set({ key: v[0] ?? null })} />
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(3, 1fr)' }}>
                <TextField label="Min" type="number" value={draft.min ?? ''} onChange={(e) => set({ min: num(e.target.value) })} />
                <TextField label="Max" type="number" value={draft.max ?? ''} onChange={(e) => set({ max: num(e.target.value) })} />
                <TextField
                  label="Unit"
                  value={(draft.unit as string) ?? ''}
                  onChange={(e) => set({ unit: e.target.value })}
                  slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.unit } }}
                />
              </Box>
            </>
          )}
        </>
      );
    case 'siteSummary':
      return (
        <MultiSelect
          label="Device types"
          options={DEVICE_TYPES}
          value={strs(draft.deviceTypes)}
          onChange={(v) => set({ deviceTypes: v })}
        />
      );
    case 'alarmList':
      return (
        <>
          <MultiSelect
            label="Severities"
            options={ALARM_SEVERITIES}
            value={strs(draft.severities)}
            onChange={(v) => set({ severities: v })}
          />
          <TextField
            select
            label="State"
            value={(draft.state as string | null | undefined) ?? 'ACTIVE'}
            onChange={(e) => set({ state: e.target.value })}
          >
            {ALARM_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        </>
      );
    case 'ticketCounters':
    case 'ticketList':
      return (
        <>
          <MultiSelect label="Ticket types" options={TICKET_TYPES} value={strs(draft.types)} onChange={(v) => set({ types: v })} />
          <MultiSelect label="Statuses" options={TICKET_STATUSES} value={strs(draft.statuses)} onChange={(v) => set({ statuses: v })} />
        </>
      );
    case 'siteMap':
      return <Alert severity="info">Shows every site you may see that has a location.</Alert>;
    case 'camera':
      return <CameraPicker size="medium" onPick={(camera) => set({ cameraId: camera?.id, title: draft.title || camera?.label || '' })} />;
    case 'formResponses':
      return (
        <TextField
          select
          label="Form"
          value={typeof draft.formId === 'number' ? String(draft.formId) : ''}
          onChange={(e) => set({ formId: Number(e.target.value) })}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-form' } as object } }}
        >
          {(forms.data?.contents ?? []).map((f) => (
            <MenuItem key={f.id} value={String(f.id)}>
              {f.label || f.name}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'component':
      return (
        <TextField
          select
          label="Component"
          value={typeof draft.componentId === 'number' ? String(draft.componentId) : ''}
          onChange={(e) => set({ componentId: Number(e.target.value) })}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'widget-component' } as object } }}
        >
          {(components.data?.contents ?? []).map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      );
  }
}
