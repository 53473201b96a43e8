import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DOWNLOAD_MESSAGES, downloadStatusColour, downloadStatusLabel, shownProgress } from '@sitewatch/contracts/downloads';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { useClipJobs, useDeleteClipJob, useMarkClipDownloaded } from './api.ts';

/** The user's recording downloads (the same jobs the Downloads page lists), with their task messages. */
export function ClipJobs() {
  const jobs = useClipJobs();
  const mark = useMarkClipDownloaded();
  const remove = useDeleteClipJob();
  // the status hue as text, readable on either theme's paper (as on the Downloads page)
  const statusText = useStatusColours().text;
  const list = jobs.data?.jobs ?? [];
  if (list.length === 0) return null;
  return (
    <Paper sx={{ p: 2, mt: 3 }} data-testid="clip-jobs">
      <Typography variant="h6" gutterBottom>
        Recording downloads
      </Typography>
      {list.slice(0, 10).map((job) => (
        <Box key={job.jobId} sx={{ mb: 2 }} data-testid={`clip-job-${job.jobId}`}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography sx={{ flex: 1 }}>{job.name}</Typography>
            <Typography variant="body2" sx={{ color: statusText(downloadStatusColour(job.status)) }} data-testid="clip-job-status">
              {downloadStatusLabel(job.status)}
            </Typography>
            <Button size="small" color="error" onClick={() => remove.mutate(job.jobId)}>
              {job.status === 'processing' || job.status === 'starting' ? DOWNLOAD_MESSAGES.stop : DOWNLOAD_MESSAGES.delete}
            </Button>
          </Box>
          <LinearProgress variant="determinate" value={shownProgress(job.status, job.progress)} aria-label="Clip progress" />
          {job.tasks.map((task) => (
            <Box key={task.tid} sx={{ display: 'flex', gap: 1, alignItems: 'center', pl: 2 }}>
              <Typography variant="body2" sx={{ flex: 1 }}>
                {task.name} — {task.description}
              </Typography>
              {task.path ? (
                <Button size="small" href={task.path} download={task.name} onClick={() => mark.mutate({ jobId: job.jobId, tid: task.tid })}>
                  {DOWNLOAD_MESSAGES.download}
                </Button>
              ) : null}
            </Box>
          ))}
        </Box>
      ))}
    </Paper>
  );
}
