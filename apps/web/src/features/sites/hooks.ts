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
