import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useEffect, useState } from 'react';

/** The value after it stopped changing for `ms` (search boxes: SPEC 9 debounces of 500 ms and 1 s). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The part of a list query's state that decides what its grid shows while it fetches. */
export interface ListFetch {
  isFetching: boolean;
  isPending: boolean;
  isPlaceholderData: boolean;
}

/**
 * Whether a list's grid shows its loading state: on a first load and when its query changed (search, page, sort,
 * filter: the rows shown until the answer are the previous query's, kept as placeholder). A background refresh of
 * the rows shown (a pushed change, a periodic refetch, Refresh) keeps them as they are and clickable: an overlay
 * over them would take the click a person aimed at a row.
 */
export const listLoading = (q: ListFetch): boolean => q.isFetching && (q.isPending || q.isPlaceholderData);

/** Whether a list refreshes the rows it shows in the background (see `listLoading`): a thin bar may say so. */
export const listRefreshing = (q: ListFetch): boolean => q.isFetching && !listLoading(q);

/** Paging, sorting and search of a server-side list, turned into the query of SPEC 7 (page, limit, orderBy). */
export function useListState(defaults: { pageSize?: number; orderBy?: string } = {}) {
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: defaults.pageSize ?? 20 });
  const [sort, setSort] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const searchText = useDebounced(search.trim(), 500);
  const first = sort[0];
  const orderBy = first ? `${first.sort === 'desc' ? '-' : ''}${first.field}` : defaults.orderBy;
  return {
    pagination,
    setPagination,
    sort,
    setSort,
    search,
    setSearch: (value: string) => {
      setSearch(value);
      setPagination((p) => ({ ...p, page: 0 }));
    },
    query: { page: pagination.page + 1, limit: pagination.pageSize, orderBy, searchText: searchText || undefined },
  };
}
