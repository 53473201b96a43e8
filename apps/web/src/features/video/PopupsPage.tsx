import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { type Camera, cameraStateText } from '@sitewatch/contracts/video';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { toast } from '../../lib/toasts.ts';
import { useCameras } from './api.ts';
import { CameraPicker } from './CameraPicker.tsx';
import { LiveTile } from './LiveTile.tsx';
import { loadPopups as load, MAX_OPEN, type PopupState, POPUP_STORE as STORE } from './popup-store.ts';

/**
 * /camview/popups: the live popup cameras. The list of cameras kept for popups (remembered in this browser); each
 * opens as a small floating live window that stays while the list is browsed, up to four at once. Closing a popup
 * stops its stream (DELETE live-view).
 */
export function PopupsPage() {
  const [state, setState] = useState<PopupState>(load);
  useEffect(() => localStorage.setItem(STORE, JSON.stringify(state)), [state]);
  const cameras = useCameras({ ids: state.ids });
  const byId = new Map((cameras.data?.contents ?? []).map((c) => [c.id, c] as const));
  const nameOf = (id: number) => {
    const camera = byId.get(id);
    return camera ? nameWithSite(camera.label, camera.siteName) : `Camera ${id}`;
  };
  // cameras no longer visible (removed, or access withdrawn) drop off the list
  const listed = cameras.data ? state.ids.filter((id) => byId.has(id)) : state.ids;
  const open = state.open.filter((id) => listed.includes(id));

  const add = (camera: Camera | null) => {
    if (!camera) return;
    if (state.ids.includes(camera.id)) {
      toast.error('Camera Already Exists In Popups !');
      return;
    }
    setState({ ids: [...state.ids, camera.id], open: state.open });
  };
  const toggle = (id: number) => {
    if (open.includes(id)) setState({ ...state, open: state.open.filter((x) => x !== id) });
    else if (open.length >= MAX_OPEN) toast.warning(`At most ${MAX_OPEN} popups play at once: close one first`);
    else setState({ ...state, open: [...state.open, id] });
  };
  const remove = (id: number) => setState({ ids: state.ids.filter((x) => x !== id), open: state.open.filter((x) => x !== id) });

  return (
    <Box>
      <PageHeader title="Live popups" actions={<CameraPicker label="Add camera" onPick={add} />} />
      {listed.length === 0 ? (
        <EmptyState title="No popup cameras" description="Add the cameras you want at hand; open each as a floating live popup." />
      ) : (
        <Paper variant="outlined">
          <List dense disablePadding>
            {listed.map((id) => {
              const camera = byId.get(id);
              const isOpen = open.includes(id);
              return (
                <ListItem
                  key={id}
                  divider
                  data-testid={`popup-camera-${id}`}
                  secondaryAction={
                    <Box sx={{ display: 'flex', gap: 1 }}>
                      <Button size="small" variant={isOpen ? 'outlined' : 'contained'} onClick={() => toggle(id)}>
                        {isOpen ? 'Close popup' : 'Open popup'}
                      </Button>
                      <Tooltip title="Remove from popups">
                        <IconButton size="small" aria-label={`Remove ${nameOf(id)}`} onClick={() => remove(id)}>
                          <CloseIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </Box>
                  }
                >
                  <ListItemText
                    primary={camera ? <SiteNamed label={camera.label} site={camera.siteName} /> : `Camera ${id}`}
                    secondary={camera ? [camera.parentLabel, cameraStateText(camera)].filter(Boolean).join(' · ') : undefined}
                  />
                </ListItem>
              );
            })}
          </List>
        </Paper>
      )}
      {/* the floating popups, stacked from the bottom right */}
      {open.map((id, i) => (
        <Paper
          key={id}
          elevation={8}
          data-testid={`live-popup-${id}`}
          sx={{
            position: 'fixed',
            right: 16 + (i % 2) * 376,
            bottom: 16 + Math.floor(i / 2) * 256,
            width: 360,
            height: 240,
            zIndex: (theme) => theme.zIndex.modal - 1,
            overflow: 'hidden',
          }}
        >
          <LiveTile cameraId={id} label={nameOf(id)} onRemove={() => toggle(id)} />
        </Paper>
      ))}
      {open.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {open.length} of {MAX_OPEN} popups open
        </Typography>
      ) : null}
    </Box>
  );
}
