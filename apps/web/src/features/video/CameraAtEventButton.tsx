import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { cameraAtPath, type EventCameras } from '@sitewatch/contracts/video-evidence';
import { useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toasts.ts';
import { eventCamerasQuery } from './evidence-api.ts';

export const NO_EVENT_CAMERA = 'No camera is mapped to this device or its site';

/**
 * One click from an alarm, a ticket or a notification to the camera view at the event time (live view and the
 * recording around it): the device's own camera or the cameras mapped to it or its site; a menu when several.
 */
export function CameraAtEventButton({
  deviceId,
  at,
  variant = 'icon',
  label = 'Camera at event time',
}: {
  deviceId: number;
  at: string;
  variant?: 'icon' | 'button';
  label?: string;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; cameras: EventCameras['contents'] } | null>(null);
  const [busy, setBusy] = useState(false);
  const open = async (event: MouseEvent<HTMLElement>) => {
    event.stopPropagation();
    const anchor = event.currentTarget;
    setBusy(true);
    try {
      const { contents } = await client.fetchQuery(eventCamerasQuery(deviceId));
      const [only] = contents;
      if (!only) toast.info(NO_EVENT_CAMERA);
      else if (contents.length === 1) navigate(cameraAtPath(only.id, at));
      else setMenu({ anchor, cameras: contents });
    } catch {
      toast.info(NO_EVENT_CAMERA);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {variant === 'icon' ? (
        <Tooltip title={label}>
          <span>
            <IconButton size="small" aria-label={label} disabled={busy} onClick={(e) => void open(e)} data-testid="camera-at-event">
              <VideocamOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <Button size="small" startIcon={<VideocamOutlined />} disabled={busy} onClick={(e) => void open(e)} data-testid="camera-at-event">
          {label}
        </Button>
      )}
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {menu?.cameras.map((c) => (
          <MenuItem
            key={c.id}
            onClick={() => {
              setMenu(null);
              navigate(cameraAtPath(c.id, at));
            }}
          >
            {c.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
