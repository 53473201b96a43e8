import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACTIVITY_ACTION_LABELS, ACTIVITY_OUTCOME_LABELS, type ActivityLogEntry, USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ScrollRegion } from '../../components/ScrollRegion.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useStartExport } from '../downloads/api.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { type ActivityFilters, useActivityLog } from './api.ts';

const OBJECT_TYPES: Record<string, string> = {
  user: 'User',
  group: 'Group',
  registration: 'Registration request',
  site: 'Site',
  customer: 'Customer',
  device: 'Device',
  'device-template': 'Device template',
  'entity-mapping': 'Entity mapping',
  ticket: 'Ticket',
  'camera-config': 'Camera configuration',
  'video-storage': 'Video storage',
  'camera-tour': 'Camera tour',
  'incident-report': 'Incident report',
  'analysis-result': 'Analysis result',
  'analysis-reference': 'Camera reference frame',
  'helpdesk-settings': 'Helpdesk settings',
  'issue-type': 'Issue type',
  'escalation-policy': 'Escalation policy',
  'form-template': 'Form',
  'form-response': 'Form response',
};
const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const dayEnd = (d: string) => (d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined);

function changes(entry: ActivityLogEntry) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return keys
    .filter((k) => JSON.stringify(entry.before?.[k]) !== JSON.stringify(entry.after?.[k]))
    .map(
      (k) =>
        `${k}: ${entry.before ? JSON.stringify(entry.before[k] ?? null) : '—'} → ${entry.after ? JSON.stringify(entry.after[k] ?? null) : '—'}`,
    )
    .join('; ');
}

/** /user-activity-logs: who did what, when, from where, with before and after values; filters and CSV export. */
export function ActivityLogPage() {
  const allowed = permissionsOf(useUser()).has(USER_PERMISSIONS.view);
  const [action, setAction] = useState('');
  const [objectType, setObjectType] = useState('');
  const [userId, setUserId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters: ActivityFilters = {
    action: action || undefined,
    objectType: objectType || undefined,
    userId: /^\d+$/.test(userId) ? Number(userId) : undefined,
    from: dayStart(from),
    to: dayEnd(to),
  };
  const log = useActivityLog(filters, allowed);
  const startExport = useStartExport();
  const denied = useDenied(allowed);
  if (denied) return denied;
  const rows = log.data?.pages.flatMap((p) => p.contents) ?? [];

  return (
    <Box>
      <PageHeader
        title="User activity logs"
        actions={
          <Button
            variant="outlined"
            disabled={startExport.isPending}
            onClick={() => startExport.mutate({ kind: 'user-activity-logs', params: { ...filters } })}
            data-testid="export-activity"
          >
            Export CSV
          </Button>
        }
      />
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
        <TextField select size="small" label="Action" value={action} onChange={(e) => setAction(e.target.value)} sx={{ minWidth: 220 }}>
          <MenuItem value="">All actions</MenuItem>
          {Object.entries(ACTIVITY_ACTION_LABELS).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Object"
          value={objectType}
          onChange={(e) => setObjectType(e.target.value)}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">All objects</MenuItem>
          {Object.entries(OBJECT_TYPES).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="User ID"
          value={userId}
          onChange={(e) => setUserId(e.target.value.replace(/\D/g, ''))}
          sx={{ width: 110 }}
        />
        <TextField
          size="small"
          type="date"
          label="From"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="To"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
      {log.isError ? (
        <ErrorState onRetry={() => log.refetch()} />
      ) : !log.isLoading && rows.length === 0 ? (
        <EmptyState title="No activity" description="Nothing matches these filters." />
      ) : (
        <ScrollRegion label="Activity" component={Paper} variant="outlined">
          <Table size="small" sx={{ minWidth: 720 }}>
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Who</TableCell>
                <TableCell>What</TableCell>
                <TableCell>Object</TableCell>
                <TableCell>Changes</TableCell>
                <TableCell>From</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((e) => (
                <TableRow key={e.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(e.createdAt)}
                    {e.performedAt ? (
                      <Typography component="div" variant="caption" color="text.secondary" data-testid="activity-performed-at">
                        done at the site {formatDateTime(e.performedAt)}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    {e.actorId ? <Link to={`/user-details/${e.actorId}`}>{e.actorName ?? `User ${e.actorId}`}</Link> : (e.actorName ?? '—')}
                  </TableCell>
                  <TableCell>
                    {ACTIVITY_ACTION_LABELS[e.action] ?? e.action}
                    {e.outcome !== 'success' ? (
                      <Typography component="span" variant="caption" color="error" sx={{ ml: 1 }}>
                        {ACTIVITY_OUTCOME_LABELS[e.outcome] ?? e.outcome}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    {e.objectType === 'user' && e.objectId ? (
                      <Link to={`/user-details/${e.objectId}`}>User {e.objectId}</Link>
                    ) : e.objectType ? (
                      `${OBJECT_TYPES[e.objectType] ?? e.objectType} ${e.objectId ?? ''}`
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>{changes(e)}</TableCell>
                  <TableCell>{e.ip ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
      {log.hasNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Button onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            Load more
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
