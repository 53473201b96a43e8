import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type AnalysisRegion, analysisCameraSettingsBodySchema } from '@sitewatch/contracts/analysis';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toasts.ts';
import { fetchSnapshot } from '../video/api.ts';
import { useCameraAnalysisSettings, useSaveCameraAnalysisSettings } from './api.ts';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const clamp = (n: number) => Math.max(0, Math.min(1, n));
const round = (n: number) => Math.round(n * 1000) / 1000;

/** The picture the region is drawn on: the camera's reference frame, else a fresh snapshot. */
function usePicture(camId: number, hasReference: boolean | undefined) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (hasReference === undefined) return;
    if (hasReference) {
      setSrc(`/api/analysis/cameras/${camId}/reference/`);
      return;
    }
    let cancelled = false;
    fetchSnapshot(camId)
      .then((shot) => {
        if (cancelled) return;
        if ('path' in shot && shot.path) setSrc(shot.path);
        else setFailed(true);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [camId, hasReference]);
  return { src, failed };
}

/**
 * "Motion in a region during set hours" for one camera: draw the region on its picture (drag with a mouse or a
 * finger), set the hours and their time zone, and how much the region must change to count as motion.
 */
export function RegionSettingsDialog({ camId, label, onClose }: { camId: number; label: string; onClose: () => void }) {
  const settings = useCameraAnalysisSettings(camId);
  const save = useSaveCameraAnalysisSettings(camId);
  const picture = usePicture(camId, settings.data?.hasReference);
  const [region, setRegion] = useState<AnalysisRegion | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [hours, setHours] = useState({ from: '20:00', to: '06:00' });
  const [timeZone, setTimeZone] = useState(browserZone());
  const [threshold, setThreshold] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const frame = useRef<HTMLDivElement | null>(null);

  if (settings.data && loadedFor !== camId) {
    setLoadedFor(camId);
    setRegion(settings.data.region);
    setEnabled(settings.data.region !== null);
    setHours({ from: settings.data.motionFrom, to: settings.data.motionTo });
    if (settings.data.region) setTimeZone(settings.data.timeZone);
    setThreshold(String(settings.data.threshold));
  }

  const at = (e: PointerEvent<HTMLDivElement>) => {
    const box = (frame.current as HTMLDivElement).getBoundingClientRect();
    return { x: clamp((e.clientX - box.left) / box.width), y: clamp((e.clientY - box.top) / box.height) };
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = at(e);
    setEnabled(true);
    setRegion({ ...drag.current, w: 0, h: 0 });
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const p = at(e);
    setRegion({
      x: round(Math.min(start.x, p.x)),
      y: round(Math.min(start.y, p.y)),
      w: round(Math.abs(p.x - start.x)),
      h: round(Math.abs(p.y - start.y)),
    });
  };
  const onUp = () => {
    drag.current = null;
  };

  const submit = () => {
    const body = {
      region: enabled ? region : null,
      motionFrom: hours.from,
      motionTo: hours.to,
      timeZone,
      threshold: Number(threshold),
    };
    if (enabled && !region) {
      setError('Draw the region on the picture');
      return;
    }
    const parsed = analysisCameraSettingsBodySchema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the values');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast.success(enabled ? `Motion region saved for ${label}` : `Motion in a region is off for ${label}`);
        onClose();
      },
    });
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="region-dialog">
      <DialogTitle>Motion in a region · {label}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          Drag on the picture to set the region watched. Motion inside it during the hours is a result (and, when clear, an AI audit
          ticket).
        </Typography>
        {settings.isLoading || (!picture.src && !picture.failed) ? <Skeleton variant="rectangular" height={240} /> : null}
        {picture.failed ? (
          <Alert severity="info">No picture from this camera now: the region can still be cleared or the hours set.</Alert>
        ) : null}
        {picture.src ? (
          <Box
            ref={frame}
            onPointerDown={onDown}
            onPointerMove={onMove}
            onPointerUp={onUp}
            onPointerCancel={onUp}
            sx={{ position: 'relative', touchAction: 'none', userSelect: 'none', cursor: 'crosshair', lineHeight: 0 }}
            data-testid="region-picture"
          >
            <Box
              component="img"
              src={picture.src}
              alt={`${label} picture`}
              draggable={false}
              sx={{ width: '100%', borderRadius: 1, display: 'block' }}
            />
            {enabled && region ? (
              <Box
                data-testid="region-box"
                sx={{
                  position: 'absolute',
                  left: `${region.x * 100}%`,
                  top: `${region.y * 100}%`,
                  width: `${region.w * 100}%`,
                  height: `${region.h * 100}%`,
                  border: '2px solid',
                  borderColor: 'warning.main',
                  bgcolor: 'rgba(255, 167, 38, 0.18)',
                  pointerEvents: 'none',
                }}
              />
            ) : null}
          </Box>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2, alignItems: 'center' }}>
          <FormControlLabel
            control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
            label="Watch this region"
          />
          <TextField
            size="small"
            type="time"
            label="From"
            value={hours.from}
            onChange={(e) => setHours({ ...hours, from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'region-from' } }}
            sx={{ width: 130 }}
          />
          <TextField
            size="small"
            type="time"
            label="To"
            value={hours.to}
            onChange={(e) => setHours({ ...hours, to: e.target.value })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'region-to' } }}
            sx={{ width: 130 }}
          />
          <TextField size="small" label="Time zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} sx={{ width: 200 }} />
          <TextField
            size="small"
            type="number"
            label="Change threshold %"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            slotProps={{ htmlInput: { min: 0.1, max: 50, step: 0.1 } }}
            sx={{ width: 170 }}
          />
        </Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          From later than To spans midnight; the same time means all day.
          {region && enabled
            ? ` Region: ${Math.round(region.x * 100)}%, ${Math.round(region.y * 100)}% · ${Math.round(region.w * 100)}% × ${Math.round(region.h * 100)}% of the picture.`
            : ''}
        </Typography>
        {error ? (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="region-error">
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending || settings.isLoading} data-testid="region-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
