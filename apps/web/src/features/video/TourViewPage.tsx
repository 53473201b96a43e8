import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useTour } from './api.ts';
import { LiveTile } from './LiveTile.tsx';

/** /tours/view/{id}: shows the tour's cameras `layout` at a time, moving on after each page's dwell time. */
export function TourViewPage() {
  const id = Number(useParams().id);
  const tour = useTour(id);
  const [page, setPage] = useState(0);
  const [paused, setPaused] = useState(false);
  const stops = tour.data?.stops ?? [];
  const size = Math.max(1, tour.data?.layout ?? 1);
  const pages = Math.max(1, Math.ceil(stops.length / size));
  const current = stops.slice(page * size, page * size + size);
  const dwell = Math.max(...current.map((s) => s.dwellSec), 5);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each page change restarts the dwell timer
  useEffect(() => {
    if (paused || stops.length === 0) return;
    const timer = setTimeout(() => setPage((p) => (p + 1) % pages), dwell * 1000);
    return () => clearTimeout(timer);
  }, [page, paused, pages, dwell, stops.length]);
  const cols = size === 1 ? 1 : size === 4 ? 2 : 3;
  const gate = loadState(tour, { title: 'Tour not found', back: { to: '/tour-view', label: 'All tours' } });
  if (gate) return gate;
  return (
    <Box>
      <PageHeader
        title={tour.data?.name ?? 'Tour'}
        subtitle={`Page ${page + 1} of ${pages} · ${dwell}s each`}
        actions={
          <>
            <Button onClick={() => setPage((p) => (p - 1 + pages) % pages)}>Previous</Button>
            <Button onClick={() => setPaused(!paused)}>{paused ? 'Resume' : 'Pause'}</Button>
            <Button onClick={() => setPage((p) => (p + 1) % pages)}>Next</Button>
          </>
        }
      />
      {!paused ? <LinearProgress key={`${page}-${dwell}`} sx={{ mb: 1 }} /> : null}
      {stops.length === 0 && tour.isSuccess ? <Typography>This tour has no cameras.</Typography> : null}
      <Box
        sx={{
          display: 'grid',
          gap: 1,
          gridTemplateColumns: `repeat(${cols}, 1fr)`,
          gridAutoRows: `calc((100vh - 240px) / ${Math.ceil(size / cols)})`,
        }}
      >
        {current.map((s) => (
          <LiveTile key={`${page}-${s.cameraId}`} cameraId={s.cameraId} label={s.label ?? `#${s.cameraId}`} />
        ))}
      </Box>
    </Box>
  );
}
