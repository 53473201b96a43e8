import BackupOutlined from '@mui/icons-material/BackupOutlined';
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
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { BackupList, BackupRun } from '@sitewatch/contracts';
import { useTranslation } from 'react-i18next';
import { ByteSize } from '../../components/ByteSize.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useStartBackup } from './api.ts';

const STATUS_COLOR = { running: 'info', succeeded: 'success', failed: 'error' } as const;

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);

function BackupRow({ run }: { run: BackupRun }) {
  const { t, i18n } = useTranslation();
  return (
    <TableRow data-testid="backup-row" data-status={run.status}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(run.startedAt, i18n.language)}</TableCell>
      <TableCell>{t(`admin.backupReason.${run.reason}`)}</TableCell>
      <TableCell>
        <Chip size="small" variant="outlined" color={STATUS_COLOR[run.status]} label={t(`admin.backupStatus.${run.status}`)} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{run.bytes === null ? '—' : <ByteSize bytes={run.bytes} />}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{seconds(run.durationMs)}</TableCell>
      <TableCell>{run.status === 'running' ? '—' : run.verified ? t('admin.backupVerified') : t('admin.backupNotVerified')}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
        {run.error ? (
          <Typography variant="body2" color="error">
            {run.error}
          </Typography>
        ) : (
          <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
            {run.name ?? ''}
            {run.removed ? ` (${t('admin.backupRemoved')})` : ''}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

/** /app-admin?tab=backups: the installation's backups, their schedule, and a button to make one now. */
export function BackupsPanel({ backups }: { backups: { data?: BackupList; isPending: boolean; isError: boolean; refetch(): unknown } }) {
  const { t, i18n } = useTranslation();
  const start = useStartBackup();
  const schedule = backups.data?.schedule;
  const rows = backups.data?.items ?? [];
  const busy = start.isPending || rows.some((r) => r.status === 'running');

  const handleStart = () =>
    start.mutate(undefined, {
      onSuccess: (answer) => toast.success(answer.message),
      onError: (failure) => toast.error((isHttpError(failure) && detailOf(failure.data)) || t('errors.loadFailed')),
    });

  return (
    <Box data-testid="backups-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography color="text.secondary" sx={{ flex: 1, minWidth: 240 }} data-testid="backup-schedule">
          {schedule
            ? schedule.everyHours > 0
              ? t('admin.backupSchedule', {
                  hours: schedule.everyHours,
                  keep: schedule.keep,
                  folder: schedule.folder,
                  next: formatDateTime(schedule.nextAt, i18n.language),
                })
              : t('admin.backupNoSchedule', { folder: schedule.folder })
            : ''}
        </Typography>
        <Button variant="contained" startIcon={<BackupOutlined />} onClick={handleStart} disabled={busy} data-testid="backup-start">
          {t('admin.backupNow')}
        </Button>
      </Box>
      {backups.isPending ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Skeleton height={40} />
          <Skeleton height={40} />
        </Paper>
      ) : backups.isError ? (
        <ErrorState onRetry={() => void backups.refetch()} />
      ) : rows.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState title={t('admin.backupsEmpty')} />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('admin.backups')} data-testid="backups-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.backupTime')}</TableCell>
                <TableCell>{t('admin.backupKind')}</TableCell>
                <TableCell>{t('admin.backupState')}</TableCell>
                <TableCell>{t('admin.backupSize')}</TableCell>
                <TableCell>{t('admin.backupDuration')}</TableCell>
                <TableCell>{t('admin.backupCheck')}</TableCell>
                <TableCell>{t('admin.backupFolderOrError')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((run) => (
                <BackupRow key={run.id} run={run} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
