import Box from '@mui/material/Box';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import type { useListState } from './hooks.ts';

/**
 * A server-paged (and, unless `sortable` is false, server-sorted) table of one page of a list endpoint, driven by
 * `useListState`; it scrolls sideways inside its own box on a phone instead of widening the page.
 */
export function ListGrid<Row extends GridValidRowModel>({
  list,
  page,
  columns,
  loading,
  noRowsLabel,
  minWidth,
  sortable = true,
}: {
  list: ReturnType<typeof useListState>;
  page: { contents: readonly Row[]; totalCount: number } | undefined;
  columns: GridColDef<Row>[];
  loading: boolean;
  noRowsLabel: string;
  minWidth: number;
  sortable?: boolean;
}) {
  return (
    <Box sx={{ width: '100%', overflowX: 'auto' }}>
      <DataGrid
        autoHeight
        rows={page?.contents ?? []}
        columns={columns}
        loading={loading}
        rowCount={page?.totalCount ?? 0}
        paginationMode="server"
        paginationModel={list.pagination}
        onPaginationModelChange={list.setPagination}
        {...(sortable
          ? { sortingMode: 'server' as const, sortModel: list.sort, onSortModelChange: list.setSort }
          : { disableColumnSorting: true })}
        pageSizeOptions={[20, 50, 100]}
        disableColumnMenu
        disableRowSelectionOnClick
        localeText={{ noRowsLabel }}
        sx={{ minWidth }}
      />
    </Box>
  );
}
