import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useOutbox } from './api.ts';

export function OutboxPanel() {
  const { t, i18n } = useTranslation();
  const outbox = useOutbox();
  const rows = outbox.data?.contents ?? [];
  return (
    <Box data-testid="outbox-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography color="text.secondary" sx={{ flex: 1, minWidth: 240 }}>
          {t('admin.outboxIntro')}
        </Typography>
        <Button startIcon={<RefreshIcon />} onClick={() => void outbox.refetch()} disabled={outbox.isFetching} data-testid="outbox-refresh">
          {t('app.refresh')}
        </Button>
      </Box>
      {outbox.isPending ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Skeleton height={40} />
          <Skeleton height={40} />
        </Paper>
      ) : outbox.isError ? (
        <ErrorState onRetry={() => void outbox.refetch()} />
      ) : rows.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState title={t('admin.outboxEmpty')} />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('admin.outbox')} data-testid="outbox-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.sentAt')}</TableCell>
                <TableCell>{t('admin.to')}</TableCell>
                <TableCell>{t('admin.message')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid="outbox-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.createdAt, i18n.language)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap', fontFamily: 'monospace' }}>{row.to}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.body}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
