import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { type TourForm, useSaveTour, useTour } from './api.ts';

const LAYOUTS = [1, 4, 6, 9] as const;
type Layout = NonNullable<TourForm['layout']>;

import { nameWithSite } from '@sitewatch/contracts/sites';
import { CameraPicker } from './CameraPicker.tsx';

/** /tour/config/{id} ('new' to create): a tour's cameras in order with how long each is shown. */
export function TourConfigPage() {
  const raw = useParams().id;
  const id = raw === 'new' ? 0 : Number(raw);
  const tour = useTour(id);
  const save = useSaveTour(id || null);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [layout, setLayout] = useState<Layout>(1);
  const [stops, setStops] = useState<{ key: number; cameraId: number; label: string; dwellSec: number }[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!tour.data) return;
    setName(tour.data.name);
    setLayout(LAYOUTS.find((n) => n === tour.data.layout) ?? 1);
    setStops(tour.data.stops.map((s, i) => ({ key: i, cameraId: s.cameraId, label: s.label ?? `#${s.cameraId}`, dwellSec: s.dwellSec })));
  }, [tour.data]);
  const submit = async () => {
    setError(null);
    try {
      await save.mutateAsync({ name, layout, stops: stops.map((s) => ({ cameraId: s.cameraId, dwellSec: s.dwellSec })) });
      toast.success(id ? 'Successfully Updated' : 'Successfully Created');
      navigate('/camera-tour');
    } catch (e) {
      setError(isHttpError(e) ? (detailOf(e.data) ?? e.message) : 'Failed to save');
    }
  };
  return (
    <Box>
      <PageHeader title={id ? 'Edit tour' : 'Create tour'} />
      <Paper sx={{ p: 2, display: 'grid', gap: 2, maxWidth: 720 }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          select
          label="Cameras at once"
          value={layout}
          onChange={(e) => setLayout(LAYOUTS.find((n) => n === Number(e.target.value)) ?? 1)}
        >
          {LAYOUTS.map((n) => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="subtitle2">Cameras, in order</Typography>
        {stops.map((s, i) => (
          <Box key={s.key} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Typography sx={{ flex: 1 }}>
              {i + 1}. {s.label}
            </Typography>
            <TextField
              size="small"
              type="number"
              label="Seconds"
              value={s.dwellSec}
              sx={{ width: 110 }}
              onChange={(e) => setStops(stops.map((x, j) => (j === i ? { ...x, dwellSec: Math.max(5, Number(e.target.value)) } : x)))}
            />
            <IconButton aria-label={`Remove ${s.label}`} onClick={() => setStops(stops.filter((_x, j) => j !== i))}>
              <DeleteIcon />
            </IconButton>
          </Box>
        ))}
        <CameraPicker
          label="Add camera"
          onPick={(c) =>
            c && setStops([...stops, { key: Date.now(), cameraId: c.id, label: nameWithSite(c.label, c.siteName), dwellSec: 10 }])
          }
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button variant="contained" onClick={() => void submit()} disabled={save.isPending || !name || stops.length === 0}>
            Save
          </Button>
          <Button onClick={() => navigate('/camera-tour')}>Cancel</Button>
        </Box>
      </Paper>
    </Box>
  );
}
