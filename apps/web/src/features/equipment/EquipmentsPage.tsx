import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import {
  EQUIPMENT_CATEGORIES,
  EQUIPMENT_MESSAGES,
  EQUIPMENT_PERMISSIONS,
  EQUIPMENT_STATUS_LABELS,
  EQUIPMENT_STATUSES,
  type Equipment,
} from '@sitewatch/contracts/equipment';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { listLoading, useListState } from '../sites/hooks.ts';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useDeleteEquipment, useEquipmentList } from './api.ts';
import { EquipmentDialog } from './EquipmentDialog.tsx';
import { WarrantyChip } from './WarrantyChip.tsx';

/** /equipments: the equipment at the sites the user sees, with search, filters, create, edit and delete. */
export function EquipmentsPage() {
  const permissions = permissionsOf(useUser());
  const [params, setParams] = useSearchParams();
  const list = useListState();
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const warranty = params.get('warranty') ?? '';
  const assetId = Number(params.get('assetId')) || undefined;
  const [editing, setEditing] = useState<Equipment | 'new' | null>(null);
  const { page, limit, searchText } = list.query;
  const query = {
    page,
    limit,
    ...(searchText ? { search: searchText } : {}),
    ...(category ? { category } : {}),
    ...(status ? { status } : {}),
    ...(warranty ? { warranty } : {}),
    ...(assetId ? { assetId } : {}),
  };
  const allowed = permissions.has(EQUIPMENT_PERMISSIONS.view);
  const items = useEquipmentList(query, allowed);
  const remove = useDeleteEquipment();
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'This removes the equipment record. Its tickets stay in the helpdesk.',
    successMessage: EQUIPMENT_MESSAGES.deleted,
  });
  const denied = useDenied(allowed);
  if (denied) return denied;
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const columns: GridColDef<Equipment>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 160,
      renderCell: (p) => <Link to={`/equipments/${p.row.id}`}>{p.row.name}</Link>,
    },
    { field: 'siteName', headerName: 'Site', flex: 1, minWidth: 140 },
    { field: 'category', headerName: 'Category', width: 110 },
    { field: 'make', headerName: 'Make / model', width: 170, valueGetter: (_v, row) => [row.make, row.model].filter(Boolean).join(' ') },
    { field: 'serial', headerName: 'Serial', width: 140 },
    { field: 'warrantyUntil', headerName: 'Warranty', width: 170, renderCell: (p) => <WarrantyChip until={p.row.warrantyUntil} /> },
    { field: 'deviceLabel', headerName: 'Device', width: 130, valueGetter: (_v, row) => row.deviceLabel ?? '' },
    {
      field: 'status',
      headerName: 'Status',
      width: 150,
      renderCell: (p) => (
        <Chip
          size="small"
          label={EQUIPMENT_STATUS_LABELS[p.row.status]}
          color={p.row.status === 'ACTIVE' ? 'success' : p.row.status === 'RETIRED' ? 'default' : 'warning'}
        />
      ),
    },
    ...(permissions.has(EQUIPMENT_PERMISSIONS.change) || permissions.has(EQUIPMENT_PERMISSIONS.delete)
      ? [
          {
            field: 'actions',
            headerName: '',
            width: 150,
            sortable: false,
            renderCell: (p) => (
              <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', height: '100%' }}>
                {permissions.has(EQUIPMENT_PERMISSIONS.change) ? (
                  <Button size="small" onClick={() => setEditing(p.row)} aria-label={`Edit ${p.row.name}`}>
                    Edit
                  </Button>
                ) : null}
                {permissions.has(EQUIPMENT_PERMISSIONS.delete) ? (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => confirm.ask({ id: p.row.id, name: p.row.name })}
                    aria-label={`Delete ${p.row.name}`}
                  >
                    Delete
                  </Button>
                ) : null}
              </Box>
            ),
          } satisfies GridColDef<Equipment>,
        ]
      : []),
  ];

  const filtered = Boolean(searchText || category || status || warranty || assetId);
  return (
    <Box>
      <PageHeader
        title="Equipments"
        actions={
          permissions.has(EQUIPMENT_PERMISSIONS.add) ? (
            <Button variant="contained" onClick={() => setEditing('new')} data-testid="add-equipment">
              Add equipment
            </Button>
          ) : null
        }
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search name, serial, make, model or site"
        filters={
          <>
            <TextField
              select
              size="small"
              label="Category"
              value={category}
              onChange={(e) => setCategory(e.target.value)}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="">All categories</MenuItem>
              {EQUIPMENT_CATEGORIES.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
            <TextField select size="small" label="Status" value={status} onChange={(e) => setStatus(e.target.value)} sx={{ minWidth: 150 }}>
              <MenuItem value="">All statuses</MenuItem>
              {EQUIPMENT_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {EQUIPMENT_STATUS_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Warranty"
              value={warranty}
              onChange={(e) => setParam('warranty', e.target.value)}
              sx={{ minWidth: 150 }}
            >
              <MenuItem value="">Any warranty</MenuItem>
              <MenuItem value="expiring">Expiring soon</MenuItem>
              <MenuItem value="expired">Expired</MenuItem>
              <MenuItem value="valid">Under warranty</MenuItem>
            </TextField>
            {assetId ? <Chip label="One site" onDelete={() => setParam('assetId', '')} /> : null}
          </>
        }
      />
      {confirm.dialog}
      {editing ? <EquipmentDialog open equipment={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {items.isError ? (
        <ErrorState onRetry={() => items.refetch()} />
      ) : items.data && items.data.totalCount === 0 && !filtered ? (
        <EmptyState title="No equipment yet" description="Add the generators, UPS, batteries and cameras installed at your sites." />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }} data-testid="equipment-grid">
          <DataGrid
            autoHeight
            rows={items.data?.contents ?? []}
            columns={columns}
            loading={listLoading(items)}
            rowCount={items.data?.totalCount ?? 0}
            paginationMode="server"
            paginationModel={list.pagination}
            onPaginationModelChange={list.setPagination}
            pageSizeOptions={[20, 50, 100]}
            disableColumnMenu
            disableColumnSorting
            disableRowSelectionOnClick
            localeText={{ noRowsLabel: 'No equipment matches' }}
            sx={{ minWidth: 980 }}
          />
        </Box>
      )}
    </Box>
  );
}
