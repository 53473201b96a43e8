import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { Storage } from '@sitewatch/contracts/video';
import { Link } from 'react-router';
import { ByteSize } from '../../components/ByteSize.tsx';
import { editDeleteColumn, useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useDeleteStorage, useStorages } from './api.ts';

/** /storages: where footage goes, how long it is kept and how much it may use. */
export function StoragesPage() {
  const storages = useStorages();
  const deletion = useDeleteConfirmation<Storage>({
    mutation: useDeleteStorage(),
    text: 'Footage already recorded there stays on disk until retention removes it.',
    successMessage: 'Storage deleted successfully',
  });
  const columns: GridColDef<Storage>[] = [
    { field: 'name', headerName: 'Name', flex: 1 },
    { field: 'path', headerName: 'Folder', flex: 1 },
    { field: 'retentionDays', headerName: 'Keep (days)', width: 120 },
    {
      field: 'maxBytes',
      headerName: 'Size limit',
      width: 130,
      renderCell: (p) => (p.row.maxBytes ? <ByteSize bytes={p.row.maxBytes} /> : 'None'),
    },
    { field: 'usedBytes', headerName: 'Used', width: 120, renderCell: (p) => <ByteSize bytes={p.row.usedBytes} /> },
    { field: 'cameraCount', headerName: 'Cameras', width: 100 },
    { field: 'isDefault', headerName: 'Default', width: 90, type: 'boolean' },
    editDeleteColumn<Storage>((row) => `/storages/${row.id}/edit`, deletion.ask),
  ];
  return (
    <Box>
      <PageHeader
        title="Storages"
        actions={
          <Button variant="contained" component={Link} to="/storages/create">
            Create storage
          </Button>
        }
      />
      <DataGrid
        autoHeight
        rows={storages.data?.contents ?? []}
        columns={columns}
        loading={storages.isLoading}
        disableRowSelectionOnClick
        pageSizeOptions={[20]}
      />
      {deletion.dialog}
    </Box>
  );
}
