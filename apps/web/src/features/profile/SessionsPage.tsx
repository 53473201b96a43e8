import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SignInPrompt } from '../../components/SignInPrompt.tsx';
import { VisuallyHidden } from '../../components/VisuallyHidden.tsx';
import { describeUserAgent, formatDateTime, formatRelative } from '../../lib/format.ts';
import { useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { type Session, useRevokeOtherSessions, useRevokeSession, useSessions } from './api.ts';

const PAGE_SIZES = [10, 25, 50] as const;

/** /sessions: where the user is signed in; any other session can be ended (no login check, SPEC 2.1). */
export function SessionsPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const sessions = useSessions(Boolean(user));
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [pending, setPending] = useState<Session | null>(null);
  const [endingOthers, setEndingOthers] = useState(false);
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(PAGE_SIZES[0]);

  if (!user) {
    return (
      <Box data-testid="sessions-page">
        <PageHeader title={t('sessions.title')} />
        <SignInPrompt text={t('sessions.signInPrompt')} />
      </Box>
    );
  }

  const methodLabel = (method: string) => t(`sessions.methods.${method}`, { defaultValue: method });
  const device = (s: Session) => describeUserAgent(s.userAgent) || '—';
  const all = sessions.data?.contents ?? [];
  const lastPage = Math.max(0, Math.ceil(all.length / rowsPerPage) - 1);
  const shownPage = Math.min(page, lastPage);
  const rows = all.slice(shownPage * rowsPerPage, shownPage * rowsPerPage + rowsPerPage);
  const others = all.filter((s) => !s.current).length;

  return (
    <Box data-testid="sessions-page">
      <PageHeader
        title={t('sessions.title')}
        subtitle={t('sessions.intro')}
        actions={
          others > 0 ? (
            <Button variant="outlined" color="error" onClick={() => setEndingOthers(true)} data-testid="sessions-end-others">
              {t('sessions.endOthers')}
            </Button>
          ) : undefined
        }
      />
      {sessions.isPending ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Skeleton height={40} />
          <Skeleton height={40} />
        </Paper>
      ) : sessions.isError ? (
        <ErrorState onRetry={() => void sessions.refetch()} />
      ) : rows.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState title={t('sessions.empty')} />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ position: 'relative' }}>
          <Table aria-label={t('sessions.title')} data-testid="sessions-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('sessions.device')}</TableCell>
                <TableCell>{t('sessions.ip')}</TableCell>
                <TableCell>{t('sessions.method')}</TableCell>
                <TableCell>{t('sessions.started')}</TableCell>
                <TableCell>{t('sessions.lastSeen')}</TableCell>
                <TableCell align="right">
                  <VisuallyHidden>{t('sessions.end')}</VisuallyHidden>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((s) => (
                <TableRow key={s.id} data-testid="session-row" hover>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                      <Typography variant="body2" title={s.userAgent ?? undefined}>
                        {device(s)}
                      </Typography>
                      {s.current ? <Chip size="small" color="primary" label={t('sessions.current')} data-testid="session-current" /> : null}
                    </Box>
                  </TableCell>
                  <TableCell>{s.ip ?? '—'}</TableCell>
                  <TableCell>{methodLabel(s.loginMethod)}</TableCell>
                  <TableCell>{formatDateTime(s.createdAt, i18n.language)}</TableCell>
                  <TableCell title={formatDateTime(s.lastSeenAt, i18n.language)}>
                    {formatRelative(s.lastSeenAt, Date.now(), i18n.language)}
                  </TableCell>
                  <TableCell align="right">
                    {s.current ? null : (
                      <Button size="small" color="error" onClick={() => setPending(s)} data-testid="session-end">
                        {t('sessions.end')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {all.length > PAGE_SIZES[0] ? (
            <TablePagination
              component="div"
              count={all.length}
              page={shownPage}
              onPageChange={(_e, p) => setPage(p)}
              rowsPerPage={rowsPerPage}
              rowsPerPageOptions={[...PAGE_SIZES]}
              onRowsPerPageChange={(e) => {
                setRowsPerPage(Number(e.target.value));
                setPage(0);
              }}
              data-testid="sessions-pagination"
            />
          ) : null}
        </TableContainer>
      )}
      <ConfirmDialog
        open={endingOthers}
        title={t('sessions.endOthersTitle')}
        text={t('sessions.endOthersText')}
        confirmLabel={t('sessions.endOthers')}
        destructive
        busy={revokeOthers.isPending}
        onClose={() => setEndingOthers(false)}
        onConfirm={() =>
          revokeOthers.mutate(undefined, {
            onSuccess: (result) => toast.success(t('sessions.endedOthers', { count: result.ended })),
            onSettled: () => setEndingOthers(false),
          })
        }
      />
      <ConfirmDialog
        open={Boolean(pending)}
        title={t('sessions.endTitle')}
        text={pending ? t('sessions.endText', { device: device(pending) }) : undefined}
        confirmLabel={t('sessions.end')}
        destructive
        busy={revoke.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          revoke.mutate(pending.id, {
            onSuccess: () => {
              toast.success(t('sessions.ended'));
              setPending(null);
            },
            onSettled: () => setPending(null),
          });
        }}
      />
    </Box>
  );
}
