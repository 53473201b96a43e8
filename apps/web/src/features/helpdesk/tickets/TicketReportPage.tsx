import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { TICKET_REPORTS, type TicketReportKind } from '@sitewatch/contracts/helpdesk/admin';
import type { TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { downloadCsv, toCsv } from '../../../lib/csv.ts';
import { listLoading } from '../../sites/hooks.ts';
import { useReport } from './api.ts';
import { presetRange } from './model.ts';
import { type TicketPeriod, TypeAndRangeFields } from './TicketFilterFields.tsx';

/** /ticket-report/{id}: one of the ticket reports, as a table that can be saved as CSV. */
export function TicketReportPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const kind = (id && id in TICKET_REPORTS ? id : 'status') as TicketReportKind;
  const [range, setRange] = useState<TicketPeriod>('last30d');
  const [type, setType] = useState<TicketType | 'all'>('all');
  const { from, to } = presetRange(range);
  const report = useReport({ kind, type, from, to });
  const data = report.data;
  const columns: GridColDef[] = (data?.columns ?? []).map((c, i) => ({
    field: c.key,
    headerName: c.label,
    flex: i === 0 ? 2 : 1,
    minWidth: 110,
  }));
  const rows = (data?.rows ?? []).map((r, i) => ({ id: i, ...r }));
  const handleExport = () => {
    if (!data) return;
    const columns = data.columns.map((c) => ({ header: c.label, value: (r: (typeof data.rows)[number]) => r[c.key] ?? '' }));
    downloadCsv(`${kind}-report`, toCsv(data.rows, columns));
  };
  if (id && !(id in TICKET_REPORTS))
    return <EmptyState title="Report not found" description="Choose a report from the ticket dashboard." />;
  return (
    <Box>
      <PageHeader
        title={TICKET_REPORTS[kind]}
        actions={
          <>
            <TextField
              select
              size="small"
              label="Report"
              value={kind}
              onChange={(e) => navigate(`/ticket-report/${e.target.value}`)}
              sx={{ minWidth: 220 }}
            >
              {Object.entries(TICKET_REPORTS).map(([k, title]) => (
                <MenuItem key={k} value={k}>
                  {title}
                </MenuItem>
              ))}
            </TextField>
            <TypeAndRangeFields type={type} onType={setType} range={range} onRange={setRange} />
            <Button startIcon={<FileDownloadOutlined />} disabled={!data?.rows.length} onClick={handleExport}>
              CSV
            </Button>
          </>
        }
      />
      {report.isError && !data ? (
        <ErrorState onRetry={() => void report.refetch()} />
      ) : !data ? (
        // the report's columns come with its first answer: a grid drawn before it would have a header row without cells
        <PageLoader />
      ) : (
        <DataGrid
          autoHeight
          rows={rows}
          columns={columns}
          loading={listLoading(report)}
          disableRowSelectionOnClick
          pageSizeOptions={[25, 50, 100]}
          initialState={{ pagination: { paginationModel: { pageSize: 25 } } }}
        />
      )}
    </Box>
  );
}
