import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DOWNLOAD_MESSAGES, type DownloadJob, isActiveDownload } from '@sitewatch/contracts/downloads';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useRealtimeConnection } from '../../lib/realtime.ts';
import { useDeleteDownload, useDownloads, useMarkDownloaded } from './api.ts';
import { DownloadRow } from './DownloadRow.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { fileOf, groupByDay, matchesQuery } from './grouping.ts';

/** The clock for 'Expires In ...', ticking every minute. */
function useMinuteClock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** /downloads (SPEC 2.8): background export jobs grouped by day, with search, Stop, Delete and download. */
export function DownloadsPage() {
  useRealtimeConnection(useQueryClient());
  const downloads = useDownloads();
  const remove = useDeleteDownload();
  const mark = useMarkDownloaded();
  const [query, setQuery] = useState('');
  const [pending, setPending] = useState<DownloadJob | null>(null);
  const now = useMinuteClock();

  const jobs = downloads.data?.jobs ?? [];
  const shown = useMemo(() => jobs.filter((j) => matchesQuery(j, query)), [jobs, query]);
  const groups = useMemo(() => groupByDay(shown, new Date(now)), [shown, now]);
  const stopping = pending ? isActiveDownload(pending.status) : false;

  let body: React.ReactNode;
  if (downloads.isPending) {
    body = (
      <Stack spacing={1.5}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={92} />
        ))}
      </Stack>
    );
  } else if (downloads.isError) {
    body = <ErrorState onRetry={() => void downloads.refetch()} />;
  } else if (jobs.length === 0) {
    body = (
      <EmptyState title={DOWNLOAD_MESSAGES.noDownloads} description="Exports you start appear here while they run and until they expire." />
    );
  } else if (shown.length === 0) {
    body = <EmptyState compact title={DOWNLOAD_MESSAGES.notFound(query.trim())} data-testid="downloads-not-found" />;
  } else {
    body = (
      <Stack spacing={3}>
        {groups.map((group) => (
          <Box key={group.key} component="section" aria-labelledby={`day-${group.key}`} data-testid="download-group">
            <Typography id={`day-${group.key}`} variant="overline" component="h2" color="text.secondary" sx={{ fontWeight: 700 }}>
              {group.label}
            </Typography>
            <Stack spacing={1.5}>
              {group.jobs.map((job) => (
                <DownloadRow
                  key={`${job.kind}:${job.jobId}`}
                  job={job}
                  query={query}
                  now={now}
                  onStop={setPending}
                  onDelete={setPending}
                  onDownload={(j, task) => mark.mutate({ job: j, tid: task.tid })}
                />
              ))}
            </Stack>
          </Box>
        ))}
      </Stack>
    );
  }

  return (
    <Box data-testid="downloads-page" sx={{ maxWidth: 960 }}>
      <PageHeader title={DOWNLOAD_MESSAGES.pageTitle} actions={<ExportMenu />} />
      {jobs.length > 0 ? (
        <TextField
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={DOWNLOAD_MESSAGES.searchPlaceholder}
          size="small"
          fullWidth
          sx={{ mb: 3, maxWidth: 420 }}
          slotProps={{
            htmlInput: { 'aria-label': DOWNLOAD_MESSAGES.searchPlaceholder, 'data-testid': 'downloads-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchOutlined fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      ) : null}
      {body}
      <ConfirmDialog
        open={Boolean(pending)}
        title={pending ? (stopping ? DOWNLOAD_MESSAGES.stopTitle(fileOf(pending)) : DOWNLOAD_MESSAGES.deleteTitle(fileOf(pending))) : ''}
        text={stopping ? DOWNLOAD_MESSAGES.stopBody : DOWNLOAD_MESSAGES.deleteBody}
        confirmLabel={stopping ? DOWNLOAD_MESSAGES.stop : DOWNLOAD_MESSAGES.delete}
        destructive
        busy={remove.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          remove.mutate(pending, { onSettled: () => setPending(null) });
        }}
        data-testid="download-confirm"
      />
    </Box>
  );
}
