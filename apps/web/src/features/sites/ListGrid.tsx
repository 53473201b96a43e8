import Box from '@mui/material/Box';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import { RefreshBar } from '../../components/RefreshBar.tsx';
import { type ListFetch, listLoading, listRefreshing, type useListState } from './hooks.ts';

/**
 * A server-paged (and, unless `sortable` is false, server-sorted) table of one page of a list endpoint, driven by
 * `useListState`; it scrolls sideways inside its own box on a phone instead of widening the page. It shows its loading
 * state while a first page or a changed query loads, and a thin bar over the rows while they refresh (`listLoading`).
 */
export function ListGrid<Row extends GridValidRowModel>({
  list,
  page,
  result,
  columns,
  noRowsLabel,
  minWidth,
  sortable = true,
}: {
  list: ReturnType<typeof useListState>;
  page: { contents: readonly Row[]; totalCount: number } | undefined;
  /** The state of the query that reads `page`. */
  result: ListFetch;
  columns: GridColDef<Row>[];
  noRowsLabel: string;
  minWidth: number;
  sortable?: boolean;
}) {
  return (
    <Box sx={{ width: '100%', overflowX: 'auto', position: 'relative' }}>
      <RefreshBar active={listRefreshing(result)} />
      <DataGrid
        autoHeight
        rows={page?.contents ?? []}
        columns={columns}
        loading={listLoading(result)}
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
