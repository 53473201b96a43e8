import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { StatusChip } from '../devices/components.tsx';
import { useDebounced } from '../sites/hooks.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';

/** The site filter (and search) of a device operations list, with its paging; changing a filter goes to page 1. */
export function useDeviceListFilters(defaultLimit: number, onChange?: () => void) {
  const [site, setSite] = useState<Option | null>(null);
  const [search, setSearch] = useState('');
  const searchText = useDebounced(search.trim(), 500);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(defaultLimit);
  return {
    site,
    search,
    searchText,
    page,
    limit,
    filtered: Boolean(site || searchText),
    setSite(v: Option | null) {
      setSite(v);
      setPage(0);
      onChange?.();
    },
    setSearch(v: string) {
      setSearch(v);
      setPage(0);
      onChange?.();
    },
    setPage,
    setLimit(v: number) {
      setLimit(v);
      setPage(0);
    },
    /** The list query's filter and page (1-based). */
    query: { ...(site ? { assetId: site.id } : {}), ...(searchText ? { search: searchText } : {}), page: page + 1, limit },
  };
}
export type DeviceListFilters = ReturnType<typeof useDeviceListFilters>;

/** The filter bar: the site picker, and a search box when the list has one. */
export function DeviceListFilterBar({ filters, searchPlaceholder }: { filters: DeviceListFilters; searchPlaceholder?: string }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
      <Box sx={{ minWidth: 220, flex: { xs: 1, sm: 'none' } }}>
        <SitePicker label="Site" value={filters.site} onChange={filters.setSite} />
      </Box>
      {searchPlaceholder ? (
        <TextField
          size="small"
          label="Search"
          placeholder={searchPlaceholder}
          value={filters.search}
          onChange={(e) => filters.setSearch(e.target.value)}
          sx={{ width: { xs: '100%', sm: 260 } }}
        />
      ) : null}
    </Box>
  );
}

/** The responsive grid of device cards. */
export function CardGrid({ minWidth, children, testId }: { minWidth: number; children: ReactNode; testId?: string }) {
  return (
    <Box
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: `repeat(auto-fill, minmax(min(${minWidth}px, 100%), 1fr))` }}
      data-testid={testId}
    >
      {children}
    </Box>
  );
}

interface ShellProps<T> {
  list: UseQueryResult<{ contents: T[]; totalCount: number }>;
  filters: DeviceListFilters;
  /** Card width and placeholder height. */
  card: { minWidth: number; height: number };
  testId: string;
  empty: { title: string; description: string; testId?: string };
  /** The page sizes offered; a single size hides the pager when everything fits on one page. */
  pageSizes: number[];
  children(items: T[]): ReactNode;
}

/** A device operations list: error, loading, empty or the card grid, and its pager. */
export function DeviceListShell<T>({ list, filters, card, testId, empty, pageSizes, children }: ShellProps<T>) {
  if (list.isError) return <ErrorState onRetry={() => list.refetch()} />;
  if (list.isLoading)
    return (
      <CardGrid minWidth={card.minWidth}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={card.height} />
        ))}
      </CardGrid>
    );
  const total = list.data?.totalCount ?? 0;
  if (total === 0) return <EmptyState compact title={empty.title} description={empty.description} data-testid={empty.testId} />;
  const fixed = pageSizes.length === 1;
  return (
    <>
      <CardGrid minWidth={card.minWidth} testId={testId}>
        {children(list.data?.contents ?? [])}
      </CardGrid>
      {fixed && total <= filters.limit ? null : (
        <TablePagination
          component="div"
          count={total}
          page={filters.page}
          rowsPerPage={filters.limit}
          rowsPerPageOptions={pageSizes}
          onPageChange={(_e, p) => filters.setPage(p)}
          onRowsPerPageChange={(e) => filters.setLimit(Number(e.target.value))}
        />
      )}
    </>
  );
}

/** One device's card in the grid: its label and connection status on top, the screen's own content below. */
export function DeviceCard({ label, status, testId, children }: { label: string; status: string; testId: string; children: ReactNode }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600, flex: 1 }}>{label}</Typography>
          <StatusChip status={status} />
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
