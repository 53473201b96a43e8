import MapOutlined from '@mui/icons-material/MapOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import TableRowsOutlined from '@mui/icons-material/TableRowsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { DEVICE_TYPE_LABELS, type DeviceType } from '@sitewatch/contracts/devices';
import { MAP, SITE_SUMMARY, type SiteSummaryRow } from '@sitewatch/contracts/sites';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RefreshBar } from '../../components/RefreshBar.tsx';
import { api } from '../../lib/api.ts';
import { downloadCsv, toCsv } from '../../lib/csv.ts';
import type { Query } from '../../lib/http-client.ts';
import { showToast } from '../../lib/toasts.ts';
import { useChooseSite, useTreeSelection } from '../asset-tree/selection.ts';
import { deviceKeys } from '../devices/keys.ts';
import { LocationList } from '../map/MultisiteStatusPage.tsx';
import { SiteMap } from '../map/SiteMap.tsx';
import { useMapSites } from '../map/useMapSites.ts';
import { useSiteFocus } from '../map/useSiteFocus.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { listLoading, listRefreshing, useListState } from '../sites/hooks.ts';
import { siteKeys } from '../sites/keys.ts';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { DetailedSummaryDialog } from './DetailedSummaryDialog.tsx';
import { SummaryCards } from './SummaryCards.tsx';

const EXPORT_COLUMNS = [
  { header: 'Name', value: (r: SiteSummaryRow) => r.name },
  { header: 'Total', value: (r: SiteSummaryRow) => r.total },
  { header: 'Online', value: (r: SiteSummaryRow) => r.online },
  { header: 'Offline', value: (r: SiteSummaryRow) => r.offline },
  { header: 'Not Connected', value: (r: SiteSummaryRow) => r.notC },
];

/** The other screens of the device-tree layout, keeping the tree selection. */
const DASHBOARD_LINKS: [string, string][] = [
  ['/multisitestatus/dashboard', 'Map'],
  ['/genset/dashboard', 'Genset'],
  ['/ups/dashboard', 'UPS'],
  ['/rectifier/dashboard', 'Rectifier'],
  ['/alarm-panel/dashboard', 'Alarm Panel'],
  ['/meter-device/dashboard', 'Meter'],
  ['/cctv/dashboard', 'CCTV'],
  ['/sitemonitoring', 'Site Monitoring'],
];

const fetchSummary = (query: Query) => api.get('/iotapp/assets/site-summary/', { query: query });

/** /site-summary/dashboard (SPEC 2.11): type cards, the Site Summary table or map, export and the detailed dialog. */
export function SiteSummaryPage() {
  const alias = useAssetAlias();
  const client = useQueryClient();
  const location = useLocation();
  const selection = useTreeSelection();
  const filter = selection.path.length ? { path: selection.path } : {};
  const [type, setType] = useState<DeviceType | null>(null);
  const [view, setView] = useState<'table' | 'map'>('table');
  const [detailed, setDetailed] = useState(false);
  const [exportMenu, setExportMenu] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const list = useListState({ pageSize: 10, orderBy: 'name' });
  const query = { ...filter, ...list.query, type: type ?? undefined };
  const rows = useQuery({
    queryKey: siteKeys.summary(query as Query),
    queryFn: () => fetchSummary(query),
    placeholderData: keepPreviousData,
  });
  const { focus, pick } = useSiteFocus();
  const chooseSite = useChooseSite();
  const mapSites = useMapSites(MAP.defaultParentDevice, filter);

  const columns: GridColDef<SiteSummaryRow>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 200,
      renderCell: (p) => <Link to={`/sitemonitoring?assetId=${p.row.id}`}>{p.row.name}</Link>,
    },
    { field: 'total', headerName: 'Total', width: 110, type: 'number' },
    { field: 'online', headerName: 'Online', width: 110, type: 'number' },
    { field: 'offline', headerName: 'Offline', width: 110, type: 'number' },
    { field: 'notC', headerName: 'Not Connected', width: 140, type: 'number' },
  ];

  const handleExport = async (scope: 'page' | 'all') => {
    setExportMenu(null);
    setExporting(true);
    try {
      const data =
        scope === 'page'
          ? (rows.data?.contents ?? [])
          : (await fetchSummary({ ...query, page: 1, limit: SITE_SUMMARY.exportMaxRows })).contents;
      if (data.length === 0) {
        showToast('warning', 'Data Is Empty...');
        return;
      }
      downloadCsv(SITE_SUMMARY.exportFileName, toCsv(data, EXPORT_COLUMNS));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title="Site Summary"
        subtitle={selection.label ?? `All ${alias.toLowerCase()}s`}
        actions={
          <Button variant="outlined" onClick={() => setDetailed(true)} data-testid="open-detailed-summary">
            Site detailed summary
          </Button>
        }
      />
      <Box component="nav" aria-label="Dashboards" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mb: 2 }}>
        {DASHBOARD_LINKS.map(([to, label]) => (
          <Button key={to} size="small" variant="outlined" component={Link} to={{ pathname: to, search: location.search }}>
            {label}
          </Button>
        ))}
      </Box>
      <SummaryCards filter={filter} selected={type} onSelect={setType} />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Site Summary{type ? ` · ${DEVICE_TYPE_LABELS[type]}` : ''}
          </Typography>
          <Button
            startIcon={<RefreshIcon />}
            onClick={() =>
              void client
                .invalidateQueries({ queryKey: siteKeys.all })
                .then(() => client.invalidateQueries({ queryKey: deviceKeys.countsAll }))
            }
            data-testid="refresh-data"
          >
            Refresh Data
          </Button>
          <ToggleButtonGroup size="small" exclusive value={view} onChange={(_e, v) => v && setView(v)} aria-label="Table or map">
            <ToggleButton value="table" aria-label="Table view" data-testid="view-table">
              <TableRowsOutlined fontSize="small" />
            </ToggleButton>
            <ToggleButton value="map" aria-label="Map view" data-testid="view-map">
              <MapOutlined fontSize="small" />
            </ToggleButton>
          </ToggleButtonGroup>
        </Box>
        {view === 'table' ? (
          <>
            <ListToolbar
              search={list.search}
              onSearch={list.setSearch}
              placeholder="Search"
              onExport={setExportMenu}
              exporting={exporting}
            />
            <Menu open={Boolean(exportMenu)} anchorEl={exportMenu} onClose={() => setExportMenu(null)}>
              <MenuItem onClick={() => void handleExport('page')} data-testid="export-current-page">
                Current Page
              </MenuItem>
              <MenuItem onClick={() => void handleExport('all')}>All (up to {SITE_SUMMARY.exportMaxRows.toLocaleString()} rows)</MenuItem>
            </Menu>
            <Box data-testid="site-summary-grid" sx={{ position: 'relative' }}>
              <RefreshBar active={listRefreshing(rows)} />
              <DataGrid
                autoHeight
                rows={rows.data?.contents ?? []}
                columns={columns}
                loading={listLoading(rows)}
                rowCount={rows.data?.totalCount ?? 0}
                paginationMode="server"
                sortingMode="server"
                paginationModel={list.pagination}
                onPaginationModelChange={list.setPagination}
                sortModel={list.sort}
                onSortModelChange={list.setSort}
                pageSizeOptions={[10, 25, 50, 100]}
                disableColumnMenu
                disableRowSelectionOnClick
                onRowClick={(p) => chooseSite(p.row.id)}
              />
            </Box>
          </>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { lg: '320px 1fr' } }}>
            <LocationList sites={mapSites.data ?? []} onPick={pick} alias={alias} />
            <SiteMap sites={mapSites.data ?? []} focus={focus} />
          </Box>
        )}
      </Paper>
      <DetailedSummaryDialog open={detailed} onClose={() => setDetailed(false)} filter={filter} />
    </Box>
  );
}
