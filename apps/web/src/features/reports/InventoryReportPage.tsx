import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { MOVEMENT_KINDS, MOVEMENT_LABELS } from '@sitewatch/contracts/inventory';
import type {
  CONSUMPTION_PERIODS,
  ConsumptionReportRow,
  MovementReportRow,
  ReportKind,
  StockReportRow,
} from '@sitewatch/contracts/reports';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useReportTable } from './api.ts';
import { cleanParams, ScheduleList } from './ReportActions.tsx';
import { dateRangeError, ReportFilterBar, StoreFilter } from './ReportFilterBar.tsx';
import { money, type Paging, ReportGrid } from './ReportGrid.tsx';

type ReportTab = 'stock' | 'movements' | 'consumption';
const KIND: Record<ReportTab, ReportKind> = {
  stock: 'inventory-stock',
  movements: 'inventory-movements',
  consumption: 'inventory-consumption',
};

/** /inventory-report: stock on hand with its value, the movements ledger and consumption per site, with exports and schedules. */
export function InventoryReportPage() {
  const [params, setParams] = useSearchParams();
  const tab = (['stock', 'movements', 'consumption'].includes(params.get('tab') ?? '') ? params.get('tab') : 'stock') as ReportTab;
  const setTab = (next: ReportTab) => setParams(new URLSearchParams({ tab: next }), { replace: true });
  return (
    <Box>
      <PageHeader title="Inventory Report" subtitle="Stock, movements and consumption per site" />
      <Tabs value={tab} onChange={(_e, v: ReportTab) => setTab(v)} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2 }}>
        <Tab value="stock" label="Stock on hand" data-testid="tab-stock" />
        <Tab value="movements" label="Movements" data-testid="tab-movements" />
        <Tab value="consumption" label="Consumption per site" data-testid="tab-consumption" />
      </Tabs>
      {tab === 'stock' ? <StockTab /> : tab === 'movements' ? <MovementsTab /> : <ConsumptionTab />}
      <ScheduleList kind={KIND[tab]} />
    </Box>
  );
}

function StockTab() {
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [search, setSearch] = useState('');
  const [storeId, setStoreId] = useState('');
  const [low, setLow] = useState('');
  const filter = cleanParams({ search: search.trim(), storeId, low });
  const data = useReportTable<{ contents: StockReportRow[]; totalCount: number; totals: { onHand: number; value: number; low: number } }>(
    '/iotapp/reports/inventory/stock/',
    { ...(filter as Record<string, string>), ...paging },
  );
  const columns: GridColDef<StockReportRow>[] = [
    { field: 'code', headerName: 'Code', width: 130 },
    { field: 'name', headerName: 'Item', flex: 1, minWidth: 160 },
    { field: 'storeName', headerName: 'Store', flex: 1, minWidth: 130 },
    { field: 'siteName', headerName: 'Site', width: 140 },
    { field: 'onHand', headerName: 'On hand', width: 90, type: 'number' },
    { field: 'threshold', headerName: 'Threshold', width: 90, type: 'number' },
    { field: 'low', headerName: 'Low', width: 70, valueGetter: (v) => (v ? 'Yes' : '') },
    { field: 'unitCost', headerName: 'Unit cost', width: 100, type: 'number', valueFormatter: (v: number) => money(v) },
    { field: 'value', headerName: 'Value', width: 110, type: 'number', valueFormatter: (v: number) => money(v) },
  ];
  const set = (fn: (v: string) => void) => (v: string) => {
    fn(v);
    setPaging((p) => ({ ...p, page: 1 }));
  };
  return (
    <>
      <ReportFilterBar kind="inventory-stock" params={filter}>
        <TextField
          size="small"
          label="Search item, code or store"
          value={search}
          onChange={(e) => set(setSearch)(e.target.value)}
          data-testid="filter-search"
        />
        <StoreFilter value={storeId} onChange={set(setStoreId)} />
        <TextField select size="small" label="Stock level" value={low} onChange={(e) => set(setLow)(e.target.value)}>
          <MenuItem value="">All</MenuItem>
          <MenuItem value="true">Low stock only</MenuItem>
        </TextField>
      </ReportFilterBar>
      <ReportGrid
        testId="stock-report"
        result={data}
        columns={columns}
        paging={paging}
        onPaging={setPaging}
        getRowId={(r) => `${r.itemId}-${r.storeId}`}
        emptyText="No stock matches these filters"
        totals={
          data.data
            ? [
                { label: 'Rows', value: data.data.totalCount },
                { label: 'On hand', value: data.data.totals.onHand },
                { label: 'Value', value: money(data.data.totals.value) },
                { label: 'Low', value: data.data.totals.low },
              ]
            : []
        }
      />
    </>
  );
}

function MovementsTab() {
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [kind, setKind] = useState('');
  const [storeId, setStoreId] = useState('');
  const [ticketId, setTicketId] = useState('');
  const invalid = dateRangeError(from, to);
  const ticketInvalid = ticketId !== '' && !/^\d{1,9}$/.test(ticketId);
  const filter = cleanParams({ from, to, kind, storeId, ticketId: ticketInvalid ? '' : ticketId });
  const data = useReportTable<{
    contents: MovementReportRow[];
    totalCount: number;
    totals: Array<{ kind: string; count: number; quantity: number }>;
  }>('/iotapp/reports/inventory/movements/', { ...(filter as Record<string, string>), ...paging }, !invalid);
  const columns: GridColDef<MovementReportRow>[] = [
    { field: 'createdAt', headerName: 'Date', width: 160, valueFormatter: (v: string) => new Date(v).toLocaleString() },
    { field: 'kind', headerName: 'Type', width: 110, valueFormatter: (v: keyof typeof MOVEMENT_LABELS) => MOVEMENT_LABELS[v] },
    { field: 'itemCode', headerName: 'Code', width: 120 },
    { field: 'itemName', headerName: 'Item', flex: 1, minWidth: 150 },
    { field: 'quantity', headerName: 'Qty', width: 70, type: 'number' },
    { field: 'fromStore', headerName: 'From', width: 130 },
    { field: 'toStore', headerName: 'To', width: 130 },
    { field: 'ticketId', headerName: 'Ticket', width: 80 },
    { field: 'note', headerName: 'Note', flex: 1, minWidth: 120 },
  ];
  const set = (fn: (v: string) => void) => (v: string) => {
    fn(v);
    setPaging((p) => ({ ...p, page: 1 }));
  };
  return (
    <>
      <ReportFilterBar kind="inventory-movements" params={filter} dates={{ from, to, onFrom: set(setFrom), onTo: set(setTo) }}>
        <TextField select size="small" label="Type" value={kind} onChange={(e) => set(setKind)(e.target.value)} data-testid="filter-kind">
          <MenuItem value="">All types</MenuItem>
          {MOVEMENT_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {MOVEMENT_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        <StoreFilter value={storeId} onChange={set(setStoreId)} />
        <TextField
          size="small"
          label="Ticket number"
          value={ticketId}
          onChange={(e) => set(setTicketId)(e.target.value)}
          error={ticketInvalid}
          helperText={ticketInvalid ? 'Enter the ticket number' : undefined}
        />
      </ReportFilterBar>
      <ReportGrid
        testId="movement-report"
        result={data}
        skipped={Boolean(invalid)}
        columns={columns}
        paging={paging}
        onPaging={setPaging}
        emptyText="No movements match these filters"
        totals={(data.data?.totals ?? []).map((t) => ({
          label: MOVEMENT_LABELS[t.kind as keyof typeof MOVEMENT_LABELS],
          value: `${t.count} (${t.quantity} units)`,
        }))}
      />
    </>
  );
}

function ConsumptionTab() {
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [period, setPeriod] = useState<(typeof CONSUMPTION_PERIODS)[number]>('month');
  const invalid = dateRangeError(from, to);
  const filter = cleanParams({ from, to, period });
  const data = useReportTable<{
    contents: ConsumptionReportRow[];
    totalCount: number;
    totals: { issued: number; returned: number; consumed: number; value: number };
  }>('/iotapp/reports/inventory/consumption/', { ...(filter as Record<string, string>), ...paging }, !invalid);
  const columns: GridColDef<ConsumptionReportRow>[] = [
    { field: 'period', headerName: 'Period', width: 110 },
    { field: 'siteName', headerName: 'Site', flex: 1, minWidth: 140 },
    { field: 'itemCode', headerName: 'Code', width: 120 },
    { field: 'itemName', headerName: 'Item', flex: 1, minWidth: 150 },
    { field: 'issued', headerName: 'Issued', width: 80, type: 'number' },
    { field: 'returned', headerName: 'Returned', width: 90, type: 'number' },
    { field: 'consumed', headerName: 'Consumed', width: 95, type: 'number' },
    { field: 'value', headerName: 'Value', width: 110, type: 'number', valueFormatter: (v: number) => money(v) },
  ];
  return (
    <>
      <ReportFilterBar kind="inventory-consumption" params={filter} dates={{ from, to, onFrom: setFrom, onTo: setTo }}>
        <TextField select size="small" label="Per" value={period} onChange={(e) => setPeriod(e.target.value as typeof period)}>
          <MenuItem value="day">Day</MenuItem>
          <MenuItem value="week">Week</MenuItem>
          <MenuItem value="month">Month</MenuItem>
        </TextField>
      </ReportFilterBar>
      <ReportGrid
        testId="consumption-report"
        result={data}
        skipped={Boolean(invalid)}
        columns={columns}
        paging={paging}
        onPaging={setPaging}
        getRowId={(r) => `${r.period}-${r.assetId}-${r.itemCode}`}
        emptyText="Nothing was issued in this period"
        totals={
          data.data
            ? [
                { label: 'Issued', value: data.data.totals.issued },
                { label: 'Returned', value: data.data.totals.returned },
                { label: 'Consumed', value: data.data.totals.consumed },
                { label: 'Value', value: money(data.data.totals.value) },
              ]
            : []
        }
      />
    </>
  );
}
