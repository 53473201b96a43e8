import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { TICKET_REPORTS } from '@sitewatch/contracts/helpdesk/admin';
import { TICKET_STATUS_LABELS, TICKET_TYPE_LABELS, type TicketStatus, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ScrollRegion } from '../../../components/ScrollRegion.tsx';
import { useStatusColours } from '../../../components/useStatusColours.ts';
import { type Dashboard, useDashboard } from './api.ts';
import { barHeights, dailySeries } from './dashboard-model.ts';
import { presetRange } from './model.ts';
import { type TicketPeriod, TypeAndRangeFields } from './TicketFilterFields.tsx';

function Figure({ label, value, colour, testId }: { label: string; value: string | number; colour?: string; testId?: string }) {
  const colours = useStatusColours();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        variant="h5"
        component="p"
        sx={{ fontWeight: 700, color: colour ? colours.text(colour) : undefined, whiteSpace: 'nowrap' }}
      >
        {value}
      </Typography>
    </Paper>
  );
}

function Bars({
  title,
  rows,
  label,
}: {
  title: string;
  rows: { key: string; count: number; color?: string }[];
  label?: (k: string) => string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        {title}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No tickets in the range.
        </Typography>
      ) : (
        rows.map((r) => (
          <Box key={r.key} sx={{ display: 'grid', gridTemplateColumns: '140px 1fr 48px', gap: 1, alignItems: 'center', mb: 0.5 }}>
            <Typography variant="body2" noWrap title={label ? label(r.key) : r.key}>
              {label ? label(r.key) : r.key}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={(100 * r.count) / max}
              aria-label={`${title}: ${label ? label(r.key) : r.key}, ${r.count}`}
              sx={{ height: 10, borderRadius: 5, '& .MuiLinearProgress-bar': r.color ? { bgcolor: r.color } : undefined }}
            />
            <Typography variant="body2" align="right">
              {r.count}
            </Typography>
          </Box>
        ))
      )}
    </Paper>
  );
}

const TREND_HEIGHT = 140;

/** Raised (orange) and resolved (purple) per day as an SVG with pixel heights: a day with none stays empty. */
function Trend({ days, from, to }: { days: Dashboard['perDay']; from: string; to: string }) {
  const series = dailySeries(days, from, to);
  const bars = barHeights(series, TREND_HEIGHT);
  const slot = 10;
  const width = Math.max(1, bars.length) * slot;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        Raised and resolved per day
      </Typography>
      <ScrollRegion label="Raised and resolved per day">
        <svg
          role="img"
          aria-label="Tickets raised and resolved per day"
          data-testid="dash-trend"
          viewBox={`0 0 ${width} ${TREND_HEIGHT}`}
          preserveAspectRatio="none"
          width="100%"
          height={TREND_HEIGHT}
          style={{ display: 'block', minWidth: Math.min(width, 320) }}
        >
          {bars.map((b, i) => {
            const d = series[i] as (typeof series)[number];
            return (
              <g key={b.day}>
                <title>{`${b.day}: ${d.created} raised, ${d.resolved} resolved`}</title>
                <rect
                  x={i * slot + 1}
                  y={TREND_HEIGHT - b.created}
                  width={4}
                  height={b.created}
                  fill="#ff8a00"
                  data-testid="dash-bar-raised"
                />
                <rect x={i * slot + 5} y={TREND_HEIGHT - b.resolved} width={4} height={b.resolved} fill="#9a55f2" />
              </g>
            );
          })}
        </svg>
      </ScrollRegion>
      <Typography variant="caption" color="text.secondary">
        {series[0]?.day} – {series.at(-1)?.day} · Orange: raised · Purple: resolved
      </Typography>
    </Paper>
  );
}

/** /ticket/dashboard: the tickets of a range at a glance, with links to the reports. */
export function TicketDashboardPage() {
  const [range, setRange] = useState<TicketPeriod>('last30d');
  const [type, setType] = useState<TicketType | 'all'>('all');
  const { from, to } = presetRange(range);
  const dashboard = useDashboard({ type, from, to });
  const d = dashboard.data;
  return (
    <Box>
      <PageHeader title="Ticket dashboard" actions={<TypeAndRangeFields type={type} onType={setType} range={range} onRange={setRange} />} />
      {dashboard.isError && !d ? <ErrorState onRetry={() => void dashboard.refetch()} /> : null}
      {dashboard.isFetching ? <LinearProgress sx={{ mb: 1 }} /> : null}
      {d ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', gap: 2 }}>
            <Figure label="Raised" value={d.total} testId="dash-total" />
            <Figure label="Unresolved" value={d.open} colour="#ff8a00" />
            <Figure label="Overdue" value={d.overdue} colour="#b71c1c" />
            <Figure label="Escalated" value={d.escalated} colour="#e53935" />
            <Figure label="Resolved" value={d.resolvedInRange} colour="#9a55f2" />
            <Figure label="Avg. resolution" value={d.avgResolutionHours === null ? '—' : `${d.avgResolutionHours} h`} />
            <Figure label="Avg. rating" value={d.avgRating === null ? '—' : `${d.avgRating} / 5`} />
          </Box>
          <Trend days={d.perDay} from={from} to={to} />
          <Box sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr' }, gap: 2 }}>
            <Bars title="By status" rows={d.byStatus} label={(k) => TICKET_STATUS_LABELS[k as TicketStatus] ?? k} />
            <Bars title="By priority" rows={d.byPriority} />
            <Bars title="By kind" rows={d.byType} label={(k) => TICKET_TYPE_LABELS[k as TicketType] ?? k} />
            <Bars title="Top issue types" rows={d.byEvent} />
          </Box>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
              Reports
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {Object.entries(TICKET_REPORTS).map(([kind, title]) => (
                <Button key={kind} variant="outlined" component={Link} to={`/ticket-report/${kind}`}>
                  {title}
                </Button>
              ))}
            </Box>
          </Paper>
        </Box>
      ) : null}
    </Box>
  );
}
