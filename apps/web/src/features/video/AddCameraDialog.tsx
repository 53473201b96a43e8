import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { devicesOf } from '../devices/api.ts';
import { deviceKeys } from '../devices/keys.ts';
import { videoKeys } from './keys.ts';

interface DeviceRef {
  id: number;
  label: string;
  assetId: number | null;
  asset: { name: string } | null;
}

/**
 * Adds a camera under a DVR/NVR: the CAMERA device through the devices API, then its video config (RTSP URL or
 * simulated) through the camera API.
 */
export function AddCameraDialog({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const dvrs = useQuery({
    queryKey: deviceKeys.dvrs,
    queryFn: async () => devicesOf(await api.get('/iotapp/devices/', { query: { type: 'DVR', limit: 500, orderBy: 'label' } })),
  });
  const [dvr, setDvr] = useState<DeviceRef | null>(null);
  const [label, setLabel] = useState('');
  const [simulated, setSimulated] = useState(false);
  const [streamUrl, setStreamUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!dvr) return;
    setBusy(true);
    setError(null);
    try {
      const device = await api.post(
        '/iotapp/devices/',
        { label, type: 'CAMERA', parentId: dvr.id, assetId: dvr.assetId },
        { toast: false },
      );
      try {
        await api.put(
          '/api/cameras/{camId}/configs/',
          { simulated, streamUrl: simulated ? null : streamUrl.trim(), recordingEnabled: true },
          { path: { camId: device.id }, toast: false },
        );
      } catch (e) {
        // keep the product consistent: no half-made camera left behind
        await api.del('/iotapp/devices/{id}/', { path: { id: device.id }, toast: false }).catch(() => undefined);
        throw e;
      }
      toast.success('Device created successfully');
      await client.invalidateQueries({ queryKey: videoKeys.all });
      onClose();
    } catch (e) {
      setError(isHttpError(e) ? (detailOf(e.data) ?? e.message) : 'Failed to add the camera');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Add camera</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <Autocomplete
          options={dvrs.data?.contents ?? []}
          loading={dvrs.isLoading}
          value={dvr}
          onChange={(_e, v) => setDvr(v)}
          getOptionLabel={(d) => (d.asset ? `${d.label} (${d.asset.name})` : d.label)}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText="No Options Available!"
          renderInput={(params) => <TextField {...params} label="DVR/NVR" required />}
        />
        <TextField label="Label" required value={label} onChange={(e) => setLabel(e.target.value)} />
        <FormControlLabel
          control={<Switch checked={simulated} onChange={(e) => setSimulated(e.target.checked)} />}
          label="Simulated camera"
        />
        {!simulated ? (
          <TextField
            label="RTSP URL"
            required
            placeholder="rtsp://user:password@192.168.1.20:554/stream1"
            value={streamUrl}
            onChange={(e) => setStreamUrl(e.target.value)}
          />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy || !dvr || !label.trim() || (!simulated && !streamUrl.trim())}
          onClick={() => void submit()}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
