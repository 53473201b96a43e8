import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { Tour } from '@sitewatch/contracts/video';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { canAdministerVideo } from '../../lib/access.ts';
import { useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useDeleteTour, useTours } from './api.ts';

/** /camera-tour (manage) and /tour-view (pick one to watch): the tours of this tenant. */
export function ToursPage({ manage: managing = true }: { manage?: boolean }) {
  const user = useUser();
  const manage = managing && canAdministerVideo(user);
  const tours = useTours();
  const remove = useDeleteTour();
  const columns: GridColDef<Tour>[] = [
    { field: 'name', headerName: 'Name', flex: 1 },
    {
      field: 'stops',
      headerName: 'Cameras',
      flex: 2,
      valueGetter: (_v, row) => row.stops.map((s) => `${s.label ?? s.cameraId} (${s.dwellSec}s)`).join(', '),
    },
    { field: 'layout', headerName: 'Layout', width: 90 },
    {
      field: 'actions',
      headerName: '',
      width: manage ? 230 : 100,
      sortable: false,
      renderCell: (p) => (
        <>
          <Button size="small" component={Link} to={`/tours/view/${p.row.id}`}>
            View
          </Button>
          {manage ? (
            <>
              <Button size="small" component={Link} to={`/tour/config/${p.row.id}`}>
                Edit
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => remove.mutate(p.row.id, { onSuccess: () => toast.success('Successfully Deleted') })}
              >
                Delete
              </Button>
            </>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <Box>
      <PageHeader
        title={manage ? 'Camera tours' : 'Tour view'}
        actions={
          manage ? (
            <Button variant="contained" component={Link} to="/tour/config/new">
              Create tour
            </Button>
          ) : undefined
        }
      />
      <DataGrid
        autoHeight
        rows={tours.data?.contents ?? []}
        columns={columns}
        loading={tours.isLoading}
        disableRowSelectionOnClick
        pageSizeOptions={[20]}
      />
    </Box>
  );
}

export const TourPickPage = () => <ToursPage manage={false} />;
