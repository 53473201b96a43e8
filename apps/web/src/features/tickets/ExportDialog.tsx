import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { HELPDESK_MESSAGES } from '@sitewatch/contracts/helpdesk/tickets';
import { useEffect, useRef, useState } from 'react';
import type { Query } from '../../lib/http-client.ts';
import { toast } from '../../lib/toasts.ts';
import { fetchTickets } from './api.ts';
import { abortableSleep, ExportCancelled, type ExportPhase, exportTickets, PHASE_MESSAGE } from './export.ts';
import { ALL_COLUMNS, exceedsMonths } from './model.ts';

/** Saves text as a file through a temporary link (the browser's download). */
function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The export of the list as CSV (SPEC 9): every column, the list's filters, page by page with progress, and a
 * Cancel that stops it at once. The range must be at most 6 months.
 */
export function ExportDialog(props: { open: boolean; query: Query; fileName: string; onClose(): void }) {
  const [phase, setPhase] = useState<ExportPhase>('fetching');
  const [progress, setProgress] = useState({ fetched: 0, total: 0 });
  const controller = useRef<AbortController | null>(null);
  const from = String(props.query.from ?? '');
  const to = String(props.query.to ?? '');
  const tooLong = Boolean(from && to && exceedsMonths(from, to));

  // biome-ignore lint/correctness/useExhaustiveDependencies: start once per opening; the query is fixed while the dialog is open
  useEffect(() => {
    if (!props.open || tooLong) return;
    const abort = new AbortController();
    controller.current = abort;
    setPhase('fetching');
    setProgress({ fetched: 0, total: 0 });
    exportTickets(
      {
        fetchPage: (page, limit, signal) => fetchTickets({ ...props.query, page, limit }, signal),
        sleep: abortableSleep,
        onProgress: (p) => {
          setPhase(p.phase);
          setProgress({ fetched: p.fetched, total: p.total });
        },
        onLimit: (max) => toast.warning(HELPDESK_MESSAGES.exportMaxLimit(max)),
      },
      { columns: ALL_COLUMNS },
      abort.signal,
    )
      .then((csv) => {
        if (abort.signal.aborted) return;
        if (csv === null) {
          toast.info(HELPDESK_MESSAGES.exportEmpty);
          return;
        }
        saveFile(csv, props.fileName);
        toast.success('Tickets exported');
        props.onClose();
      })
      .catch((error) => {
        if (error instanceof ExportCancelled || abort.signal.aborted) {
          setPhase('cancelled');
          return;
        }
        setPhase('failed');
        toast.error(HELPDESK_MESSAGES.exportError);
      });
    return () => abort.abort();
  }, [props.open]);

  const handleCancel = () => {
    if (phase === 'fetching' || phase === 'processing') {
      controller.current?.abort();
      toast.info(HELPDESK_MESSAGES.downloadCancelled);
    }
    props.onClose();
  };
  const running = phase === 'fetching' || phase === 'processing';
  return (
    <Dialog open={props.open} onClose={running ? undefined : props.onClose} fullWidth maxWidth="xs" data-testid="export-dialog">
      <DialogTitle>Export tickets</DialogTitle>
      <DialogContent>
        {tooLong ? (
          <Typography color="error">Choose a date range of at most 6 months to export.</Typography>
        ) : (
          <Box sx={{ display: 'grid', gap: 1 }}>
            <Typography data-testid="export-phase">{PHASE_MESSAGE[phase]}</Typography>
            {running ? (
              <LinearProgress
                variant={progress.total ? 'determinate' : 'indeterminate'}
                value={progress.total ? (100 * progress.fetched) / progress.total : 0}
              />
            ) : null}
            {progress.total ? (
              <Typography variant="body2" color="text.secondary">
                {progress.fetched} of {progress.total} tickets
              </Typography>
            ) : null}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={handleCancel} data-testid="export-cancel">
          {running ? 'Cancel' : 'Close'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
