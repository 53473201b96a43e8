import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import StopCircleOutlined from '@mui/icons-material/StopCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  DOWNLOAD_MESSAGES,
  type DownloadJob,
  type DownloadTask,
  downloadStatusColour,
  downloadStatusLabel,
  isActiveDownload,
  shownProgress,
} from '@sitewatch/contracts/downloads';
import { ByteSize } from '../../components/ByteSize.tsx';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { formatDateTime } from '../../lib/format.ts';
import { expiresText, fileOf } from './grouping.ts';
import { Highlight } from './Highlight.tsx';

interface Props {
  job: DownloadJob;
  query: string;
  now: number;
  onStop(job: DownloadJob): void;
  onDelete(job: DownloadJob): void;
  onDownload(job: DownloadJob, task: DownloadTask): void;
}

function DownloadLink({ job, task, onDownload }: { job: DownloadJob; task: DownloadTask; onDownload: Props['onDownload'] }) {
  if (!task.path) return null;
  return (
    <Button
      size="small"
      variant={task.isRead ? 'outlined' : 'contained'}
      startIcon={<FileDownloadOutlined />}
      href={task.path}
      download={task.name}
      onClick={() => onDownload(job, task)}
      data-testid="download-file"
    >
      {DOWNLOAD_MESSAGES.download}
    </Button>
  );
}

/** One job of the downloads page: name, status in its colour, progress, expiry and its actions (SPEC 2.8). */
export function DownloadRow({ job, query, now, onStop, onDelete, onDownload }: Props) {
  const colour = downloadStatusColour(job.status);
  // the status hue as text: the spec's green is too dark to read on the dark theme's paper
  const textColour = useStatusColours().text(colour);
  const progress = shownProgress(job.status, job.progress);
  const active = isActiveDownload(job.status);
  const single = job.tasks.length === 1 ? job.tasks[0] : undefined;
  // The page clock ticks each minute; a job that finished since then must not show more than its retention.
  const expires =
    job.status === 'ready-to-download' || job.status === 'completed' ? expiresText(job.expiresAt, Math.max(now, Date.now())) : null;
  const detail = single?.description || (job.status === 'failed' ? (job.error ?? '') : '');
  return (
    <Paper variant="outlined" sx={{ p: 2, borderLeft: 4, borderLeftColor: colour }} data-testid="download-row" data-status={job.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <InsertDriveFileOutlined sx={{ color: colour }} />
        <Box sx={{ flex: 1, minWidth: 180 }}>
          <Typography variant="subtitle2" sx={{ wordBreak: 'break-word' }} data-testid="download-name">
            <Highlight text={fileOf(job)} query={query} />
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {formatDateTime(job.createdAt)}
            {single?.size ? (
              <>
                {' · '}
                <ByteSize bytes={single.size} />
              </>
            ) : null}
            {expires ? <span data-testid="download-expires">{` · ${expires}`}</span> : null}
          </Typography>
        </Box>
        <Chip
          size="small"
          label={downloadStatusLabel(job.status)}
          sx={{ bgcolor: colour, color: '#fff', fontWeight: 600 }}
          data-testid="download-status"
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          {single ? <DownloadLink job={job} task={single} onDownload={onDownload} /> : null}
          {active ? (
            <Button size="small" color="warning" startIcon={<StopCircleOutlined />} onClick={() => onStop(job)} data-testid="download-stop">
              {DOWNLOAD_MESSAGES.stop}
            </Button>
          ) : (
            <Button size="small" color="error" startIcon={<DeleteOutlined />} onClick={() => onDelete(job)} data-testid="download-delete">
              {DOWNLOAD_MESSAGES.delete}
            </Button>
          )}
        </Box>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1.5 }}>
        <LinearProgress
          variant={job.status === 'starting' ? 'indeterminate' : 'determinate'}
          value={progress}
          aria-label={`${fileOf(job)} progress`}
          sx={{ flex: 1, height: 6, borderRadius: 3, bgcolor: 'action.hover', '& .MuiLinearProgress-bar': { bgcolor: colour } }}
        />
        <Typography
          variant="caption"
          sx={{ minWidth: 40, textAlign: 'right', color: textColour, fontWeight: 600 }}
          data-testid="download-progress"
        >
          {progress}%
        </Typography>
      </Box>
      {detail ? (
        <Typography variant="caption" color={job.status === 'failed' ? 'error' : 'text.secondary'} sx={{ display: 'block', mt: 0.5 }}>
          {detail}
        </Typography>
      ) : null}
      {job.tasks.length > 1 ? (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'grid', gap: 0.75 }}>
          {job.tasks.map((task) => (
            <Box component="li" key={task.tid} sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 4 }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" noWrap>
                  <Highlight text={task.cameraLabel ? `${task.cameraLabel} — ${task.name}` : task.name} query={query} />
                </Typography>
                <Typography variant="caption" color={task.status === 'error' ? 'error' : 'text.secondary'}>
                  {task.description} · {shownProgress(task.status, task.progress)}%
                </Typography>
              </Box>
              <DownloadLink job={job} task={task} onDownload={onDownload} />
            </Box>
          ))}
        </Box>
      ) : null}
    </Paper>
  );
}
