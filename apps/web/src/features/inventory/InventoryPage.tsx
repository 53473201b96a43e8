import AddIcon from '@mui/icons-material/Add';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { INVENTORY_PERMISSIONS, type StockRow } from '@sitewatch/contracts/inventory';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { VisuallyHidden } from '../../components/VisuallyHidden.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { useCategories, useStock, useStores } from './api.ts';
import { ItemFormDialog } from './ItemFormDialog.tsx';
import { allowedKinds, type ItemChoice, MoveDialog } from './MoveDialog.tsx';
import { StoreFormDialog } from './StoreFormDialog.tsx';

const ScanDialog = lazy(() => import('./ScanDialog.tsx').then((m) => ({ default: m.ScanDialog })));

type MoveTarget = { item: ItemChoice | null; storeId: number | null } | null;

const itemOf = (row: StockRow): ItemChoice => ({ id: row.itemId, code: row.code, name: row.name, unit: row.unit, tracking: row.tracking });

/** /inventory-management: the stores and what each holds, with search, filters, low-stock highlight and stock moves. */
export function InventoryPage() {
  const permissions = permissionsOf(useUser());
  const theme = useTheme();
  // a low stock's figure, readable on the red tint of its row
  const lowColour = useStatusColours().text(theme.palette.error.main);
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const navigate = useNavigate();
  const [storeId, setStoreId] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [tracking, setTracking] = useState<'' | 'SERIAL' | 'QUANTITY'>('');
  const [lowOnly, setLowOnly] = useState(false);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(20);
  const [moving, setMoving] = useState<MoveTarget>(null);
  const [scanning, setScanning] = useState(false);
  const [addingItem, setAddingItem] = useState(false);
  const [editingStore, setEditingStore] = useState<number | 'new' | null>(null);
  const searchText = useDebounced(search.trim(), 400);
  const stores = useStores();
  const categories = useCategories();
  const stock = useStock({
    page: page + 1,
    limit,
    ...(storeId ? { storeId } : {}),
    ...(searchText ? { search: searchText } : {}),
    ...(category ? { category } : {}),
    ...(tracking ? { tracking } : {}),
    ...(lowOnly ? { low: 'true' } : {}),
  });
  const denied = useDenied(permissions.has(INVENTORY_PERMISSIONS.view));
  if (denied) return denied;

  const canMove = allowedKinds(permissions).length > 0;
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(0);
    };
  const storeList = stores.data?.contents ?? [];
  const selectedStore = storeList.find((s) => s.id === storeId);
  const rows = stock.data?.contents ?? [];
  const filtered = Boolean(searchText || category || tracking || lowOnly);

  return (
    <Box>
      <PageHeader
        title="Inventory Management"
        subtitle="Spares and equipment on hand in each store"
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" startIcon={<QrCodeScannerIcon />} onClick={() => setScanning(true)} data-testid="inventory-scan">
              Scan
            </Button>
            {canMove ? (
              <Button variant="contained" onClick={() => setMoving({ item: null, storeId })} data-testid="inventory-move">
                Move stock
              </Button>
            ) : null}
          </Box>
        }
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2, alignItems: 'center' }} role="group" aria-label="Stores">
        <Chip
          label="All stores"
          color={storeId === null ? 'primary' : 'default'}
          onClick={() => reset(setStoreId)(null)}
          data-testid="store-all"
        />
        {storeList.map((s) => (
          <Badge
            key={s.id}
            color="error"
            badgeContent={s.lowCount}
            overlap="rectangular"
            title={s.lowCount ? `${s.lowCount} items low` : undefined}
          >
            <Chip
              label={s.name}
              color={storeId === s.id ? 'primary' : 'default'}
              onClick={() => reset(setStoreId)(s.id)}
              data-testid={`store-${s.id}`}
            />
          </Badge>
        ))}
        {permissions.has(INVENTORY_PERMISSIONS.add) ? (
          <Chip icon={<AddIcon />} label="Store" variant="outlined" onClick={() => setEditingStore('new')} data-testid="add-store" />
        ) : null}
        {permissions.has(INVENTORY_PERMISSIONS.add) ? (
          <Chip icon={<AddIcon />} label="Item" variant="outlined" onClick={() => setAddingItem(true)} data-testid="add-item" />
        ) : null}
      </Box>
      {selectedStore ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="store-summary">
          {selectedStore.siteName ? `At ${selectedStore.siteName}. ` : ''}
          {selectedStore.managers.length ? `Managed by ${selectedStore.managers.map((m) => m.name).join(', ')}.` : 'No store manager yet.'}{' '}
          {permissions.has(INVENTORY_PERMISSIONS.change) ? (
            <Button size="small" onClick={() => setEditingStore(selectedStore.id)}>
              Edit store
            </Button>
          ) : null}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        <TextField
          size="small"
          label="Search"
          placeholder="Code, name or model"
          value={search}
          onChange={(e) => reset(setSearch)(e.target.value)}
          fullWidth={false}
          sx={{ flex: '1 1 220px' }}
          slotProps={{ htmlInput: { 'data-testid': 'inventory-search', maxLength: 100 } }}
        />
        <TextField
          select
          size="small"
          label="Category"
          value={category}
          onChange={(e) => reset(setCategory)(e.target.value)}
          fullWidth={false}
          sx={{ flex: '1 1 160px', maxWidth: { sm: 220 } }}
        >
          <MenuItem value="">All categories</MenuItem>
          {(categories.data?.contents ?? []).map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Tracked by"
          value={tracking}
          onChange={(e) => reset(setTracking)(e.target.value as typeof tracking)}
          fullWidth={false}
          sx={{ flex: '1 1 130px', maxWidth: { sm: 170 } }}
        >
          <MenuItem value="">Any</MenuItem>
          <MenuItem value="SERIAL">Serial</MenuItem>
          <MenuItem value="QUANTITY">Quantity</MenuItem>
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={lowOnly}
              onChange={(e) => reset(setLowOnly)(e.target.checked)}
              slotProps={{ input: { 'aria-label': 'Low stock only' } }}
            />
          }
          label="Low stock only"
        />
      </Box>
      {stock.isError ? (
        <ErrorState onRetry={() => stock.refetch()} />
      ) : stock.data && stock.data.totalCount === 0 ? (
        <EmptyState
          title={filtered ? 'Nothing matches' : 'No stock yet'}
          description={filtered ? 'Try other filters.' : 'Receive stock into a store to see it here.'}
        />
      ) : phone ? (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'minmax(0, 1fr)' }} data-testid="stock-cards">
          {rows.map((r) => (
            <Paper
              key={`${r.itemId}-${r.storeId}`}
              variant="outlined"
              data-testid="stock-row"
              sx={{ p: 1.5, borderColor: r.low ? 'error.main' : undefined, display: 'flex', gap: 1, alignItems: 'center' }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography
                  component={Link}
                  to={`/inventory-management/${r.itemId}/view`}
                  sx={{ fontWeight: 600, display: 'block' }}
                  noWrap
                >
                  {r.name}
                </Typography>
                <Typography variant="body2" color="text.secondary" noWrap>
                  {r.code} · {r.storeName}
                </Typography>
              </Box>
              <Box sx={{ textAlign: 'right' }}>
                <Typography sx={{ fontWeight: 700, color: r.low ? lowColour : undefined }} data-testid="stock-on-hand">
                  {r.onHand} {r.unit}
                </Typography>
                {r.low ? <Chip size="small" color="error" label="Low" /> : null}
              </Box>
              {canMove ? (
                <Button size="small" onClick={() => setMoving({ item: itemOf(r), storeId: r.storeId })} aria-label={`Move ${r.name}`}>
                  Move
                </Button>
              ) : null}
            </Paper>
          ))}
        </Box>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Stock on hand">
            <TableHead>
              <TableRow>
                <TableCell>Item</TableCell>
                <TableCell>Code</TableCell>
                <TableCell>Category</TableCell>
                <TableCell>Store</TableCell>
                <TableCell align="right">On hand</TableCell>
                <TableCell align="right">Threshold</TableCell>
                {canMove ? (
                  <TableCell align="right">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </TableCell>
                ) : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow
                  key={`${r.itemId}-${r.storeId}`}
                  data-testid="stock-row"
                  sx={r.low ? { bgcolor: 'rgba(211, 47, 47, 0.08)' } : undefined}
                  hover
                >
                  <TableCell>
                    <Link to={`/inventory-management/${r.itemId}/view`}>{r.name}</Link>
                  </TableCell>
                  <TableCell>{r.code}</TableCell>
                  <TableCell>{r.category}</TableCell>
                  <TableCell>{r.storeName}</TableCell>
                  <TableCell align="right" data-testid="stock-on-hand" sx={{ fontWeight: 600, color: r.low ? lowColour : undefined }}>
                    {r.onHand} {r.unit} {r.low ? <Chip size="small" color="error" label="Low" sx={{ ml: 1 }} /> : null}
                  </TableCell>
                  <TableCell align="right">{r.lowStockThreshold || '—'}</TableCell>
                  {canMove ? (
                    <TableCell align="right">
                      <Button size="small" onClick={() => setMoving({ item: itemOf(r), storeId: r.storeId })} aria-label={`Move ${r.name}`}>
                        Move
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      <TablePagination
        component="div"
        count={stock.data?.totalCount ?? 0}
        page={page}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={limit}
        onRowsPerPageChange={(e) => {
          setLimit(Number(e.target.value));
          setPage(0);
        }}
        rowsPerPageOptions={phone ? [] : [20, 50, 100]}
        sx={{ overflow: 'hidden', '.MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
      />
      {moving ? <MoveDialog open onClose={() => setMoving(null)} item={moving.item} storeId={moving.storeId} /> : null}
      {addingItem ? (
        <ItemFormDialog open onClose={() => setAddingItem(false)} onSaved={(id) => navigate(`/inventory-management/${id}/view`)} />
      ) : null}
      {editingStore !== null ? (
        <StoreFormDialog
          open
          store={editingStore === 'new' ? null : (storeList.find((s) => s.id === editingStore) ?? null)}
          onClose={() => setEditingStore(null)}
          onDeleted={() => setStoreId(null)}
        />
      ) : null}
      {scanning ? (
        <Suspense fallback={null}>
          <ScanDialog open onClose={() => setScanning(false)} onFound={(item) => navigate(`/inventory-management/${item.id}/view`)} />
        </Suspense>
      ) : null}
    </Box>
  );
}
