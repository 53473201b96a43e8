import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { AnalysisSummaryRow } from '@sitewatch/contracts/analysis';
import { useMemo, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { listLoading } from '../sites/hooks.ts';
import { useAnalysisSummary } from './api.ts';
import { analyserLabel } from './labels.ts';

const RANGES = [
  { days: 1, label: 'Last 24 hours' },
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
];

/** /result-analysis: results and verdicts per camera and analyser, the false-positive rate and what to change. */
export function ResultAnalysisPage() {
  const [days, setDays] = useState(7);
  // whole minutes, so that the query key stays the same while the page is open
  const from = useMemo(() => new Date(Math.floor((Date.now() - days * 86_400_000) / 60_000) * 60_000).toISOString(), [days]);
  const summary = useAnalysisSummary(from);
  const rows = (summary.data?.rows ?? []).map((r) => ({ ...r, id: `${r.cameraId}:${r.analyser}` }));
  const columns: GridColDef<AnalysisSummaryRow & { id: string }>[] = [
    { field: 'cameraLabel', headerName: 'Camera', flex: 1, minWidth: 140 },
    { field: 'analyser', headerName: 'Analyser', width: 200, valueFormatter: (v: AnalysisSummaryRow['analyser']) => analyserLabel(v) },
    { field: 'total', headerName: 'Results', width: 90, type: 'number' },
    { field: 'truePositives', headerName: 'True', width: 80, type: 'number' },
    { field: 'falsePositives', headerName: 'False', width: 80, type: 'number' },
    { field: 'pending', headerName: 'Pending', width: 90, type: 'number' },
    {
      field: 'falsePositiveRate',
      headerName: 'False-positive rate',
      width: 160,
      valueFormatter: (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)} %`),
    },
    {
      field: 'suggestion',
      headerName: 'Suggestion',
      flex: 1.5,
      minWidth: 240,
      renderCell: (p) =>
        p.row.suggestion ? (
          <Alert severity="warning" sx={{ py: 0 }}>
            {p.row.suggestion}
          </Alert>
        ) : (
          ''
        ),
    },
  ];
  return (
    <Box>
      <PageHeader
        title="Result Analysis"
        actions={
          <TextField
            select
            size="small"
            label="Period"
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            sx={{ minWidth: 180 }}
          >
            {RANGES.map((r) => (
              <MenuItem key={r.days} value={r.days}>
                {r.label}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      {!summary.isLoading && rows.length === 0 ? (
        <EmptyState title="No results in this period" description="Choose a longer period, or wait for the analysers to report." />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }}>
          <DataGrid
            autoHeight
            rows={rows}
            columns={columns}
            loading={listLoading(summary)}
            getRowHeight={() => 'auto'}
            disableRowSelectionOnClick
            pageSizeOptions={[25, 50, 100]}
            initialState={{ pagination: { paginationModel: { pageSize: 25 } } }}
            sx={{ minWidth: 900 }}
          />
        </Box>
      )}
    </Box>
  );
}
