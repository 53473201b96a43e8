import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { ANALYSERS, type AnalysisResult } from '@sitewatch/contracts/analysis';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useUser } from '../../lib/session.ts';
import { listLoading } from '../sites/hooks.ts';
import { canVerifyAnalysis } from './access.ts';
import { frameUrl, type ResultFilters, useAnalysisResults } from './api.ts';
import { CameraActions } from './CameraActions.tsx';
import { analyserLabel, verdictColor, verdictLabel } from './labels.ts';

const VERDICT_FILTERS = [
  { value: '', label: 'All results' },
  { value: 'PENDING', label: 'Pending' },
  { value: 'TRUE_POSITIVE', label: 'True positives' },
  { value: 'FALSE_POSITIVE', label: 'False positives' },
] as const;

/** /image-analysis: every finding of the camera health analysers, newest first, with its frame. */
export function ImageAnalysisPage() {
  const user = useUser();
  const mayAct = canVerifyAnalysis(user);
  const [analyser, setAnalyser] = useState<ResultFilters['analyser'] | ''>('');
  const [verdict, setVerdict] = useState<ResultFilters['verdict'] | ''>('');
  const [paging, setPaging] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const results = useAnalysisResults({
    analyser: analyser || undefined,
    verdict: verdict || undefined,
    offset: paging.page * paging.pageSize,
    limit: paging.pageSize,
  });
  const columns: GridColDef<AnalysisResult>[] = [
    {
      field: 'frame',
      headerName: 'Frame',
      width: 120,
      sortable: false,
      renderCell: (p) =>
        p.row.hasFrame ? (
          <Box
            component="img"
            src={frameUrl(p.row.id)}
            alt={`Frame of ${p.row.cameraLabel}`}
            loading="lazy"
            sx={{ height: 56, borderRadius: 1 }}
          />
        ) : (
          <Typography variant="caption" color="text.secondary">
            No picture
          </Typography>
        ),
    },
    { field: 'cameraLabel', headerName: 'Camera', flex: 1, minWidth: 140 },
    { field: 'analyser', headerName: 'Analyser', width: 200, valueFormatter: (v: AnalysisResult['analyser']) => analyserLabel(v) },
    { field: 'at', headerName: 'Time', width: 180, valueFormatter: (v: string) => formatDateTime(v) },
    { field: 'score', headerName: 'Score', width: 90, type: 'number' },
    { field: 'detail', headerName: 'Detail', flex: 1.5, minWidth: 200 },
    {
      field: 'verdict',
      headerName: 'Verdict',
      width: 140,
      renderCell: (p) => <Chip size="small" label={verdictLabel(p.row.verdict)} color={verdictColor(p.row.verdict)} />,
    },
    {
      field: 'ticketNo',
      headerName: 'Ticket',
      width: 130,
      renderCell: (p) => (p.row.ticketId ? <Link to={`/tickets/all/${p.row.ticketId}`}>{p.row.ticketNo}</Link> : '—'),
    },
  ];
  const rows = results.data?.results ?? [];
  return (
    <Box>
      <PageHeader title="Image Analysis" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The recorded footage of every camera is checked about once a minute for video loss, black or frozen pictures, blur, a changed scene,
        and motion in a camera's region during its set hours.
      </Typography>
      {mayAct ? <CameraActions /> : null}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label="Analyser"
          value={analyser}
          onChange={(e) => {
            setAnalyser(e.target.value as ResultFilters['analyser'] | '');
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 220 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">All analysers</MenuItem>
          {ANALYSERS.map((a) => (
            <MenuItem key={a} value={a}>
              {analyserLabel(a)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Verdict"
          value={verdict}
          onChange={(e) => {
            setVerdict(e.target.value as ResultFilters['verdict'] | '');
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 180 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {VERDICT_FILTERS.map((f) => (
            <MenuItem key={f.value} value={f.value}>
              {f.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {!results.isLoading && rows.length === 0 && !analyser && !verdict ? (
        <EmptyState
          title="No findings yet"
          description="Results appear here as soon as an analyser finds something in a camera's footage."
          data-testid="analysis-empty"
        />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }}>
          <DataGrid
            autoHeight
            rows={rows}
            columns={columns}
            rowHeight={68}
            loading={listLoading(results)}
            rowCount={results.data?.count ?? 0}
            paginationMode="server"
            paginationModel={paging}
            onPaginationModelChange={setPaging}
            pageSizeOptions={[25, 50, 100]}
            disableRowSelectionOnClick
            sx={{ minWidth: 900 }}
          />
        </Box>
      )}
    </Box>
  );
}
