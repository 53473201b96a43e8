import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { Storage } from '@sitewatch/contracts/video';
import { useState } from 'react';
import { Link } from 'react-router';
import { ByteSize } from '../../components/ByteSize.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { toast } from '../../lib/toasts.ts';
import { useDeleteStorage, useStorages } from './api.ts';

/** /storages: where footage goes, how long it is kept and how much it may use. */
export function StoragesPage() {
  const storages = useStorages();
  const remove = useDeleteStorage();
  const [deleting, setDeleting] = useState<Storage | null>(null);
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
    {
      field: 'actions',
      headerName: '',
      width: 170,
      sortable: false,
      renderCell: (p) => (
        <>
          <Button size="small" component={Link} to={`/storages/${p.row.id}/edit`}>
            Edit
          </Button>
          <Button size="small" color="error" onClick={() => setDeleting(p.row)}>
            Delete
          </Button>
        </>
      ),
    },
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
      <ConfirmDialog
        open={!!deleting}
        title={`Delete '${deleting?.name ?? ''}'?`}
        text="Footage already recorded there stays on disk until retention removes it."
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Storage deleted successfully');
              setDeleting(null);
            },
          });
        }}
      />
    </Box>
  );
}
