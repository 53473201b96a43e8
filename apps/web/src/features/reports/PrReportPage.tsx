import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { PR_STATE_LABELS, PR_STATES, type PrState, PURCHASE_REQUEST_PERMISSIONS } from '@sitewatch/contracts/purchase-requests';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useRaiseFromLowStock, useReportTable, useStoreOptions } from './api.ts';
import { PrStateChip } from './PrStateChip.tsx';
import { cleanParams, ScheduleList } from './ReportActions.tsx';
import { dateRangeError, ReportFilterBar, StoreFilter } from './ReportFilterBar.tsx';
import { money, type Paging, ReportGrid } from './ReportGrid.tsx';

interface PrRow {
  id: number;
  number: string;
  title: string;
  state: PrState;
  source: 'MANUAL' | 'TICKET' | 'LOW_STOCK';
  storeName: string;
  siteName: string | null;
  ticketId: string | null;
  requester: string;
  createdAt: string;
  total: number;
}

const SOURCE_LABELS = { MANUAL: 'Manual', TICKET: 'Ticket', LOW_STOCK: 'Low stock' } as const;

/** /pr-report: purchase requests for spare parts with their state and totals per state or month; where operators raise them. */
export function PrReportPage() {
  const permissions = permissionsOf(useUser());
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [state, setState] = useState('');
  const [source, setSource] = useState('');
  const [storeId, setStoreId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [groupBy, setGroupBy] = useState<'state' | 'month'>('state');
  const [raising, setRaising] = useState(false);
  const invalid = dateRangeError(from, to);
  const filter = cleanParams({ state, source, storeId, from, to, search: search.trim() });
  const data = useReportTable<{
    contents: PrRow[];
    totalCount: number;
    groups: Array<{ key: string; count: number; total: number }>;
    grandTotal: number;
  }>('/iotapp/reports/purchase-requests/', { ...(filter as Record<string, string>), groupBy, ...paging }, !invalid);
  const set = (fn: (v: string) => void) => (v: string) => {
    fn(v);
    setPaging((p) => ({ ...p, page: 1 }));
  };
  const columns: GridColDef<PrRow>[] = [
    {
      field: 'number',
      headerName: 'Number',
      width: 110,
      renderCell: (p) => <Link to={`/pr-report/${p.row.id}/view`}>{p.row.number}</Link>,
    },
    { field: 'title', headerName: 'Title', flex: 1, minWidth: 170 },
    {
      field: 'state',
      headerName: 'State',
      width: 120,
      renderCell: (p) => <PrStateChip state={p.row.state} />,
    },
    { field: 'source', headerName: 'Raised from', width: 110, valueGetter: (v: PrRow['source']) => SOURCE_LABELS[v] },
    { field: 'storeName', headerName: 'Store', width: 140 },
    { field: 'siteName', headerName: 'Site', width: 140 },
    { field: 'ticketId', headerName: 'Ticket', width: 110 },
    { field: 'requester', headerName: 'Requester', width: 140 },
    { field: 'createdAt', headerName: 'Created', width: 150, valueFormatter: (v: string) => new Date(v).toLocaleString() },
    { field: 'total', headerName: 'Total', width: 110, type: 'number', valueFormatter: (v: number) => money(v) },
  ];
  return (
    <Box>
      <PageHeader
        title="Purchase Requests"
        subtitle="Spare parts requested from tickets and low stock"
        actions={
          permissions.has(PURCHASE_REQUEST_PERMISSIONS.add) ? (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button variant="outlined" onClick={() => setRaising(true)} data-testid="raise-low-stock">
                Raise from low stock
              </Button>
              <Button variant="contained" component={Link} to="/pr-report/create" data-testid="new-pr">
                New request
              </Button>
            </Box>
          ) : null
        }
      />
      <ReportFilterBar kind="purchase-requests" params={filter} dates={{ from, to, onFrom: set(setFrom), onTo: set(setTo) }}>
        <TextField size="small" label="Search number, title or ticket" value={search} onChange={(e) => set(setSearch)(e.target.value)} />
        <TextField
          select
          size="small"
          label="State"
          value={state}
          onChange={(e) => set(setState)(e.target.value)}
          data-testid="filter-state"
        >
          <MenuItem value="">All states</MenuItem>
          {PR_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {PR_STATE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label="Raised from" value={source} onChange={(e) => set(setSource)(e.target.value)}>
          <MenuItem value="">Anything</MenuItem>
          {Object.entries(SOURCE_LABELS).map(([k, v]) => (
            <MenuItem key={k} value={k}>
              {v}
            </MenuItem>
          ))}
        </TextField>
        <StoreFilter value={storeId} onChange={set(setStoreId)} />
      </ReportFilterBar>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          Totals per
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={groupBy} onChange={(_e, v) => v && setGroupBy(v)}>
          <ToggleButton value="state">State</ToggleButton>
          <ToggleButton value="month">Month</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <ReportGrid
        testId="pr-report"
        result={data}
        skipped={Boolean(invalid)}
        columns={columns}
        paging={paging}
        onPaging={setPaging}
        emptyText="No purchase requests match these filters"
        totals={
          data.data
            ? [
                ...data.data.groups.map((g) => ({
                  label: groupBy === 'state' ? PR_STATE_LABELS[g.key as PrState] : g.key,
                  value: `${g.count} · ${money(g.total)}`,
                })),
                { label: 'All', value: money(data.data.grandTotal) },
              ]
            : []
        }
      />
      <ScheduleList kind="purchase-requests" />
      {raising ? <RaiseDialog onClose={() => setRaising(false)} /> : null}
    </Box>
  );
}

function RaiseDialog({ onClose }: { onClose(): void }) {
  const stores = useStoreOptions();
  const raise = useRaiseFromLowStock();
  const navigate = useNavigate();
  const [storeId, setStoreId] = useState('');
  const [submit, setSubmit] = useState(true);
  const [error, setError] = useState('');
  const withLow = (stores.data?.contents ?? []).filter((s) => s.lowCount > 0);
  const handleRaise = () => {
    if (!storeId) {
      setError('Choose a store');
      return;
    }
    raise.mutate(
      { storeId: Number(storeId), submit },
      {
        onSuccess: (pr) => {
          toast.success(`${pr.number} raised`);
          navigate(`/pr-report/${pr.id}/view`);
        },
        onError: (e) => setError((isHttpError(e) && detailOf(e.data)) || 'The request was not raised'),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="raise-dialog">
      <DialogTitle>Raise from low stock</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Every item below its threshold in the store, ordered up to twice the threshold at the last purchase price.
          </Typography>
          <TextField
            select
            label="Store"
            value={storeId}
            onChange={(e) => setStoreId(e.target.value)}
            error={Boolean(error)}
            helperText={error || (withLow.length === 0 ? 'No store has low stock now' : undefined)}
            data-testid="raise-store"
          >
            {withLow.map((s) => (
              <MenuItem key={s.id} value={String(s.id)}>
                {s.name} ({s.lowCount} low)
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={<Switch checked={submit} onChange={(e) => setSubmit(e.target.checked)} />}
            label="Submit for approval"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleRaise} disabled={raise.isPending} data-testid="raise-confirm">
          Raise
        </Button>
      </DialogActions>
    </Dialog>
  );
}
