import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { SYSTEM_ALERTS_POLL_MS, SYSTEM_ALERTS_ROTATE_MS } from '@sitewatch/contracts/constants';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSystemAlerts } from '../../features/tenant-settings/api.ts';

/**
 * SPEC 2.17: system alerts polled every 20 s, rotating every 5 s (paused while hovered or focused), closable;
 * a new list of alerts opens the banner again.
 */
export function SystemAlertsBanner({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const { data } = useSystemAlerts(enabled, SYSTEM_ALERTS_POLL_MS);
  const alerts = enabled ? (data ?? []) : [];
  const signature = alerts.map((a) => `${a.id}:${a.message}`).join('\n');
  const [open, setOpen] = useState(true);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (signature) {
      setOpen(true);
      setIndex(0);
    }
  }, [signature]);

  const count = alerts.length;
  useEffect(() => {
    if (!open || count < 2 || paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), SYSTEM_ALERTS_ROTATE_MS);
    return () => clearInterval(timer);
  }, [open, count, paused]);

  const visible = open && count > 0;
  const region = useRef<HTMLDivElement | null>(null);
  // Toasts open below the banner, so that they never cover its close button (app.css reads the variable).
  useLayoutEffect(() => {
    const root = document.documentElement;
    const node = region.current;
    if (!visible || !node) {
      root.style.removeProperty('--sw-banner-bottom');
      return;
    }
    const measure = () => root.style.setProperty('--sw-banner-bottom', `${Math.round(node.getBoundingClientRect().bottom)}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--sw-banner-bottom');
    };
  }, [visible]);

  if (!visible) return null;
  const current = alerts[index % count];
  if (!current) return null;
  return (
    <Box
      ref={region}
      role="region"
      aria-label={t('banners.systemAlerts')}
      data-testid="system-alerts"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <Alert
        severity="warning"
        square
        // A rotating banner must not interrupt a screen reader every 5 seconds.
        role="status"
        aria-live="off"
        sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', '& .MuiAlert-message': { flex: 1, minWidth: 0 } }}
        action={
          <Box sx={{ display: 'flex', alignItems: 'center' }}>
            {count > 1 ? (
              <>
                <IconButton
                  size="small"
                  color="inherit"
                  aria-label={t('banners.previousAlert')}
                  onClick={() => setIndex((i) => (i - 1 + count) % count)}
                >
                  <ChevronLeft fontSize="small" />
                </IconButton>
                <Typography variant="caption" sx={{ mx: 0.5, whiteSpace: 'nowrap' }}>
                  {t('banners.alertOf', { n: (index % count) + 1, total: count })}
                </Typography>
                <IconButton
                  size="small"
                  color="inherit"
                  aria-label={t('banners.nextAlert')}
                  onClick={() => setIndex((i) => (i + 1) % count)}
                >
                  <ChevronRight fontSize="small" />
                </IconButton>
              </>
            ) : null}
            <IconButton
              size="small"
              color="inherit"
              aria-label={t('banners.closeAlerts')}
              onClick={() => setOpen(false)}
              data-testid="system-alerts-close"
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
        }
      >
        <Typography variant="body2" data-testid="system-alert-message" sx={{ overflowWrap: 'anywhere' }}>
          {current.message}
        </Typography>
      </Alert>
    </Box>
  );
}
