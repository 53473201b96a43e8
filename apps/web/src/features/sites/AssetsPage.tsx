import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { ASSET_MESSAGES, type Asset } from '@sitewatch/contracts/sites';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { downloadCsv, fetchAll, toCsv } from '../../lib/csv.ts';
import { countOf, formatDateTime } from '../../lib/format.ts';
import { hasRole, permissionsOf, useUser } from '../../lib/session.ts';
import { useAssetAlias } from './alias.ts';
import { fetchAssets, useAssets, useCustomers, useDeleteAsset } from './api.ts';
import { listLoading, useListState } from './hooks.ts';
import { ListToolbar } from './ListToolbar.tsx';

const EXPORT_COLUMNS = [
  { header: 'Name', value: (a: Asset) => a.name },
  { header: 'Asset Code', value: (a: Asset) => a.metadata.assetCode ?? '' },
  { header: 'Merchant ID', value: (a: Asset) => a.metadata.merchantId ?? '' },
  { header: 'Address', value: (a: Asset) => a.address.join(' / ') },
  { header: 'Latitude', value: (a: Asset) => a.latitude ?? '' },
  { header: 'Longitude', value: (a: Asset) => a.longitude ?? '' },
  { header: 'Customer', value: (a: Asset) => a.customerName ?? '' },
  { header: 'Devices', value: (a: Asset) => a.deviceCount },
];

/** /assets: every visible site, paged, searched and sorted by the server, with export. */
export function AssetsPage() {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const user = useUser();
  const perms = permissionsOf(user);
  const list = useListState({ orderBy: 'name' });
  const [customerId, setCustomerId] = useState<number | ''>('');
  const query = { ...list.query, customerId: customerId || undefined };
  const assets = useAssets(query);
  const customers = useCustomers({ limit: 500 });
  const deletion = useDeleteConfirmation<Asset>({
    mutation: useDeleteAsset(),
    text: 'Its devices go back to the inventory. This cannot be undone.',
    successMessage: ASSET_MESSAGES.deleted,
  });
  const [exporting, setExporting] = useState(false);

  const handleExport = async () => {
    setExporting(true);
    try {
      const rows = await fetchAll((page, limit) => fetchAssets({ ...query, page, limit }));
      downloadCsv(`${alias}s`, toCsv(rows, EXPORT_COLUMNS));
    } finally {
      setExporting(false);
    }
  };

  const columns: GridColDef<Asset>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1.4,
      minWidth: 180,
      renderCell: (p) => <Link to={`/assets/view/${p.row.id}`}>{p.row.name}</Link>,
    },
    { field: 'assetCode', headerName: 'Asset Code', width: 120, valueGetter: (_v, row) => row.metadata.assetCode ?? '' },
    {
      field: 'merchantId',
      headerName: 'Merchant ID',
      width: 120,
      sortable: false,
      valueGetter: (_v, row) => row.metadata.merchantId ?? '',
    },
    {
      field: 'address',
      headerName: 'Address',
      flex: 1.4,
      minWidth: 200,
      sortable: false,
      valueGetter: (_v, row) => row.address.join(' / '),
    },
    { field: 'customerName', headerName: 'Customer', width: 160, sortable: false },
    { field: 'deviceCount', headerName: 'Devices', width: 90, type: 'number', sortable: false },
    { field: 'updatedAt', headerName: 'Updated', width: 170, valueFormatter: (v: string) => formatDateTime(v) },
    {
      field: 'actions',
      type: 'actions',
      width: 120,
      getActions: (p) => [
        <GridActionsCellItem key="view" icon={<VisibilityOutlined />} label="View" onClick={() => navigate(`/assets/view/${p.row.id}`)} />,
        ...(perms.has('change_asset')
          ? [<GridActionsCellItem key="edit" icon={<EditOutlined />} label="Edit" onClick={() => navigate(`/assets/edit/${p.row.id}`)} />]
          : []),
        ...(perms.has('delete_asset')
          ? [<GridActionsCellItem key="delete" icon={<DeleteOutline />} label="Delete" onClick={() => deletion.ask(p.row)} />]
          : []),
      ],
    },
  ];

  return (
    <Box>
      <PageHeader
        title={`${alias}s`}
        subtitle={assets.data ? countOf(assets.data.totalCount, alias.toLowerCase()) : undefined}
        actions={
          hasRole(user, 'sysadmin', 'customeradmin', 'localadmin') ? (
            <>
              <Button component={Link} to="/customers">
                Customers
              </Button>
              <Button component={Link} to="/assign-asset">
                Assign {alias.toLowerCase()}s
              </Button>
            </>
          ) : null
        }
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder={`Search ${alias}`}
        onExport={() => void handleExport()}
        exporting={exporting}
        createTo={perms.has('add_asset') ? '/assets/create' : undefined}
        createLabel={`Add ${alias}`}
        filters={
          customers.data?.contents.length ? (
            <TextField
              select
              size="small"
              label="Customer"
              value={customerId}
              onChange={(e) => setCustomerId(e.target.value === '' ? '' : Number(e.target.value))}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="">All customers</MenuItem>
              {customers.data.contents.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          ) : null
        }
      />
      <DataGrid
        autoHeight
        rows={assets.data?.contents ?? []}
        columns={columns}
        loading={listLoading(assets)}
        rowCount={assets.data?.totalCount ?? 0}
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
