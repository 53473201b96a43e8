import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { VIDEO_MESSAGES } from '@sitewatch/contracts/video';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { toast } from '../../lib/toasts.ts';
import { CameraPicker } from './CameraPicker.tsx';
import { LiveTile } from './LiveTile.tsx';
import { lowLatencyPreferred, PLAYER_STORE } from './MsePlayer.tsx';
import { VideoToolsBanner } from './VideoToolsBanner.tsx';

const LAYOUTS = [1, 4, 6, 9, 16] as const;
const STORE = 'camview-live-grid';
interface Tile {
  id: number;
  label: string;
}

/** /camview/live: a grid of live cameras; the layout and cameras are remembered in this browser. */
export function LivePage() {
  const saved = (() => {
    try {
      return JSON.parse(localStorage.getItem(STORE) ?? '') as { layout: number; tiles: Tile[] };
    } catch {
      return { layout: 4, tiles: [] as Tile[] };
    }
  })();
  const [layout, setLayout] = useState<number>(saved.layout);
  const [tiles, setTiles] = useState<Tile[]>(saved.tiles);
  const [lowLatency, setLowLatency] = useState(lowLatencyPreferred);
  useEffect(() => localStorage.setItem(STORE, JSON.stringify({ layout, tiles })), [layout, tiles]);
  const columns = Math.ceil(Math.sqrt(layout)) + (layout === 6 ? 0 : 0);
  const cols = layout === 6 ? 3 : columns;
  const rows = Math.ceil(layout / cols);
  const shown = tiles.slice(0, layout);

  const add = (camera: { id: number; label: string; siteName: string | null } | null) => {
    if (!camera) return;
    if (tiles.some((t) => t.id === camera.id)) {
      toast.error(VIDEO_MESSAGES.alreadyInGrid);
      return;
    }
    if (tiles.length >= layout) {
      toast.warning(`The ${layout}-camera layout is full: choose a larger layout or remove a camera`);
      return;
    }
    setTiles([...tiles, { id: camera.id, label: nameWithSite(camera.label, camera.siteName) }]);
  };

  return (
    <Box>
      <PageHeader
        title="Live view"
        actions={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', maxWidth: '100%' }}>
            <Tooltip title="Low latency: fMP4 over WebSocket (under a second behind); off: HLS (a few seconds behind)">
              <FormControlLabel
                control={
                  <Switch
                    checked={lowLatency}
                    onChange={(e) => {
                      localStorage.setItem(PLAYER_STORE, e.target.checked ? 'mse' : 'hls');
                      setLowLatency(e.target.checked);
                    }}
                  />
                }
                label="Low latency"
              />
            </Tooltip>
            <CameraPicker label="Add camera" onPick={add} />
            <FormControl size="small" sx={{ minWidth: 120 }}>
              <InputLabel id="layout-label">Layout</InputLabel>
              <Select labelId="layout-label" label="Layout" value={layout} onChange={(e) => setLayout(Number(e.target.value))}>
                {LAYOUTS.map((n) => (
                  <MenuItem key={n} value={n}>
                    {n === 6 ? '3 x 2' : `${Math.sqrt(n)} x ${Math.sqrt(n)}`}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          </Box>
        }
      />
      <VideoToolsBanner />
      {shown.length === 0 ? (
        <Typography color="text.secondary">Add cameras to the grid to watch them live.</Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: `repeat(${cols}, 1fr)`, gridAutoRows: `calc((100vh - 220px) / ${rows})` }}>
          {shown.map((t) => (
            <LiveTile
              key={`${t.id}-${lowLatency}`}
              cameraId={t.id}
              label={t.label}
              onRemove={() => setTiles(tiles.filter((x) => x.id !== t.id))}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
