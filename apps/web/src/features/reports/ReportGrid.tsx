import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { RefreshBar } from '../../components/RefreshBar.tsx';
import { listLoading, listRefreshing } from '../sites/hooks.ts';

export interface Paging {
  page: number;
  limit: number;
}

/** A page of a report as the server answers it, with the state of its query. */
export interface ReportResult<R> {
  data?: { contents: R[]; totalCount: number };
  isFetching: boolean;
  isPending: boolean;
  isPlaceholderData: boolean;
  isError: boolean;
}

/**
 * A server-paged report table with its totals above it, and an empty state when the filters match nothing (or are
 * invalid: `skipped`, the query is not sent).
 */
export function ReportGrid<R extends GridValidRowModel>({
  result,
  skipped = false,
  ...props
}: {
  result: ReportResult<R>;
  skipped?: boolean;
  columns: GridColDef<R>[];
  paging: Paging;
  onPaging(p: Paging): void;
  getRowId?: (row: R) => string | number;
  totals?: Array<{ label: string; value: ReactNode }>;
  emptyText: string;
  testId: string;
}) {
  if (result.isError) return <ErrorState />;
  const rowCount = skipped ? 0 : (result.data?.totalCount ?? 0);
  const loading = listLoading(result);
  return (
    <Box data-testid={props.testId}>
      {props.totals && props.totals.length > 0 ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid={`${props.testId}-totals`}>
          {props.totals.map((t) => (
            <Chip key={t.label} variant="outlined" label={`${t.label}: ${t.value}`} />
          ))}
        </Box>
      ) : null}
      {!loading && rowCount === 0 ? (
        <EmptyState title={props.emptyText} description="Change the filters to see more." compact />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto', position: 'relative' }}>
          <RefreshBar active={listRefreshing(result)} />
          <DataGrid
            autoHeight
            rows={result.data?.contents ?? []}
            columns={props.columns}
            getRowId={props.getRowId}
            loading={loading}
            rowCount={rowCount}
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
