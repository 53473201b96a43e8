import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { COMMAND_MESSAGES, COMMAND_PERMISSION } from '@sitewatch/contracts/commands';
import { useState } from 'react';
import { ScrollRegion } from '../../components/ScrollRegion.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useCommandList, useCommandsLive, useSendCommand } from './api.ts';
import { CommandForm } from './CommandForm.tsx';
import { ReplyText, StateChip } from './components.tsx';

const PAGE_SIZE = 10;

/** The Commands panel of a device page: send a named method with JSON params, and the device's command history, live. */
export function CommandsPanel({ deviceId, deviceType }: { deviceId: number; deviceType: string }) {
  const canSend = permissionsOf(useUser()).has(COMMAND_PERMISSION);
  const [page, setPage] = useState(0);
  const history = useCommandList({ deviceId, page: page + 1, limit: PAGE_SIZE });
  const send = useSendCommand();
  const [error, setError] = useState<string | undefined>();
  useCommandsLive();
  const rows = history.data?.contents ?? [];

  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid="commands-panel">
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Commands
      </Typography>
      {canSend ? (
        <CommandForm
          deviceType={deviceType}
          submitLabel="Send command"
          busy={send.isPending}
          error={error}
          onSubmit={(options) => {
            setError(undefined);
            send.mutate(
              { deviceId, ...options },
              {
                onSuccess: () => {
                  setPage(0);
                  showToast('success', COMMAND_MESSAGES.sent);
                },
                onError: (e) => setError(isHttpError(e) ? (e.detail ?? e.message) : 'Not sent. Try again.'),
              },
            );
          }}
        />
      ) : null}
      <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
        History
      </Typography>
      {history.isLoading ? (
        <Typography variant="body2" color="text.secondary">
          Loading…
        </Typography>
      ) : rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="commands-empty">
          No commands sent to this device yet.
        </Typography>
      ) : (
        <ScrollRegion label="Command history">
          <Table size="small" data-testid="command-history">
            <TableHead>
              <TableRow>
                <TableCell>Sent</TableCell>
                <TableCell>Method</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Reply</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>By</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((c) => (
                <TableRow key={c.id} data-testid="command-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.createdAt)}</TableCell>
                  <TableCell>
                    <code>{c.method}</code>
                    {c.oneway ? (
                      <Typography component="span" variant="caption" color="text.secondary">
                        {' '}
                        one-way
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <StateChip state={c.state} />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 260 }}>
                    <ReplyText response={c.response} error={c.error} />
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{c.createdBy?.name ?? 'System'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={history.data?.totalCount ?? 0}
            page={page}
            onPageChange={(_e, p) => setPage(p)}
            rowsPerPage={PAGE_SIZE}
            rowsPerPageOptions={[PAGE_SIZE]}
          />
        </ScrollRegion>
      )}
    </Paper>
  );
}
