import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';

export interface Paging {
  page: number;
  limit: number;
}

/** A server-paged report table with its totals above it, and an empty state when the filters match nothing. */
export function ReportGrid<R extends GridValidRowModel>(props: {
  rows: R[] | undefined;
  rowCount: number;
  columns: GridColDef<R>[];
  loading: boolean;
  error: boolean;
  paging: Paging;
  onPaging(p: Paging): void;
  getRowId?: (row: R) => string | number;
  totals?: Array<{ label: string; value: ReactNode }>;
  emptyText: string;
  testId: string;
}) {
  if (props.error) return <ErrorState />;
  return (
    <Box data-testid={props.testId}>
      {props.totals && props.totals.length > 0 ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid={`${props.testId}-totals`}>
          {props.totals.map((t) => (
            <Chip key={t.label} variant="outlined" label={`${t.label}: ${t.value}`} />
          ))}
        </Box>
      ) : null}
      {!props.loading && props.rowCount === 0 ? (
        <EmptyState title={props.emptyText} description="Change the filters to see more." compact />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }}>
          <DataGrid
            autoHeight
            rows={props.rows ?? []}
            columns={props.columns}
            getRowId={props.getRowId}
            loading={props.loading}
            rowCount={props.rowCount}
            paginationMode="server"
            pageSizeOptions={[10, 20, 50, 100]}
            paginationModel={{ page: props.paging.page - 1, pageSize: props.paging.limit }}
            onPaginationModelChange={(m) => props.onPaging({ page: m.page + 1, limit: m.pageSize })}
            disableRowSelectionOnClick
            disableColumnMenu
            density="compact"
            sx={{ minWidth: 0 }}
          />
        </Box>
      )}
    </Box>
  );
}

export const money = (n: number) => n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
