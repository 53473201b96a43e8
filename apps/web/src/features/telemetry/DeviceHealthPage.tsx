import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { type Alarm, type AlarmRule, MANAGE_ALARM_RULES } from '@sitewatch/contracts/alarms';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { can } from '../../lib/access.ts';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { listLoading, useDebounced } from '../sites/hooks.ts';
import { CameraAtEventButton } from '../video/CameraAtEventButton.tsx';
import { AlarmTicketAction } from './AlarmTicketAction.tsx';
import { useAlarmRules, useAlarms, useDeleteRule } from './api.ts';
import { SeverityChip } from './DeviceAlarmsPanel.tsx';
import { RuleDialog } from './RuleDialog.tsx';

const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin'];

function AlarmsTab() {
  const [state, setState] = useState<'ACTIVE' | 'ALL'>('ACTIVE');
  const [paging, setPaging] = useState({ page: 0, pageSize: 25 });
  const [search, setSearch] = useState('');
  const searched = useDebounced(search.trim(), 400);
  const alarms = useAlarms({
    state: state === 'ACTIVE' ? 'ACTIVE' : undefined,
    ...(searched ? { search: searched } : {}),
    page: paging.page + 1,
    limit: paging.pageSize,
  });
  const seesCameras = can(useUser(), 'view_camera');
  const columns: GridColDef<Alarm>[] = [
    {
      field: 'severity',
      headerName: 'Severity',
      width: 120,
      renderCell: (p) => <SeverityChip severity={p.row.severity} cleared={p.row.state === 'CLEARED'} />,
    },
    {
      field: 'deviceLabel',
      headerName: 'Device',
      flex: 1.5,
      minWidth: 260,
      valueGetter: (_v, row) => nameWithSite(row.deviceLabel, row.siteName),
      renderCell: (p) => (
        <Link to={`/devices/${p.row.deviceId}/view`}>
          <SiteNamed label={p.row.deviceLabel} site={p.row.siteName} />
        </Link>
      ),
    },
    { field: 'message', headerName: 'Alarm', flex: 2, minWidth: 220 },
    { field: 'state', headerName: 'State', width: 100, valueFormatter: (v: string) => (v === 'ACTIVE' ? 'Active' : 'Cleared') },
    { field: 'suppressedBy', headerName: 'Suppressed', width: 120, valueFormatter: (v: string | null) => v ?? '' },
    { field: 'raisedAt', headerName: 'Raised', width: 170, valueFormatter: (v: string) => formatDateTime(v) },
    { field: 'clearedAt', headerName: 'Cleared', width: 170, valueFormatter: (v: string | null) => (v ? formatDateTime(v) : '') },
    {
      field: 'ticketId',
      headerName: 'Ticket',
      width: 190,
      sortable: false,
      renderCell: (p) => <AlarmTicketAction alarm={p.row} />,
    },
    ...(seesCameras
      ? [
          {
            field: 'camera',
            headerName: 'Camera',
            width: 80,
            sortable: false,
            renderCell: (p: { row: Alarm }) => <CameraAtEventButton deviceId={p.row.deviceId} at={p.row.raisedAt} />,
          },
        ]
      : []),
  ];
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <ToggleButtonGroup size="small" exclusive value={state} onChange={(_e, v) => v && setState(v)} aria-label="Alarm state">
          <ToggleButton value="ACTIVE">Active</ToggleButton>
          <ToggleButton value="ALL">All</ToggleButton>
        </ToggleButtonGroup>
        <TextField
          size="small"
          label="Search device, site or rule"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
      </Box>
      <Paper variant="outlined" sx={{ height: 560 }}>
        <DataGrid
          rows={alarms.data?.contents ?? []}
          columns={columns}
          rowCount={alarms.data?.totalCount ?? 0}
          loading={listLoading(alarms)}
          paginationMode="server"
          paginationModel={paging}
          onPaginationModelChange={setPaging}
          pageSizeOptions={[25, 50, 100]}
          disableRowSelectionOnClick
          disableColumnFilter
          disableColumnSorting
        />
      </Paper>
    </Box>
  );
}

function RulesTab({ canEdit }: { canEdit: boolean }) {
  const rules = useAlarmRules();
  // the rule just made is on top, where its maker looks for it
  const newestFirst = useMemo(() => [...(rules.data?.contents ?? [])].sort((a, b) => b.id - a.id), [rules.data]);
  const remove = useDeleteRule();
  const [editing, setEditing] = useState<AlarmRule | null | 'new'>(null);
  const [deleting, setDeleting] = useState<AlarmRule | null>(null);
  const describe = (r: AlarmRule) =>
    r.kind === 'inactivity'
      ? `no data for ${r.durationSeconds} s`
      : `${r.key} ${r.operator} ${r.threshold}${r.durationSeconds ? ` for ${r.durationSeconds} s` : ''}`;
  const columns: GridColDef<AlarmRule>[] = [
    { field: 'name', headerName: 'Name', flex: 1, minWidth: 160 },
    { field: 'deviceType', headerName: 'Device type', width: 130, valueFormatter: (v: string | null) => v ?? 'Template' },
    { field: 'condition', headerName: 'Condition', flex: 1, minWidth: 200, valueGetter: (_v, row) => describe(row) },
    { field: 'severity', headerName: 'Severity', width: 120, renderCell: (p) => <SeverityChip severity={p.row.severity} /> },
    { field: 'createTicket', headerName: 'Ticket', width: 80, valueFormatter: (v: boolean) => (v ? 'Yes' : 'No') },
    { field: 'enabled', headerName: 'Enabled', width: 90, valueFormatter: (v: boolean) => (v ? 'Yes' : 'No') },
    ...(canEdit
      ? [
          {
            field: 'actions',
            headerName: '',
            width: 170,
            sortable: false,
            renderCell: (p: { row: AlarmRule }) => (
              <Box>
                <Button size="small" onClick={() => setEditing(p.row)}>
                  Edit
                </Button>
                <Button size="small" color="error" onClick={() => setDeleting(p.row)}>
                  Delete
                </Button>
              </Box>
            ),
          } satisfies GridColDef<AlarmRule>,
        ]
      : []),
  ];
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      {canEdit ? (
        <Box>
          <Button variant="contained" onClick={() => setEditing('new')}>
            Add rule
          </Button>
        </Box>
      ) : null}
      <Paper variant="outlined" sx={{ height: 480 }}>
        <DataGrid
          rows={newestFirst}
          columns={columns}
          loading={rules.isLoading}
          disableRowSelectionOnClick
          hideFooter={(rules.data?.contents.length ?? 0) <= 100}
        />
      </Paper>
      {editing !== null ? <RuleDialog open rule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this alarm rule?"
        text={deleting ? `"${deleting.name}" stops raising alarms. Alarms it raised stay in the history.` : undefined}
        destructive
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              showToast('success', 'Alarm rule deleted');
              setDeleting(null);
            },
          })
        }
      />
    </Box>
  );
}

/** /device-health: the estate's alarms, and the rules that raise them. */
export function DeviceHealthPage() {
  const user = useUser();
  const canEdit = (user?.userRole ?? []).some((r) => ADMIN_ROLES.includes(r)) || permissionsOf(user).has(MANAGE_ALARM_RULES.codename);
  const [tab, setTab] = useState(0);
  return (
    <Box>
      <PageHeader title="Device health" />
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ mb: 2 }}>
        <Tab label="Alarms" />
        <Tab label="Alarm rules" />
      </Tabs>
      {tab === 0 ? <AlarmsTab /> : <RulesTab canEdit={canEdit} />}
    </Box>
  );
}
