import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import {
  ATTENDANCE_EXPORT_KIND,
  ATTENDANCE_IMPOSSIBLE_KMH,
  ATTENDANCE_PERMISSIONS,
  ATTENDANCE_TRUST_NOTE,
  type AttendanceRecord,
} from '@sitewatch/contracts/attendance';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useStartExport } from '../downloads/api.ts';
import type { Assignee } from '../helpdesk/tickets/api.ts';
import { UserPicker } from '../helpdesk/tickets/components.tsx';
import { listLoading } from '../sites/hooks.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useAttendanceHours, useAttendanceList } from './api.ts';

type View = 'records' | 'hours' | 'missing';

/** A YYYY-MM-DD day of the browser as the start of that day (ISO), or undefined. */
const startOf = (day: string, plusDays = 0) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** SPEC 2.2 attendance-management: who was where and when, hours per day, missing check-outs, CSV export. */
export function AttendanceManagementPage() {
  const permissions = permissionsOf(useUser());
  const [view, setView] = useState<View>('records');
  const [user, setUser] = useState<Assignee | null>(null);
  const [site, setSite] = useState<Option | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 20 });
  const dateError = from && to && to < from ? 'Please choose an end date greater than the start date' : null;
  const filters = {
    ...(user ? { userId: user.id } : {}),
    ...(site ? { assetId: site.id } : {}),
    ...(from ? { from: startOf(from) } : {}),
    ...(to ? { to: startOf(to, 1) } : {}),
  };
  const allowed = permissions.has(ATTENDANCE_PERMISSIONS.view);
  const records = useAttendanceList(
    { ...filters, ...(view === 'missing' ? { state: 'missing' } : {}), page: pagination.page + 1, limit: pagination.pageSize },
    allowed && view !== 'hours' && !dateError,
  );
  const hours = useAttendanceHours({ ...filters, timeZone }, allowed && view === 'hours' && !dateError);
  const exporter = useStartExport();
  const denied = useDenied(allowed);
  if (denied) return denied;

  const columns: GridColDef<AttendanceRecord>[] = [
    { field: 'userName', headerName: 'User', flex: 1, minWidth: 140 },
    { field: 'siteName', headerName: 'Site', flex: 1, minWidth: 140 },
    {
      field: 'checkInAt',
      headerName: 'Check in',
      width: 170,
      renderCell: (p) => <DoneAndSent done={p.row.checkInAt} sent={p.row.receivedAt.checkIn} />,
    },
    {
      field: 'checkOutAt',
      headerName: 'Check out',
      width: 190,
      renderCell: (p) =>
        p.row.checkOutAt ? (
          <DoneAndSent done={p.row.checkOutAt} sent={p.row.receivedAt.checkOut} />
        ) : p.row.missingCheckOut ? (
          <Chip size="small" color="error" label="Missing check-out" />
        ) : (
          <Chip size="small" color="success" label="On site" />
        ),
    },
    { field: 'hours', headerName: 'Hours', width: 80, valueFormatter: (v: number | null) => (v === null ? '' : String(v)) },
    { field: 'distance', headerName: 'Distance', width: 95, valueFormatter: (v: number) => `${v} m` },
    {
      field: 'impossibleTravel',
      headerName: 'Travel',
      width: 210,
      sortable: false,
      renderCell: (p) =>
        p.row.impossibleTravel ? (
          <Tooltip
            title={`${p.row.travelKmh} km/h from this user's previous check-in or check-out: faster than ${ATTENDANCE_IMPOSSIBLE_KMH} km/h, which no one travels between sites. The phone's position may be false.`}
          >
            <Chip size="small" color="warning" label={`Impossible travel · ${p.row.travelKmh} km/h`} data-testid="attendance-travel-flag" />
          </Tooltip>
        ) : (
          ''
        ),
    },
    {
      field: 'ticketId',
      headerName: 'Ticket',
      width: 90,
      renderCell: (p) => (p.row.ticketId ? <Link href={`/tickets/all/view/?ticketId=${p.row.ticketId}`}>#{p.row.ticketId}</Link> : ''),
    },
    {
      field: 'snapshot',
      headerName: 'Snapshot',
      width: 110,
      sortable: false,
      renderCell: (p) =>
        p.row.snapshot.state === 'stored' ? (
          <Link href={`/api/attendance/${p.row.id}/snapshot/`} target="_blank" rel="noopener">
            View
          </Link>
        ) : p.row.snapshot.state === 'pending' ? (
          'Taking…'
        ) : (
          ''
        ),
    },
    {
      field: 'photo',
      headerName: 'Phone photo',
      width: 110,
      sortable: false,
      renderCell: (p) =>
        p.row.photo ? (
          <Link href={`/api/attendance/${p.row.id}/photo/`} target="_blank" rel="noopener" data-testid={`attendance-photo-${p.row.id}`}>
            View
          </Link>
        ) : (
          ''
        ),
    },
  ];

  return (
    <Box>
      <PageHeader
        title="Attendance Management"
        actions={
          <Button
            variant="outlined"
            disabled={exporter.isPending || Boolean(dateError)}
            onClick={() => exporter.mutate({ kind: ATTENDANCE_EXPORT_KIND, name: 'Attendance', params: filters })}
            data-testid="attendance-export"
          >
            Export CSV
          </Button>
        }
      />
      <Alert severity="info" sx={{ mb: 2 }} data-testid="attendance-trust-note">
        {ATTENDANCE_TRUST_NOTE}
      </Alert>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, flexWrap: 'wrap' }} useFlexGap>
        <Box sx={{ minWidth: 220, flex: 1 }}>
          <UserPicker label="User" size="small" value={user} onChange={setUser} data-testid="attendance-user" />
        </Box>
        <Box sx={{ minWidth: 220, flex: 1 }}>
          <SitePicker label="Site" value={site} onChange={setSite} />
        </Box>
        <TextField
          type="date"
          size="small"
          label="From"
          sx={{ width: { xs: '100%', sm: 170 } }}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          size="small"
          label="To"
          sx={{ width: { xs: '100%', sm: 170 } }}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={Boolean(dateError)}
          helperText={dateError ?? undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <Tabs
        value={view}
        onChange={(_e, v: View) => {
          setView(v);
          setPagination((p) => ({ ...p, page: 0 }));
        }}
        variant="scrollable"
        sx={{ mb: 1 }}
      >
        <Tab value="records" label="Check-ins" />
        <Tab value="hours" label="Hours per day" data-testid="tab-hours" />
        <Tab value="missing" label="Missing check-outs" data-testid="tab-missing" />
      </Tabs>
      {view === 'hours' ? (
        hours.isError ? (
          <ErrorState onRetry={() => hours.refetch()} />
        ) : hours.data && hours.data.contents.length === 0 ? (
          <EmptyState title="No hours in this range" description="Nobody checked in with these filters." />
        ) : (
          <Box sx={{ width: '100%', overflowX: 'auto' }}>
            <DataGrid
              autoHeight
              rows={(hours.data?.contents ?? []).map((r) => ({ ...r, id: `${r.userId}-${r.day}` }))}
              columns={[
                { field: 'day', headerName: 'Day', width: 120 },
                { field: 'userName', headerName: 'User', flex: 1, minWidth: 160 },
                { field: 'hours', headerName: 'Hours', width: 90 },
                { field: 'records', headerName: 'Visits', width: 90 },
                { field: 'open', headerName: 'Open', width: 80 },
              ]}
              loading={listLoading(hours)}
              pageSizeOptions={[20, 50, 100]}
              initialState={{ pagination: { paginationModel: { pageSize: 20 } } }}
              disableColumnMenu
              disableRowSelectionOnClick
              sx={{ minWidth: 520 }}
            />
            {hours.data?.truncated ? (
              <Typography variant="body2" color="text.secondary">
                Only the latest days are shown: narrow the filters.
              </Typography>
            ) : null}
          </Box>
        )
      ) : records.isError ? (
        <ErrorState onRetry={() => records.refetch()} />
      ) : records.data && records.data.totalCount === 0 ? (
        <EmptyState
          title={view === 'missing' ? 'No missing check-outs' : 'No check-ins'}
          description={
            view === 'missing' ? 'Everyone who checked in more than a day ago has checked out.' : 'Nobody checked in with these filters.'
          }
        />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }} data-testid="attendance-grid">
          <DataGrid
            autoHeight
            rows={records.data?.contents ?? []}
            columns={columns}
            loading={listLoading(records)}
            rowCount={records.data?.totalCount ?? 0}
            paginationMode="server"
            paginationModel={pagination}
            onPaginationModelChange={setPagination}
            pageSizeOptions={[20, 50, 100]}
            disableColumnMenu
            disableColumnSorting
            disableRowSelectionOnClick
            sx={{ minWidth: 1050 }}
          />
        </Box>
      )}
    </Box>
  );
}

/** A time done at the site; with the time it arrived when the phone sent it later (from its outbox). */
function DoneAndSent({ done, sent }: { done: string; sent: string | null }) {
  const late = sent !== null && Date.parse(sent) - Date.parse(done) > 2 * 60_000;
  return (
    <span title={late ? `Sent from the phone ${formatDateTime(sent)}` : undefined} style={{ display: 'inline-block', lineHeight: 1.3 }}>
      {formatDateTime(done)}
      {late ? (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }} data-testid="attendance-sent-at">
          sent {formatDateTime(sent)}
        </Typography>
      ) : null}
    </span>
  );
}
