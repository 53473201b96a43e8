import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { keyframes } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DOWNLOAD_MESSAGES, downloadStatusColour, isActiveDownload, shownProgress } from '@sitewatch/contracts/downloads';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { useDownloads } from './api.ts';
import { fileOf } from './grouping.ts';

const pulse = keyframes`
  0% { box-shadow: 0 0 0 0 rgba(237, 108, 2, 0.45); }
  70% { box-shadow: 0 0 0 10px rgba(237, 108, 2, 0); }
  100% { box-shadow: 0 0 0 0 rgba(237, 108, 2, 0); }
`;
const MENU_JOBS = 5;

/**
 * SPEC 2.8: a circular progress button that pulses while work runs, with a menu of the latest jobs and View All.
 * Hidden on /downloads and when there are no jobs.
 */
export function DownloadButton() {
  const location = useLocation();
  const navigate = useNavigate();
  const downloads = useDownloads();
  const statusText = useStatusColours().text;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const jobs = downloads.data?.jobs ?? [];
  if (location.pathname.replace(/\/$/, '') === '/downloads' || jobs.length === 0) return null;

  const active = jobs.filter((j) => isActiveDownload(j.status));
  const progress = active.length ? active.reduce((sum, j) => sum + shownProgress(j.status, j.progress), 0) / active.length : 100;
  const label = active.length ? `Downloads: ${active.length} running, ${Math.round(progress)}%` : 'Downloads';
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={label}
          aria-haspopup="menu"
          data-testid="download-button"
          data-active={active.length > 0 ? 'true' : 'false'}
          sx={{ position: 'relative', width: 40, height: 40, animation: active.length ? `${pulse} 1.6s infinite` : 'none' }}
        >
          <CircularProgress
            variant={active.length && progress === 0 ? 'indeterminate' : 'determinate'}
            value={progress}
            size={36}
            thickness={3}
            // the button's own name says how far the downloads are
            aria-hidden
            sx={{
              position: 'absolute',
              color: active.length ? downloadStatusColour('processing') : downloadStatusColour(jobs[0]?.status ?? ''),
            }}
          />
          <FileDownloadOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 320 } } }}
      >
        {jobs.slice(0, MENU_JOBS).map((job) => (
          <MenuItem
            key={`${job.kind}:${job.jobId}`}
            onClick={() => {
              setAnchor(null);
              void navigate('/downloads');
            }}
            sx={{ display: 'block', whiteSpace: 'normal' }}
            data-testid="download-menu-job"
          >
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
              <Typography variant="body2" noWrap sx={{ flex: 1 }}>
                {fileOf(job)}
              </Typography>
              <Typography variant="caption" sx={{ color: statusText(downloadStatusColour(job.status)), fontWeight: 600 }}>
                {Math.round(shownProgress(job.status, job.progress))}%
              </Typography>
            </Box>
            <LinearProgress
              variant="determinate"
              value={shownProgress(job.status, job.progress)}
              sx={{ mt: 0.5, '& .MuiLinearProgress-bar': { bgcolor: downloadStatusColour(job.status) } }}
            />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void navigate('/downloads');
          }}
          sx={{ justifyContent: 'center', fontWeight: 600 }}
          data-testid="download-view-all"
        >
          {DOWNLOAD_MESSAGES.viewAll}
        </MenuItem>
      </Menu>
    </>
  );
}
