import EditOutlined from '@mui/icons-material/EditOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, GridActionsCellItem, type GridColDef, type GridRowSelectionModel } from '@mui/x-data-grid';
import { DEVICE_STATUSES, DEVICE_TYPE_LABELS, DEVICE_TYPES, type Device, type DeviceType } from '@sitewatch/contracts/devices';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { downloadCsv, fetchAll, toCsv } from '../../lib/csv.ts';
import { countOf, formatRelative } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { listLoading, useListState } from '../sites/hooks.ts';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { AlarmSettingsDialog, useAlarmDialogAvailable } from './AlarmSettingsDialog.tsx';
import { fetchDevices, useDevices } from './api.ts';
import { AlarmChip, StatusChip, ToggleChips } from './components.tsx';

const EXPORT_COLUMNS = [
  { header: 'Label', value: (d: Device) => d.label },
  { header: 'Name', value: (d: Device) => d.name },
  { header: 'Type', value: (d: Device) => DEVICE_TYPE_LABELS[d.type] },
  { header: 'Status', value: (d: Device) => d.status },
  { header: 'Alarm Status', value: (d: Device) => d.alarmStatus ?? '' },
  { header: 'Site', value: (d: Device) => d.asset?.name ?? '' },
  { header: 'Parent', value: (d: Device) => d.parent?.label ?? '' },
  { header: 'Vendor', value: (d: Device) => d.metadata.vendor ?? '' },
  { header: 'Model', value: (d: Device) => d.metadata.model ?? '' },
  { header: 'Serial Number', value: (d: Device) => d.metadata.serialNumber ?? '' },
  { header: 'Last Activity', value: (d: Device) => d.lastActivityAt ?? '' },
];

/** A server-side device list with type and status filters, search, export and row actions. */
/** The device screens that have no menu entry of their own. */
function DeviceLinks() {
  const links: [string, string][] = [
    ['/devices', 'Devices'],
    ['/device-inventory', 'Inventory'],
    ['/devices/discover', 'Discovered'],
    ['/device-template', 'Templates'],
    ['/entity-mapping', 'Mappings'],
  ];
  return (
    <Box component="nav" aria-label="Device screens" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mb: 1 }}>
      {links.map(([to, label]) => (
        <Button key={to} size="small" component={Link} to={to}>
          {label}
        </Button>
      ))}
    </Box>
  );
}

export function DeviceListView(props: {
  title: string;
  subtitle?: string;
  baseQuery: Record<string, string | number | boolean | undefined>;
  fileName: string;
  createTo?: string;
  selectable?: boolean;
  selectionActions?: (ids: number[]) => ReactNode;
  rowLink?: (d: Device) => string;
}) {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const perms = permissionsOf(useUser());
  const alarmAvailable = useAlarmDialogAvailable() && perms.has('edit_alarm_config');
  const list = useListState({ orderBy: 'name' });
  const [type, setType] = useState<DeviceType | ''>('');
  const [status, setStatus] = useState('');
  const [selection, setSelection] = useState<GridRowSelectionModel>({ type: 'include', ids: new Set() });
  const [alarmFor, setAlarmFor] = useState<number | null>(null);
  const query = {
    ...props.baseQuery,
    ...list.query,
    type: type || undefined,
    status: status || undefined,
    searchKeys: list.query.searchText ? 'label,name,site__name' : undefined,
  };
  const devices = useDevices(query);
  const [exporting, setExporting] = useState(false);
  const link = props.rowLink ?? ((d: Device) => `/devices/${d.id}/view`);

  const handleExport = async () => {
    setExporting(true);
    try {
      downloadCsv(props.fileName, toCsv(await fetchAll((page, limit) => fetchDevices({ ...query, page, limit })), EXPORT_COLUMNS));
    } finally {
      setExporting(false);
    }
  };

  const columns: GridColDef<Device>[] = [
    { field: 'label', headerName: 'Label', flex: 1, minWidth: 150, renderCell: (p) => <Link to={link(p.row)}>{p.row.label}</Link> },
    { field: 'name', headerName: 'Name', flex: 1.5, minWidth: 200 },
    { field: 'type', headerName: 'Type', width: 130, valueFormatter: (v: DeviceType) => DEVICE_TYPE_LABELS[v] ?? v },
    { field: 'status', headerName: 'Status', width: 150, renderCell: (p) => <StatusChip status={p.row.status} /> },
    { field: 'alarmStatus', headerName: 'Alarm', width: 110, renderCell: (p) => <AlarmChip alarmStatus={p.row.alarmStatus} /> },
    { field: 'site', headerName: alias, flex: 1, minWidth: 150, sortable: false, valueGetter: (_v, row) => row.asset?.name ?? '' },
    {
      field: 'flags',
      headerName: 'Flags',
      width: 170,
      sortable: false,
      renderCell: (p) => (
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', height: '100%' }}>
          <ToggleChips metadata={p.row.metadata} />
        </Box>
      ),
    },
    {
      field: 'lastActivityAt',
      headerName: 'Last activity',
      width: 140,
      valueFormatter: (v: string | null) => (v ? formatRelative(v) : '—'),
    },
    {
      field: 'actions',
      type: 'actions',
      width: 120,
      getActions: (p) => [
        <GridActionsCellItem key="view" icon={<VisibilityOutlined />} label="View" onClick={() => navigate(link(p.row))} />,
        ...(perms.has('change_device')
          ? [<GridActionsCellItem key="edit" icon={<EditOutlined />} label="Edit" onClick={() => navigate(`/devices/${p.row.id}/edit`)} />]
          : []),
        ...(alarmAvailable
          ? [
              <GridActionsCellItem
                key="alarm"
                icon={<NotificationsActiveOutlined />}
                label="Device Alerts"
                onClick={() => setAlarmFor(p.row.id)}
              />,
            ]
          : []),
      ],
    },
  ];

  const selectedIds = [...selection.ids].map(Number);
  return (
    <Box>
      <DeviceLinks />
      <PageHeader
        title={props.title}
        subtitle={props.subtitle ?? (devices.data ? countOf(devices.data.totalCount, 'device') : undefined)}
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder={`Search label, name or ${alias.toLowerCase()}`}
        onExport={() => void handleExport()}
        exporting={exporting}
        createTo={props.createTo && perms.has('add_device') ? props.createTo : undefined}
        createLabel="Add Device"
        filters={
          <>
            <TextField
              select
              size="small"
              label="Type"
              value={type}
              onChange={(e) => setType(e.target.value as DeviceType | '')}
              sx={{ minWidth: 150 }}
            >
              <MenuItem value="">All types</MenuItem>
              {DEVICE_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {DEVICE_TYPE_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            <TextField select size="small" label="Status" value={status} onChange={(e) => setStatus(e.target.value)} sx={{ minWidth: 170 }}>
              <MenuItem value="">All statuses</MenuItem>
              {DEVICE_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            {props.selectable && selectedIds.length ? props.selectionActions?.(selectedIds) : null}
          </>
        }
      />
      <DataGrid
        autoHeight
        rows={devices.data?.contents ?? []}
        columns={columns}
        loading={listLoading(devices)}
        rowCount={devices.data?.totalCount ?? 0}
        paginationMode="server"
        sortingMode="server"
        paginationModel={list.pagination}
        onPaginationModelChange={list.setPagination}
        sortModel={list.sort}
        onSortModelChange={list.setSort}
        pageSizeOptions={[20, 50, 100]}
        checkboxSelection={props.selectable}
        keepNonExistentRowsSelected
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        disableColumnMenu
        disableRowSelectionOnClick
      />
      {alarmFor !== null ? <AlarmSettingsDialog deviceId={alarmFor} open onClose={() => setAlarmFor(null)} /> : null}
    </Box>
  );
}

/** /devices: every device at the visible sites. */
export function DevicesPage() {
  return <DeviceListView title="Devices" baseQuery={{ assetId: '!null' }} fileName="Devices" createTo="/device/create" />;
}

/** /device-inventory: devices without a site, ready to be assigned. */
export function InventoryPage() {
  const navigate = useNavigate();
  // Assigning moves devices (change_device on the server): without it there is nothing to select them for.
  const mayAssign = permissionsOf(useUser()).has('change_device');
  return (
    <DeviceListView
      title="Device Inventory"
      baseQuery={{ assetId: 'null' }}
      fileName="DeviceInventory"
      createTo="/device/create"
      selectable={mayAssign}
      selectionActions={(ids) => (
        <Button variant="outlined" onClick={() => navigate(`/devices/assign?ids=${ids.join(',')}`)} data-testid="assign-selected">
          Assign {ids.length} to a site
        </Button>
      )}
    />
  );
}

/** /devices/discover: devices that provisioned themselves and wait to be added to the inventory. */
export function DiscoverPage() {
  // Reviewing a discovered device adds it to the inventory (add_device on the server).
  const mayAdd = permissionsOf(useUser()).has('add_device');
  return (
    <DeviceListView
      title="Discovered Devices"
      subtitle="Devices that registered with a customer's provisioning key. Review one to add it to the inventory."
      baseQuery={{ discovered: true }}
      fileName="DiscoveredDevices"
      rowLink={mayAdd ? (d) => `/devices/discover/${d.id}/edit` : undefined}
    />
  );
}
