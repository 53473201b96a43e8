import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { cameraTablesSchema } from '@sitewatch/contracts/video';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useCamera, useConfigureCamera, useStorages } from './api.ts';
import { Snapshot } from './Snapshot.tsx';
import { TablesField } from './TablesField.tsx';

/** The first rule the tables break, in the server's words. */
const tablesProblem = (tables: string[]) => cameraTablesSchema.safeParse(tables).error?.issues[0]?.message;

/** /cameras/{id}/configs: stream (RTSP or simulated), recording, segment length, storage and the tables of one camera. */
export function CameraConfigPage() {
  const id = Number(useParams().id);
  const camera = useCamera(id);
  const storages = useStorages();
  const save = useConfigureCamera(id);
  const [form, setForm] = useState({
    simulated: false,
    streamUrl: '',
    recordingEnabled: true,
    segmentSec: 2,
    storageId: 0,
    tables: [] as string[],
  });
  const tablesError = tablesProblem(form.tables);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const c = camera.data;
    if (c)
      setForm({
        simulated: c.simulated,
        streamUrl: c.streamUrl ?? '',
        recordingEnabled: c.configured ? c.recordingEnabled : true,
        segmentSec: c.segmentSec,
        storageId: c.storageId ?? 0,
        tables: c.tables,
      });
  }, [camera.data]);
  const submit = async () => {
    setError(null);
    try {
      await save.mutateAsync({
        simulated: form.simulated,
        streamUrl: form.simulated ? null : form.streamUrl.trim(),
        recordingEnabled: form.recordingEnabled,
        segmentSec: form.segmentSec,
        storageId: form.storageId || null,
        tables: form.tables,
      });
      toast.success('Successfully Updated');
    } catch (e) {
      setError(isHttpError(e) ? (detailOf(e.data) ?? e.message) : 'Failed to save');
    }
  };
  const gate = loadState(camera, { title: 'Camera not found', back: { to: '/camview', label: 'All cameras' } });
  if (gate) return gate;
  const c = camera.data;
  return (
    <Box>
      <PageHeader title={`Camera configs${c ? `: ${c.label}` : ''}`} subtitle={c?.parentLabel ?? undefined} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Paper sx={{ p: 2, display: 'grid', gap: 2 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <FormControlLabel
            control={<Switch checked={form.simulated} onChange={(e) => setForm({ ...form, simulated: e.target.checked })} />}
            label="Simulated camera"
          />
          {!form.simulated ? (
            <TextField
              label="RTSP URL"
              placeholder="rtsp://user:password@192.168.1.20:554/stream1"
              value={form.streamUrl}
              onChange={(e) => setForm({ ...form, streamUrl: e.target.value })}
              helperText="rtsp:// or rtsps:// only. Credentials are stored and never shown again."
              required
            />
          ) : null}
          <FormControlLabel
            control={<Switch checked={form.recordingEnabled} onChange={(e) => setForm({ ...form, recordingEnabled: e.target.checked })} />}
            label="Record continuously"
          />
          <TextField
            type="number"
            label="Segment length (s)"
            value={form.segmentSec}
            onChange={(e) => setForm({ ...form, segmentSec: Math.max(1, Math.min(10, Number(e.target.value))) })}
          />
          <TextField
            select
            label="Storage"
            value={form.storageId}
            onChange={(e) => setForm({ ...form, storageId: Number(e.target.value) })}
          >
            <MenuItem value={0}>Default</MenuItem>
            {(storages.data?.contents ?? []).map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </TextField>
          <TablesField value={form.tables} onChange={(tables) => setForm({ ...form, tables })} error={tablesError} />
          <Box>
            <Button variant="contained" onClick={() => void submit()} disabled={save.isPending || Boolean(tablesError)}>
              Save
            </Button>
          </Box>
        </Paper>
        <Paper sx={{ p: 2 }}>
          <Typography variant="subtitle2" gutterBottom>
            State: {c?.state ?? '—'}
          </Typography>
          {c?.lastError ? <Alert severity="warning">{c.lastError}</Alert> : null}
          {c?.configured ? <Snapshot cameraId={id} alt={c.label} /> : null}
        </Paper>
      </Box>
    </Box>
  );
}
