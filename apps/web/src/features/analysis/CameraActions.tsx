import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Camera } from '@sitewatch/contracts/video';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { canAdministerVideo } from '../../lib/access.ts';
import { useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { CameraPicker } from '../video/index.ts';
import { useResetReference, useRunAnalysis } from './api.ts';
import { RegionSettingsDialog } from './RegionSettingsDialog.tsx';

/**
 * For one camera: analyse its newest footage now, or forget its reference frame so that the next pass takes a new
 * one (after the camera was moved on purpose). Offered to those who may give verdicts.
 */
export function CameraActions() {
  const [camera, setCamera] = useState<Camera | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [regionOpen, setRegionOpen] = useState(false);
  const configures = canAdministerVideo(useUser());
  const run = useRunAnalysis();
  const reset = useResetReference();
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }} data-testid="camera-actions">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        One camera
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Box sx={{ minWidth: 240, flex: '1 1 240px', maxWidth: 360 }}>
          <CameraPicker value={camera} onPick={setCamera} />
        </Box>
        <Button
          variant="outlined"
          disabled={!camera || run.isPending}
          onClick={() =>
            camera &&
            run.mutate(camera.id, {
              onSuccess: () => toast.success(`${camera.label} analysed`),
            })
          }
        >
          {run.isPending ? 'Analysing…' : 'Analyse now'}
        </Button>
        <Button variant="outlined" color="warning" disabled={!camera || reset.isPending} onClick={() => setConfirming(true)}>
          Reset reference frame
        </Button>
        {configures ? (
          <Button variant="outlined" disabled={!camera} onClick={() => setRegionOpen(true)} data-testid="region-open">
            Motion region and hours
          </Button>
        ) : null}
      </Box>
      {regionOpen && camera ? <RegionSettingsDialog camId={camera.id} label={camera.label} onClose={() => setRegionOpen(false)} /> : null}
      <ConfirmDialog
        open={confirming}
        title="Reset the reference frame?"
        text={`The next analysis of ${camera?.label ?? 'this camera'} takes its picture as the new reference. Do this after the camera was moved on purpose.`}
        confirmLabel="Reset"
        busy={reset.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          camera &&
          reset.mutate(camera.id, {
            onSuccess: () => {
              setConfirming(false);
              toast.success('Reference frame reset');
            },
          })
        }
      />
    </Paper>
  );
}
