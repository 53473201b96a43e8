import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES, type DeviceType } from '@sitewatch/contracts/devices';
import { MAP, type MapSite } from '@sitewatch/contracts/sites';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { filledChip } from '../../lib/contrast.ts';
import { countOf } from '../../lib/format.ts';
import { useTreeSelection } from '../asset-tree/selection.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { useDebounced } from '../sites/hooks.ts';
import { mapQueryOf } from './map-data.ts';
import { statusColour } from './map-model.ts';
import { SiteMap } from './SiteMap.tsx';
import { useMapSites } from './useMapSites.ts';
import { useSiteFocus } from './useSiteFocus.ts';

/** The locations beside the map: searched, paged by 'Max Locations', a click flies to the site. */
export function LocationList({ sites, onPick, alias }: { sites: MapSite[]; onPick(site: MapSite): void; alias: string }) {
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim().toLowerCase(), MAP.searchDebounceMs);
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState(10);
  const filtered = useMemo(() => (search ? sites.filter((s) => s.name.toLowerCase().includes(search)) : sites), [sites, search]);
  useEffect(() => {
    setPage(0);
    const first = search ? filtered[0] : undefined;
    if (first) onPick(first);
  }, [search, filtered, onPick]);
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <Box sx={{ p: 1 }}>
        <TextField
          size="small"
          fullWidth
          placeholder={`Search ${alias}`}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          slotProps={{ htmlInput: { 'aria-label': `Search ${alias}`, 'data-testid': 'map-search' } }}
        />
      </Box>
      <Table size="small" data-testid="map-locations">
        <TableHead>
          <TableRow>
            <TableCell>{alias}</TableCell>
            <TableCell>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {filtered.slice(page * rows, page * rows + rows).map((s) => (
            <TableRow key={s.id} hover onClick={() => onPick(s)} sx={{ cursor: 'pointer' }}>
              <TableCell>{s.name}</TableCell>
              <TableCell>
                <Box
                  component="span"
                  sx={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', bgcolor: statusColour(s.status), mr: 1 }}
                />
                {s.status ?? '—'}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={filtered.length}
        page={page}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={rows}
        onRowsPerPageChange={(e) => {
          setRows(Number(e.target.value));
          setPage(0);
        }}
        rowsPerPageOptions={[...MAP.maxLocationsOptions]}
        labelRowsPerPage="Max Locations"
      />
    </Paper>
  );
}

/** /multisitestatus/dashboard: the map of SPEC 2.12 (parentDevice query parameter, default ROUTER). */
export function MultisiteStatusPage() {
  const [params] = useSearchParams();
  const { parentDevice } = mapQueryOf(params);
  if (!(DEVICE_TYPES as readonly string[]).includes(parentDevice)) {
    return (
      <EmptyState
        data-testid="not-found-state"
        title="Unknown device type"
        description={`The map shows sites by the status of a device type; "${parentDevice}" is not one.`}
        action={
          <Button component={Link} to="/multisitestatus/dashboard" variant="outlined">
            Show routers
          </Button>
        }
      />
    );
  }
  return <MultisiteMap />;
}

function MultisiteMap() {
  const alias = useAssetAlias();
  const [params] = useSearchParams();
  const { parentDevice, filter } = mapQueryOf(params);
  const selection = useTreeSelection();
  const sites = useMapSites(parentDevice, filter);
  const list = sites.data ?? [];
  const { focus, setFocus, pick } = useSiteFocus();
  const online = list.filter((s) => s.status === 'Online').length;
  const offline = list.filter((s) => s.status === 'Offline').length;
  useEffect(() => {
    if (!selection.assetId) return;
    const site = list.find((s) => s.id === selection.assetId);
    if (site) setFocus(site);
  }, [selection.assetId, list, setFocus]);
  return (
    <Box>
      <PageHeader
        title="Multi-site status"
        subtitle={`${DEVICE_TYPE_LABELS[parentDevice as DeviceType] ?? parentDevice} status of every located ${alias.toLowerCase()}${selection.path.length ? ` in ${selection.path.join(' / ')}` : ''}`}
        actions={
          <>
            <Chip label={countOf(list.length, alias.toLowerCase())} />
            <Chip label={`${online} online`} sx={filledChip(statusColour('Online'))} />
            <Chip label={`${offline} offline`} sx={filledChip(statusColour('Offline'))} />
          </>
        }
      />
      {sites.isFetching ? <LinearProgress sx={{ mb: 1 }} /> : null}
      {/* The list stands beside the map only where both fit; otherwise the map comes first, at full width. */}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: '320px minmax(0, 1fr)' } }}>
        <Box sx={{ order: { xs: 1, xl: 0 }, minWidth: 0 }}>
          <LocationList sites={list} onPick={pick} alias={alias} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <SiteMap sites={list} focus={focus} height="window" />
        </Box>
      </Box>
    </Box>
  );
}
