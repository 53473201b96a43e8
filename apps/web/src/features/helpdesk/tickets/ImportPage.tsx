import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { IMPORT_LIMITS, type ImportResult, TICKET_IMPORT_COLUMNS } from '@sitewatch/contracts/helpdesk/admin';
import { HELPDESK_MESSAGES } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { CsvFilePicker, type ImportColumn, ImportRowsTable } from '../../../components/ImportShell.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { ticketKeys } from '../keys.ts';
import { importCsv, startBulkImport, useImports } from './api.ts';
import { viewPath } from './model.ts';

const IMPORT_STATUS_LABELS: Record<string, string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' };

const SAMPLE =
  'title,event,subEvent,priority,locationId,dueDate,description,metadata\nGenerator not starting,Power Failure,Generator,MAJOR,,2026-12-31 18:00,Fails on second crank,"{""ref"": ""A-12""}"\n';

function ColumnsHelp() {
  return (
    <Typography variant="body2" color="text.secondary">
      Columns:{' '}
      {Object.entries(TICKET_IMPORT_COLUMNS)
        .map(([k, t]) => `${k} (${t})`)
        .join(', ')}
      . Table headers such as Summary and Issue Type work too. Values are trimmed; numbers and JSON are read by type (invalid JSON becomes
      empty); dates are YYYY-MM-DD or YYYY-MM-DD HH:mm.{' '}
      <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE)}`} download="tickets-sample.csv">
        Download a sample
      </a>
    </Typography>
  );
}

function errorText(error: unknown) {
  return isHttpError(error) ? (error.detail ?? error.message) : HELPDESK_MESSAGES.noValidImportData;
}

/** /import: upload a CSV, see every row checked, then create the valid ones. */
export function ImportPage() {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (chosen: File, dryRun: boolean) => {
    setBusy(true);
    try {
      const r = await importCsv(chosen, dryRun);
      setResult(r);
      if (r.validRows === 0) toast.error(HELPDESK_MESSAGES.noValidImportData);
      else if (!dryRun) {
        toast.success(`${r.created.length} ticket(s) created`);
        void client.invalidateQueries({ queryKey: ticketKeys.all });
      }
    } catch (error) {
      setResult(null);
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box>
      <PageHeader
        title="Import tickets"
        subtitle={`Up to ${IMPORT_LIMITS.interactiveRows} rows; larger files go through the bulk import.`}
        actions={
          <Button component={Link} to="/bulk-import">
            Bulk import
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 1 }}>
        <ColumnsHelp />
        <CsvFilePicker
          testId="import-file"
          fileName={file?.name ?? null}
          disabled={busy}
          onFile={(chosen) => {
            setFile(chosen);
            setResult(null);
            if (chosen) void run(chosen, true);
          }}
        >
          <Button
            variant="contained"
            disabled={!file || busy || !result || result.validRows === 0 || !result.dryRun}
            onClick={() => file && void run(file, false)}
            data-testid="import-confirm"
          >
            Import {result?.dryRun ? `${result.validRows} valid row(s)` : ''}
          </Button>
        </CsvFilePicker>
        {busy ? <LinearProgress /> : null}
      </Paper>
      {result ? <ImportResultView result={result} /> : null}
    </Box>
  );
}

type ImportError = ImportResult['errors'][number];
type PreviewRow = ImportResult['preview'][number];

const ERROR_COLUMNS: ImportColumn<ImportError>[] = [
  { key: 'row', label: 'Row', cell: (e) => e.row },
  { key: 'field', label: 'Field', cell: (e) => e.field ?? '—' },
  { key: 'message', label: 'Message', cell: (e) => e.message },
];
const shownValue = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function ImportResultView({ result }: { result: ImportResult }) {
  const previewColumns: ImportColumn<PreviewRow>[] = [
    { key: 'row', label: 'Row', cell: (r) => String(r.row) },
    ...result.columns.map((c) => ({ key: c, label: c, cell: (r: PreviewRow) => shownValue(r[c]) })),
  ];
  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid="import-result">
      <Alert severity={result.validRows === 0 ? 'error' : result.errors.length ? 'warning' : 'success'}>
        {result.dryRun
          ? `${result.totalRows} row(s) read: ${result.validRows} valid, ${result.totalRows - result.validRows} with errors.`
          : `${result.created.length} ticket(s) created from ${result.totalRows} row(s).`}
        {result.validRows === 0 ? ` ${HELPDESK_MESSAGES.noValidImportData}` : ''}
        {result.ignoredColumns.length ? ` Ignored columns: ${result.ignoredColumns.join(', ')}.` : ''}
      </Alert>
      {result.created.length ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle2">Created</Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            {result.created.slice(0, 50).map((c) => (
              <Chip key={c.id} label={c.ticketId} component={Link} to={viewPath('all', c.id)} clickable />
            ))}
          </Box>
        </Paper>
      ) : null}
      {result.errors.length ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle2">Errors</Typography>
          <ImportRowsTable
            rows={result.errors}
            columns={ERROR_COLUMNS}
            rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
            ariaLabel="Errors in the file"
          />
        </Paper>
      ) : null}
      {result.dryRun && result.preview.length ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle2">Preview</Typography>
          <ImportRowsTable
            rows={result.preview}
            columns={previewColumns}
            rowKey={(r) => String(r.row)}
            invalid={(r) => !r.valid}
            rowTestId={(r) => (r.valid ? 'import-preview-row' : 'import-preview-invalid')}
            ariaLabel="Preview of the file"
          />
        </Paper>
      ) : null}
    </Box>
  );
}

/** /bulk-import: a large CSV imported in the background, with its progress and errors. */
export function BulkImportPage() {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const imports = useImports(true);
  const list = imports.data?.contents ?? [];
  return (
    <Box>
      <PageHeader
        title="Bulk import"
        subtitle={`Up to ${IMPORT_LIMITS.bulkRows.toLocaleString()} rows, created in the background.`}
        actions={
          <Button component={Link} to="/import">
            Import with preview
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 1 }}>
        <ColumnsHelp />
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          hidden
          data-testid="bulk-import-file"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (!chosen) return;
            setBusy(true);
            startBulkImport(chosen)
              .then(() => {
                toast.success('Import started');
                void imports.refetch();
              })
              .catch((error) => toast.error(errorText(error)))
              .finally(() => setBusy(false));
          }}
        />
        <Box>
          <Button variant="contained" startIcon={<UploadFileOutlined />} onClick={() => input.current?.click()} disabled={busy}>
            Upload CSV file
          </Button>
        </Box>
      </Paper>
      {list.length === 0 ? (
        <Typography color="text.secondary">No imports yet.</Typography>
      ) : (
        <Table size="small" data-testid="bulk-imports">
          <TableHead>
            <TableRow>
              <TableCell>File</TableCell>
              <TableCell>Started</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Progress</TableCell>
              <TableCell>Created</TableCell>
              <TableCell>Errors</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((i) => (
              <TableRow key={i.id}>
                <TableCell>{i.fileName}</TableCell>
                <TableCell>{formatDateTime(i.createdAt)}</TableCell>
                <TableCell>{IMPORT_STATUS_LABELS[i.status] ?? i.status}</TableCell>
                <TableCell sx={{ minWidth: 160 }}>
                  <LinearProgress
                    variant="determinate"
                    value={i.totalRows ? (100 * i.processedRows) / i.totalRows : 0}
                    aria-label={`${i.fileName}: rows imported`}
                  />
                  <Typography variant="caption">
                    {i.processedRows}/{i.totalRows}
                  </Typography>
                </TableCell>
                <TableCell>{i.createdCount}</TableCell>
                <TableCell
                  title={i.errors
                    .slice(0, 10)
                    .map((e) => `row ${e.row}: ${e.message}`)
                    .join('\n')}
                >
                  {i.errorCount}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
