import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WidgetData } from '@sitewatch/contracts/dashboards';
import { type ReactNode, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { ScrollRegion } from '../../../components/ScrollRegion.tsx';
import { SiteNamed } from '../../../components/SiteNamed.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { EChart, type EChartOption } from './EChart.tsx';

type DataOf<K extends WidgetData['kind']> = Extract<WidgetData, { kind: K }>;

export function Centered({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      sx={{ height: '100%', display: 'grid', placeItems: 'center', textAlign: 'center', p: 1, containerType: 'inline-size' }}
    >
      {children}
    </Box>
  );
}

const statusColor = (status: string): 'success' | 'error' | 'default' =>
  status === 'Online' ? 'success' : status === 'Offline' ? 'error' : 'default';

const displayValue = (value: DataOf<'latest'>['value']) =>
  value === null ? '—' : typeof value === 'number' ? value.toLocaleString(undefined, { maximumFractionDigits: 2 }) : String(value);

/** Latest value: a big figure, a gauge (ECharts) or the device's connection status. */
export function LatestView({
  data,
  display,
  unit,
  min,
  max,
}: {
  data: DataOf<'latest'>;
  display: 'value' | 'gauge' | 'status';
  unit: string;
  min: number | null;
  max: number | null;
}) {
  const numeric = typeof data.value === 'number' ? data.value : null;
  const option = useMemo<EChartOption>(
    () => ({
      series: [
        {
          type: 'gauge',
          min: min ?? 0,
          max: max ?? Math.max(100, Math.ceil((numeric ?? 0) * 1.2)),
          radius: '95%',
          center: ['50%', '58%'],
          progress: { show: true, width: 10 },
          axisLine: { lineStyle: { width: 10 } },
          axisTick: { show: false },
          splitLine: { show: false },
          axisLabel: { show: false },
          pointer: { show: false },
          anchor: { show: false },
          title: { show: false },
          detail: { valueAnimation: false, fontSize: 18, formatter: `{value}${unit ? ` ${unit}` : ''}`, offsetCenter: [0, '10%'] },
          data: [{ value: numeric ?? 0 }],
        },
      ],
    }),
    [numeric, min, max, unit],
  );
  if (display === 'status') {
    return (
      <Centered testId="latest-status">
        <Box>
          <Chip label={data.status} color={statusColor(data.status)} />
          <Typography variant="caption" color="text.secondary" sx={{ mt: 1, display: 'block' }}>
            <SiteNamed label={data.deviceLabel} site={data.siteName} />
          </Typography>
        </Box>
      </Centered>
    );
  }
  if (display === 'gauge' && numeric !== null) return <EChart option={option} testId="latest-gauge" />;
  return (
    <Centered testId="latest-value">
      <Box>
        <Typography sx={{ fontSize: 'clamp(18px, 14cqw, 32px)', fontWeight: 600, lineHeight: 1.2, overflowWrap: 'anywhere' }}>
          {displayValue(data.value)}
          {unit ? (
            <Typography component="span" color="text.secondary" sx={{ fontSize: 16, ml: 0.5 }}>
              {unit}
            </Typography>
          ) : null}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          <SiteNamed label={data.deviceLabel} site={data.siteName} />
          {data.key ? ` · ${data.key}` : ''}
          {data.ts ? ` · ${formatDateTime(data.ts)}` : ''}
        </Typography>
      </Box>
    </Centered>
  );
}

export function SiteSummaryView({ data }: { data: DataOf<'siteSummary'> }) {
  if (data.rows.length === 0) return <Centered>No devices</Centered>;
  return (
    <ScrollRegion label="Devices by type" overflow="both" sx={{ height: '100%' }}>
      <Typography variant="caption" color="text.secondary">
        {data.sites} sites
      </Typography>
      <Table size="small" data-testid="site-summary-table">
        <TableHead>
          <TableRow>
            <TableCell>Type</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell align="right">Online</TableCell>
            <TableCell align="right">Offline</TableCell>
            <TableCell align="right">Not connected</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.rows.map((row) => (
            <TableRow key={row.type}>
              <TableCell>{row.label}</TableCell>
              <TableCell align="right">{row.total}</TableCell>
              <TableCell align="right" sx={{ color: 'success.main' }}>
                {row.online}
              </TableCell>
              <TableCell align="right" sx={{ color: 'error.main' }}>
                {row.offline}
              </TableCell>
              <TableCell align="right">{row.notC}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

const SEVERITY_COLORS: Record<string, 'warning' | 'error' | 'info' | 'default'> = {
  CRITICAL: 'error',
  MAJOR: 'error',
  MINOR: 'warning',
  WARNING: 'info',
};

export function AlarmListView({ data }: { data: DataOf<'alarmList'> }) {
  if (data.rows.length === 0) return <Centered testId="alarm-list-empty">No alarms</Centered>;
  return (
    <ScrollRegion label="Alarms" overflow="both" sx={{ height: '100%' }}>
      <Table size="small" data-testid="alarm-list">
        <TableBody>
          {data.rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell sx={{ width: 90 }}>
                <Chip size="small" label={row.severity} color={SEVERITY_COLORS[row.severity] ?? 'default'} />
              </TableCell>
              <TableCell>
                <Typography variant="body2">{row.message}</Typography>
                <Typography variant="caption" color="text.secondary">
                  <SiteNamed label={row.deviceLabel} site={row.siteName} /> · {formatDateTime(row.createdAt)}
                </Typography>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {data.truncated ? (
        <Typography variant="caption" color="text.secondary">
          {data.rows.length} of {data.totalCount}
        </Typography>
      ) : null}
    </ScrollRegion>
  );
}

export function TicketCountersView({ data }: { data: DataOf<'ticketCounters'> }) {
  const option = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'item' },
      series: [
        {
          type: 'pie',
          radius: ['45%', '70%'],
          label: { show: false },
          data: data.counts.map((c) => ({ name: c.label, value: c.count, itemStyle: { color: c.color } })),
        },
      ],
    }),
    [data.counts],
  );
  // The donut takes the room the counters leave (beside them when the widget is wide, under them when narrow),
  // and shrinks with it: a fixed size would reach past the widget's edge and be cut off.
  return (
    <Box sx={{ height: '100%', containerType: 'size' }}>
      <Box
        data-testid="ticket-counters"
        sx={{ display: 'flex', height: '100%', gap: 1, '@container (max-width: 420px)': { flexDirection: 'column' } }}
      >
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1,
            flex: '0 1 auto',
            alignContent: 'flex-start',
            maxWidth: '60%',
            '@container (max-width: 420px)': { maxWidth: '100%' },
          }}
        >
          {data.counts.map((c) => (
            <Box key={c.status} sx={{ borderLeft: 4, borderColor: c.color, pl: 1, minWidth: 72 }}>
              <Typography sx={{ fontSize: 22, fontWeight: 600 }}>{c.count}</Typography>
              <Typography variant="caption" color="text.secondary">
                {c.label}
              </Typography>
            </Box>
          ))}
        </Box>
        {data.total > 0 ? (
          <Box sx={{ flex: '1 1 0', minWidth: 0, minHeight: 0 }}>
            <EChart option={option} testId="ticket-pie" minHeight={0} />
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}

export function TicketListView({ data }: { data: DataOf<'ticketList'> }) {
  if (data.rows.length === 0) return <Centered testId="ticket-list-empty">No tickets</Centered>;
  return (
    <ScrollRegion label="Tickets" overflow="both" sx={{ height: '100%' }}>
      <Table size="small" data-testid="ticket-list">
        <TableBody>
          {data.rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                <Link component={RouterLink} to={`/tickets/all/view/?ticketId=${row.id}`}>
                  {row.ticketId}
                </Link>
                <Typography variant="body2" noWrap>
                  {row.title}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {row.status} · {row.priority}
                  {row.siteName ? ` · ${row.siteName}` : ''} · {formatDateTime(row.createdAt)}
                </Typography>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {data.truncated ? (
        <Typography variant="caption" color="text.secondary">
          {data.rows.length} of {data.totalCount}
        </Typography>
      ) : null}
    </ScrollRegion>
  );
}

export function FormResponsesView({ data }: { data: DataOf<'formResponses'> }) {
  const peak = Math.max(1, ...data.perDay.map((d) => d.count));
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column' }} data-testid="form-responses">
      <Typography sx={{ fontSize: 28, fontWeight: 600 }}>{data.total}</Typography>
      <Typography variant="caption" color="text.secondary">
        responses to {data.formName}
      </Typography>
      <Box sx={{ flex: 1, display: 'flex', alignItems: 'flex-end', gap: '2px', minHeight: 40, mt: 1 }} aria-hidden>
        {data.perDay.map((d) => (
          <Box
            key={d.day}
            title={`${d.day}: ${d.count}`}
            sx={{ flex: 1, bgcolor: 'primary.main', height: `${(d.count / peak) * 100}%`, minHeight: 1 }}
          />
        ))}
      </Box>
    </Box>
  );
}
