import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { TemplateTelemetry } from '@sitewatch/contracts/devices';
import { TELEMETRY_AGGREGATIONS, type TelemetryAggregation } from '@sitewatch/contracts/telemetry';
import { useEffect, useMemo, useState } from 'react';
import { useRealtimeStatus } from '../../lib/realtime.ts';
import { type ChartParams, useChart } from './api.ts';
import { keyLabel } from './key-label.ts';
import { LineChart } from './LineChart.tsx';

const RANGES = [
  { id: '1h', label: '1 h', ms: 3600_000 },
  { id: '6h', label: '6 h', ms: 6 * 3600_000 },
  { id: '24h', label: '24 h', ms: 24 * 3600_000 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000 },
  { id: '30d', label: '30 d', ms: 30 * 86_400_000 },
  { id: 'custom', label: 'Custom', ms: 0 },
] as const;
type RangeId = (typeof RANGES)[number]['id'];

const AGG_LABELS: Record<TelemetryAggregation, string> = { none: 'Raw', avg: 'Average', min: 'Minimum', max: 'Maximum' };
const INTERVALS = [
  { value: 0, label: 'Auto' },
  { value: 60, label: '1 min' },
  { value: 300, label: '5 min' },
  { value: 900, label: '15 min' },
  { value: 3600, label: '1 h' },
  { value: 86400, label: '1 day' },
];

/** datetime-local value of a time, in the browser's zone. */
const toLocalInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** A chart of any key over any time range, raw or aggregated per interval. */
export function ChartPanel({ deviceId, keys, labels = [] }: { deviceId: number; keys: string[]; labels?: TemplateTelemetry[] }) {
  const labelOf = (k: string) => keyLabel(labels, k);
  const [key, setKey] = useState('');
  const [range, setRange] = useState<RangeId>('6h');
  const [agg, setAgg] = useState<TelemetryAggregation>('none');
  const [interval, setIntervalSec] = useState(0);
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - 86_400_000));
  const [to, setTo] = useState(() => toLocalInput(Date.now()));
  const [live, setLive] = useState(true);
  const [anchor, setAnchor] = useState(() => Date.now());
  const chosen = key || keys[0] || '';
  // the chart stays on its key when a new key appears in the list
  useEffect(() => {
    if (!key && keys[0]) setKey(keys[0]);
  }, [key, keys]);
  const following = live && range !== 'custom';
  const pushed = useRealtimeStatus() === 'open';
  // Raw values following live over an open socket: pushed points extend the chart and the window slides with the
  // clock, without refetching. Aggregates move their window once a minute; without the socket, every 15 s.
  const sliding = following && pushed && agg === 'none';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!following) return;
    if (sliding) {
      const tick = setInterval(() => setNow(Date.now()), 1000);
      return () => clearInterval(tick);
    }
    const timer = setInterval(() => setAnchor(Date.now()), pushed ? 60_000 : 15_000);
    return () => clearInterval(timer);
  }, [following, sliding, pushed]);

  const params: ChartParams | null = useMemo(() => {
    if (!chosen) return null;
    if (range === 'custom') {
      const start = new Date(from).getTime();
      const end = new Date(to).getTime();
      if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return null;
      return { key: chosen, startTs: start, endTs: end, agg, interval: agg === 'none' || !interval ? undefined : interval };
    }
    const ms = RANGES.find((r) => r.id === range)?.ms ?? 3600_000;
    // a minute-aligned end keeps the query key stable between renders
    const end = Math.ceil(anchor / 60_000) * 60_000;
    return { key: chosen, startTs: end - ms, endTs: end, agg, interval: agg === 'none' || !interval ? undefined : interval };
  }, [chosen, range, from, to, agg, interval, anchor]);
  const chart = useChart(deviceId, params, following);

  const windowMs = RANGES.find((r) => r.id === range)?.ms ?? 0;
  const shown =
    params && sliding
      ? { from: Math.max(now, params.endTs) - windowMs, to: Math.max(now, params.endTs) }
      : params && { from: params.startTs, to: params.endTs };
  const points = (chart.data?.points ?? []).flatMap((p) =>
    typeof p.value === 'number' && (!shown || p.ts >= shown.from) ? [{ ts: p.ts, value: p.value }] : [],
  );

  if (keys.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        The device has not sent any telemetry yet.
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label="Key"
          value={chosen}
          onChange={(e) => setKey(e.target.value)}
          sx={{ minWidth: 180 }}
          data-testid="chart-key"
        >
          {keys.map((k) => (
            <MenuItem key={k} value={k}>
              {labelOf(k)}
            </MenuItem>
          ))}
        </TextField>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={range}
          onChange={(_e, v: RangeId | null) => {
            if (v) {
              setRange(v);
              setAnchor(Date.now());
            }
          }}
          aria-label="Time range"
        >
          {RANGES.map((r) => (
            <ToggleButton key={r.id} value={r.id}>
              {r.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          label="Values"
          value={agg}
          onChange={(e) => setAgg(e.target.value as TelemetryAggregation)}
          sx={{ minWidth: 130 }}
        >
          {TELEMETRY_AGGREGATIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {AGG_LABELS[a]}
            </MenuItem>
          ))}
        </TextField>
        {agg !== 'none' ? (
          <TextField
            select
            size="small"
            label="Interval"
            value={interval}
            onChange={(e) => setIntervalSec(Number(e.target.value))}
            sx={{ minWidth: 110 }}
          >
            {INTERVALS.map((i) => (
              <MenuItem key={i.value} value={i.value}>
                {i.label}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        {range !== 'custom' ? (
          <FormControlLabel
            control={
              <Switch
                checked={live}
                onChange={(e) => {
                  setLive(e.target.checked);
                  setAnchor(Date.now());
                }}
              />
            }
            label="Follow live"
          />
        ) : null}
      </Box>
      {range === 'custom' ? (
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <TextField
            size="small"
            type="datetime-local"
            label="From"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="datetime-local"
            label="To"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {params === null ? (
            <Typography variant="body2" color="error" sx={{ alignSelf: 'center' }}>
              The end must be after the start.
            </Typography>
          ) : null}
        </Box>
      ) : null}
      {shown ? (
        <LineChart points={points} from={shown.from} to={Math.max(shown.to, points.at(-1)?.ts ?? 0)} label={labelOf(chosen)} />
      ) : null}
      {chart.data?.truncated ? (
        <Typography variant="caption" color="warning.main">
          Only the first {chart.data.points.length} points are shown: choose an aggregation for the whole range.
        </Typography>
      ) : null}
      {chart.data?.interval ? (
        <Typography variant="caption" color="text.secondary">
          {AGG_LABELS[chart.data.agg]} per {INTERVALS.find((i) => i.value === chart.data?.interval)?.label ?? `${chart.data.interval} s`}
        </Typography>
      ) : null}
    </Box>
  );
}
