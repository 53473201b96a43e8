import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { DEVICE_MESSAGES, DEVICE_TYPE_LABELS, DEVICE_TYPES, type DeviceTemplate, type DeviceType } from '@sitewatch/contracts/devices';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { downloadCsv, fetchAll, toCsv } from '../../lib/csv.ts';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { listLoading, useListState } from '../sites/hooks.ts';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { fetchTemplates, useDeleteTemplate, useTemplates } from './api.ts';

/** /device-template: templates per device type and vendor. */
export function TemplatesPage() {
  const navigate = useNavigate();
  const perms = permissionsOf(useUser());
  const list = useListState({ orderBy: '-updatedAt' });
  const [type, setType] = useState<DeviceType | ''>('');
  const query = { ...list.query, type: type || undefined };
  const templates = useTemplates(query);
  const deletion = useDeleteConfirmation<DeviceTemplate>({
    mutation: useDeleteTemplate(),
    text: "Devices using it keep their values and fall back to their type's keys.",
    successMessage: DEVICE_MESSAGES.templateDeleted,
  });
  const [exporting, setExporting] = useState(false);

  const columns: GridColDef<DeviceTemplate>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => <Link to={`/view-device-template/view/${p.row.id}`}>{p.row.name}</Link>,
    },
    { field: 'type', headerName: 'Type', width: 140, valueFormatter: (v: DeviceType) => DEVICE_TYPE_LABELS[v] },
    { field: 'vendor', headerName: 'Vendor', width: 140 },
    { field: 'model', headerName: 'Model', width: 160, sortable: false },
    { field: 'keys', headerName: 'Keys', width: 80, sortable: false, valueGetter: (_v, row) => row.telemetry.length },
    { field: 'deviceCount', headerName: 'Devices', width: 90, sortable: false },
    { field: 'updatedAt', headerName: 'Updated', width: 170, valueFormatter: (v: string) => formatDateTime(v) },
    {
      field: 'actions',
      type: 'actions',
      width: 120,
      getActions: (p) => [
        <GridActionsCellItem
          key="v"
          icon={<VisibilityOutlined />}
          label="View"
          onClick={() => navigate(`/view-device-template/view/${p.row.id}`)}
        />,
        ...(perms.has('change_device')
          ? [
              <GridActionsCellItem
                key="e"
                icon={<EditOutlined />}
                label="Edit"
                onClick={() => navigate(`/view-device-template/edit/${p.row.id}`)}
              />,
            ]
          : []),
        ...(perms.has('delete_device')
          ? [<GridActionsCellItem key="d" icon={<DeleteOutline />} label="Delete" onClick={() => deletion.ask(p.row)} />]
          : []),
      ],
    },
  ];

  const handleExport = async () => {
    setExporting(true);
    try {
      const rows = await fetchAll((page, limit) => fetchTemplates({ ...query, page, limit }));
      downloadCsv(
        'DeviceTemplates',
        toCsv(rows, [
          { header: 'Name', value: (t) => t.name },
          { header: 'Type', value: (t) => DEVICE_TYPE_LABELS[t.type] },
          { header: 'Vendor', value: (t) => t.vendor },
          { header: 'Model', value: (t) => t.model ?? '' },
          { header: 'Keys', value: (t) => t.telemetry.map((k) => k.key).join(' ') },
          { header: 'Devices', value: (t) => t.deviceCount },
          { header: 'Updated', value: (t) => t.updatedAt },
        ]),
      );
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box>
      <PageHeader title="Device Templates" subtitle="What each type and vendor of device reports" />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search name, vendor or model"
        onExport={() => void handleExport()}
        exporting={exporting}
        createTo={perms.has('add_device') ? '/device-template/create/' : undefined}
        createLabel="Add Template"
        filters={
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
        }
      />
      <DataGrid
        autoHeight
        rows={templates.data?.contents ?? []}
        columns={columns}
        loading={listLoading(templates)}
        rowCount={templates.data?.totalCount ?? 0}
        paginationMode="server"
        sortingMode="server"
        paginationModel={list.pagination}
        onPaginationModelChange={list.setPagination}
        sortModel={list.sort}
        onSortModelChange={list.setSort}
        pageSizeOptions={[20, 50, 100]}
        disableColumnMenu
        disableRowSelectionOnClick
      />
      {deletion.dialog}
    </Box>
  );
}
