import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { formatRelative } from '../../lib/format.ts';
import { frameUrl, useAnalysisQueue } from '../analysis/api.ts';
import { analyserLabel } from '../analysis/labels.ts';
import { AlarmTicketAction } from '../telemetry/AlarmTicketAction.tsx';
import { useAlarms } from '../telemetry/api.ts';
import { LiveTile, loadPopups, useCameras } from '../video/index.ts';

const SEVERITY_COLOR = { CRITICAL: 'error', MAJOR: 'warning', MINOR: 'info', WARNING: 'default' } as const;
/** Live tiles the panel plays at once: it sits beside other work, on a wall or in a browser side panel. */
const PANEL_TILES = 2;

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} component="section" aria-label={title}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** Opens a screen of the full product in a new tab (the panel itself has no navigation). */
const openFull = (path: string) => window.open(path, '_blank', 'noopener');

/**
 * /extension: the compact live panel without navigation (SPEC 2.5), for a wall display or a browser side panel:
 * active alarms, the live popup cameras and the verification queue, all kept current by push.
 */
export function ExtensionPage() {
  const alarms = useAlarms({ state: 'ACTIVE', page: 1, limit: 10 });
  const queue = useAnalysisQueue(null);
  const [popups] = useState(() => loadPopups().ids.slice(0, PANEL_TILES));
  const popupCameras = new Map((useCameras({ ids: popups }).data?.contents ?? []).map((c) => [c.id, c] as const));
  const cameraName = (id: number) => {
    const camera = popupCameras.get(id);
    return camera ? nameWithSite(camera.label, camera.siteName) : `Camera ${id}`;
  };
  const next = queue.data?.next ?? null;
  const activeAlarms = alarms.data?.contents ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 1.5, p: 1.5, maxWidth: 720, mx: 'auto' }} data-testid="extension-panel">
      <Section
        title={`Active alarms (${alarms.data?.totalCount ?? 0})`}
        action={
          <Button size="small" onClick={() => openFull('/tickets/all')}>
            Tickets
          </Button>
        }
      >
        {activeAlarms.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {alarms.isLoading ? 'Loading…' : 'No active alarm.'}
          </Typography>
        ) : (
          <List dense disablePadding>
            {activeAlarms.map((a) => (
              // The ticket action sits beside the row's button, not inside it (no button in a button), in a list item.
              <ListItem key={a.id} disablePadding secondaryAction={<AlarmTicketAction alarm={a} open={openFull} />}>
                <ListItemButton onClick={() => openFull(a.ticketId ? `/tickets/all/${a.ticketId}` : `/devices/${a.deviceId}/view`)}>
                  <Chip
                    size="small"
                    label={a.severity}
                    color={SEVERITY_COLOR[a.severity as keyof typeof SEVERITY_COLOR] ?? 'default'}
                    sx={{ mr: 1 }}
                  />
                  <ListItemText
                    primary={
                      <>
                        {a.ruleName} · <SiteNamed label={a.deviceLabel} site={a.siteName} />
                      </>
                    }
                    secondary={formatRelative(a.raisedAt)}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Section>
      <Section
        title="Live popups"
        action={
          <Button size="small" onClick={() => openFull('/camview/popups')}>
            Choose
          </Button>
        }
      >
        {popups.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No popup cameras yet: choose them under Live popups.
          </Typography>
        ) : (
          <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: `repeat(${popups.length}, 1fr)` } }}>
            {popups.map((id) => (
              <Box key={id} sx={{ height: 180 }}>
                <LiveTile cameraId={id} label={cameraName(id)} />
              </Box>
            ))}
          </Box>
        )}
      </Section>
      <Section
        title={`Verification queue (${queue.data?.waiting ?? 0})`}
        action={
          next ? (
            <Button size="small" variant="contained" onClick={() => openFull('/result-verification')}>
              Verify
            </Button>
          ) : null
        }
      >
        {next ? (
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
            {next.hasFrame ? (
              <Box component="img" src={frameUrl(next.id)} alt={`Frame of ${next.cameraLabel}`} sx={{ width: 120, borderRadius: 1 }} />
            ) : null}
            <Typography variant="body2">
              {analyserLabel(next.analyser)} on {next.cameraLabel}, {formatRelative(next.at)}
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Nothing to verify.
          </Typography>
        )}
      </Section>
    </Box>
  );
}
