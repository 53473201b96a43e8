import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  failedRowsCsv,
  USER_IMPORT_LIMITS,
  USER_IMPORT_MESSAGES,
  USER_IMPORT_TEMPLATE,
  type UserImportPreview,
  type UserImportResult,
  type UserImportRow,
} from '@sitewatch/contracts/user-import';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CsvFilePicker, type ImportColumn, ImportRowsTable } from '../../components/ImportShell.tsx';
import { downloadCsv } from '../../lib/csv.ts';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { previewUserImport, runUserImport } from './api.ts';
import { userKeys } from './keys.ts';

const SHOWN_ROWS = 200;
/** Rows created per request: small enough for a steady progress bar. */
const CHUNK = 100;

type Failed = UserImportResult['failed'][number];
interface Outcome {
  created: number;
  failed: Failed[];
}

const errorText = (error: unknown) => (isHttpError(error) ? (error.detail ?? error.message) : USER_IMPORT_MESSAGES.noData);
const errorsOf = (errors: UserImportRow['errors']) => errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');

const FAILED_COLUMNS: ImportColumn<Failed>[] = [
  { key: 'row', label: 'Row', cell: (f) => f.row },
  { key: 'username', label: 'Username', cell: (f) => f.username },
  { key: 'reason', label: 'Reason', cell: (f) => errorsOf(f.errors) },
];
const PREVIEW_COLUMNS: ImportColumn<UserImportRow>[] = [
  { key: 'row', label: 'Row', cell: (r) => r.row },
  {
    key: 'status',
    label: 'Status',
    sx: { minWidth: 160 },
    cell: (r) => (r.valid ? <Chip size="small" color="success" label="Valid" /> : errorsOf(r.errors)),
  },
  { key: 'username', label: 'Username', cell: (r) => r.username },
  { key: 'email', label: 'E-mail', cell: (r) => r.email },
  { key: 'name', label: 'Name', cell: (r) => `${r.firstname} ${r.lastname}`.trim() },
  { key: 'role', label: 'Role', cell: (r) => r.roles.join(', ') },
  { key: 'group', label: 'Group', cell: (r) => r.group },
  { key: 'sites', label: 'Sites', cell: (r) => r.sites.join(', ') },
];

/** /users "Import": a CSV of users checked row by row, then its valid rows created with a progress bar. */
export function UserImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const client = useQueryClient();
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [preview, setPreview] = useState<UserImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [onlyErrors, setOnlyErrors] = useState(false);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setError(null);
    setOutcome(null);
    setProgress(null);
    setOnlyErrors(false);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const choose = async (chosen: File | null) => {
    if (!chosen) return;
    reset();
    if (chosen.size > USER_IMPORT_LIMITS.fileBytes) {
      setError(USER_IMPORT_MESSAGES.tooLarge);
      return;
    }
    setBusy(true);
    try {
      const content = await chosen.text();
      setFile({ name: chosen.name, content });
      setPreview(await previewUserImport(chosen.name, content));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const runImport = async () => {
    if (!file || !preview) return;
    setBusy(true);
    setProgress(0);
    const done: Outcome = { created: 0, failed: [] };
    try {
      for (let from = 0; from < preview.totalRows; from += CHUNK) {
        const r = await runUserImport(file.name, file.content, from, CHUNK);
        done.created += r.created.length;
        done.failed.push(...r.failed);
        setProgress(Math.min(100, ((from + r.processedRows) / preview.totalRows) * 100));
      }
      if (done.created > 0) toast.success(`${done.created} user(s) created`);
    } catch (e) {
      setError(`${errorText(e)} (the rows before it were imported)`);
    } finally {
      setOutcome(done);
      setBusy(false);
      void client.invalidateQueries({ queryKey: userKeys.all });
    }
  };

  const downloadFailed = () => {
    if (!outcome || !preview) return;
    const byRow = new Map(preview.rows.map((r) => [r.row, r]));
    const rows = outcome.failed.map((f) => ({ ...byRow.get(f.row), row: f.row, errors: f.errors }));
    downloadCsv('users-import-errors', failedRowsCsv(rows));
  };

  const rows = (preview?.rows ?? []).filter((r) => !onlyErrors || !r.valid);
  const invalid = preview ? preview.totalRows - preview.validRows : 0;

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="lg" fullScreen={phone} aria-labelledby="user-import-title">
      <DialogTitle id="user-import-title">Import users</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }} data-testid="user-import">
        <Typography variant="body2" color="text.secondary">
          A CSV file with the columns username, email, firstname, lastname, mobile (10 digits), role, group and sites. Several roles or
          sites are separated by “;”; a site is named by its name or its code. Up to {USER_IMPORT_LIMITS.rows.toLocaleString()} users and 1
          MB. Each user receives an e-mail to set a password.{' '}
          <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${USER_IMPORT_TEMPLATE}`)}`} download="users-template.csv">
            Download the template
          </a>
        </Typography>
        <CsvFilePicker testId="user-import-file" fileName={file?.name ?? null} disabled={busy} onFile={(f) => void choose(f)} droppable />
        {busy ? (
          <LinearProgress
            variant={progress === null ? 'indeterminate' : 'determinate'}
            value={progress ?? undefined}
            aria-label={progress === null ? 'Checking the file' : `Importing: ${Math.round(progress)}%`}
          />
        ) : null}
        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}
        {outcome ? (
          <Alert
            severity={outcome.failed.length === 0 ? 'success' : outcome.created === 0 ? 'error' : 'warning'}
            data-testid="user-import-outcome"
            action={
              outcome.failed.length ? (
                <Button color="inherit" size="small" onClick={downloadFailed}>
                  Download failed rows
                </Button>
              ) : undefined
            }
          >
            {outcome.created} user(s) created, {outcome.failed.length} row(s) failed.
          </Alert>
        ) : preview ? (
          <Alert severity={preview.validRows === 0 ? 'error' : invalid ? 'warning' : 'success'} data-testid="user-import-summary">
            {preview.totalRows} row(s) read: {preview.validRows} valid, {invalid} with errors.
            {preview.validRows === 0 ? ` ${USER_IMPORT_MESSAGES.noData}.` : ''}
            {preview.ignoredColumns.length ? ` Ignored columns: ${preview.ignoredColumns.join(', ')}.` : ''}
          </Alert>
        ) : null}
        {outcome?.failed.length ? (
          <ImportRowsTable
            rows={outcome.failed.slice(0, SHOWN_ROWS)}
            columns={FAILED_COLUMNS}
            rowKey={(f) => f.row}
            rowTestId={() => 'user-import-failed'}
            ariaLabel="Rows that failed"
          />
        ) : null}
        {preview && !outcome ? (
          <>
            {invalid ? (
              <FormControlLabel
                control={<Switch checked={onlyErrors} onChange={(e) => setOnlyErrors(e.target.checked)} />}
                label="Only rows with errors"
              />
            ) : null}
            <ImportRowsTable
              rows={rows.slice(0, SHOWN_ROWS)}
              columns={PREVIEW_COLUMNS}
              rowKey={(r) => r.row}
              invalid={(r) => !r.valid}
              rowTestId={(r) => (r.valid ? 'user-import-valid' : 'user-import-invalid')}
              ariaLabel="Preview of the file"
            />
            {rows.length > SHOWN_ROWS ? (
              <Typography variant="caption" color="text.secondary">
                The first {SHOWN_ROWS} of {rows.length} rows are shown.
              </Typography>
            ) : null}
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {outcome ? 'Done' : 'Cancel'}
        </Button>
        {outcome ? null : (
          <Button
            variant="contained"
            onClick={() => void runImport()}
            disabled={busy || !preview || preview.validRows === 0}
            data-testid="user-import-confirm"
          >
            Import {preview ? `${preview.validRows} user(s)` : ''}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
