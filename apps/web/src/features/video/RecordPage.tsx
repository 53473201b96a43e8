import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CAMERA_CONSTANTS, type Camera } from '@sitewatch/contracts/video';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { toast } from '../../lib/toasts.ts';
import { useCameras, useCreateBatch } from './api.ts';
import { CameraPicker } from './CameraPicker.tsx';
import { ClipJobs } from './ClipJobs.tsx';
import { RecordingPlayer } from './RecordingPlayer.tsx';
import { VideoToolsBanner } from './VideoToolsBanner.tsx';

const GRID = CAMERA_CONSTANTS.recordingGrid;
const MAX = GRID.columns * GRID.rows;
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);

/** /camview/record: up to 6 cameras (3x2) from a chosen time, 60 s by default; timelines show the footage. */
export function RecordPage() {
  const [params, setParams] = useSearchParams();
  const ids = (params.get('cameras') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .slice(0, 50);
  const cameras = useCameras({ ids });
  const picked = ids.map((id) => cameras.data?.contents.find((c) => c.id === id)).filter((c): c is Camera => !!c);
  const [start, setStart] = useState(params.get('from') ?? localInput(new Date(Date.now() - 90_000)));
  const [duration, setDuration] = useState(Number(params.get('duration') ?? CAMERA_CONSTANTS.recordingDefaultSec));
  const [applied, setApplied] = useState<{ from: string; to: string } | null>(null);
  const batch = useCreateBatch();

  const setIds = (next: number[]) => {
    params.set('cameras', next.join(','));
    setParams(params, { replace: true });
  };
  const play = () => {
    const from = new Date(start);
    if (Number.isNaN(from.getTime())) return;
    setApplied({ from: from.toISOString(), to: new Date(from.getTime() + duration * 1000).toISOString() });
  };
  const download = async () => {
    if (!applied) return;
    const result = await batch.mutateAsync({ cameraIds: picked.map((c) => c.id), windows: [applied] });
    if (result.warning) toast.warning(result.warning);
    else toast.success(`Download started: ${result.taskCount} file(s)`);
  };

  return (
    <Box>
      <PageHeader title="Recordings" />
      <VideoToolsBanner />
      <Paper sx={{ p: 2, mb: 2, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <CameraPicker
          label="Add camera"
          onPick={(c) => {
            if (!c || ids.includes(c.id)) return;
            if (ids.length >= MAX) toast.warning(`At most ${MAX} cameras at once`);
            else setIds([...ids, c.id]);
          }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label="From"
          sx={{ width: 240 }}
          value={start}
          onChange={(e) => setStart(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, 'data-testid': 'record-from' } }}
        />
        <TextField
          size="small"
          type="number"
          label="Seconds"
          value={duration}
          onChange={(e) => setDuration(Math.max(1, Math.min(CAMERA_CONSTANTS.clipMaxSec, Number(e.target.value))))}
          sx={{ width: 110 }}
        />
        <Button variant="contained" onClick={play} disabled={picked.length === 0}>
          Play
        </Button>
        <Button variant="outlined" onClick={() => void download()} disabled={!applied || picked.length === 0 || batch.isPending}>
          Download MP4
        </Button>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {picked.map((c) => (
            <Chip key={c.id} label={c.label} onDelete={() => setIds(ids.filter((i) => i !== c.id))} />
          ))}
        </Box>
      </Paper>
      {applied ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: `repeat(${GRID.columns}, 1fr)` } }}>
          {picked.slice(0, MAX).map((c) => (
            <RecordingPlayer key={`${c.id}-${applied.from}`} cameraId={c.id} label={c.label} from={applied.from} to={applied.to} />
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary">Choose cameras and a time, then Play.</Typography>
      )}
      <ClipJobs />
    </Box>
  );
}
