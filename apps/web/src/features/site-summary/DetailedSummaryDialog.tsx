import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { SITE_SUMMARY } from '@sitewatch/contracts/sites';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import type { Query } from '../../lib/http-client.ts';
import { listLoading } from '../sites/hooks.ts';
import { siteKeys } from '../sites/keys.ts';

interface DetailedRow {
  id: number;
  name: string;
  siteId: string | null;
  routerStatus: string | null;
  dvrCount: number;
  dvrOffline: number;
  cameraCount: number;
  cameraVideoLoss: number;
  lastUpdated: string | null;
}

const COLUMNS: GridColDef<DetailedRow>[] = [
  { field: 'name', headerName: 'Site name', flex: 1, minWidth: 180 },
  { field: 'routerStatus', headerName: 'Router status', width: 140, valueFormatter: (v: string | null) => v ?? 'No router' },
  { field: 'siteId', headerName: 'Site ID', width: 120 },
  { field: 'dvrCount', headerName: 'DVRs', width: 90, type: 'number' },
  { field: 'dvrOffline', headerName: 'Offline DVRs', width: 120, type: 'number' },
  { field: 'cameraCount', headerName: 'Cameras', width: 100, type: 'number' },
  { field: 'cameraVideoLoss', headerName: 'Video loss', width: 110, type: 'number' },
  { field: 'lastUpdated', headerName: 'Last updated', width: 180, valueFormatter: (v: string | null) => (v ? formatDateTime(v) : '—') },
];

/** SPEC 2.11: the full-width 'Site detailed summary' dialog, 5 to 50 rows per page, 10 by default. */
export function DetailedSummaryDialog({ open, onClose, filter }: { open: boolean; onClose(): void; filter: Query }) {
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: SITE_SUMMARY.detailedDefaultRows });
  const rows = useQuery({
    queryKey: siteKeys.detailedSummary(filter as Query, page),
    enabled: open,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.get('/iotapp/assets/detailed-summary/', {
        query: { ...filter, page: page.page + 1, limit: page.pageSize },
      }),
  });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xl" data-testid="detailed-summary-dialog">
      <DialogTitle>Site detailed summary</DialogTitle>
      <DialogContent>
        <DataGrid
          autoHeight
          rows={rows.data?.contents ?? []}
          columns={COLUMNS}
          loading={listLoading(rows)}
          rowCount={rows.data?.totalCount ?? 0}
          paginationMode="server"
          paginationModel={page}
          onPaginationModelChange={setPage}
          pageSizeOptions={[...SITE_SUMMARY.detailedRowsOptions]}
          disableColumnMenu
          disableRowSelectionOnClick
          density="compact"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
