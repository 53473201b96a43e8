import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { playbackUrl, useTimeline } from './api.ts';
import { HlsPlayer } from './HlsPlayer.tsx';
import { Timeline } from './Timeline.tsx';

/**
 * Recorded footage of one camera from `from` to `to`: the player starts at `from` (EXT-X-START of the playlist) and
 * the timeline shows where footage exists; clicking it replays from that point to `to`.
 */
export function RecordingPlayer({
  cameraId,
  label,
  from,
  to,
  startAt,
  height = 220,
}: {
  cameraId: number;
  label: string;
  from: string;
  to: string;
  /** Where playback starts (an event's time), `from` when not given. */
  startAt?: string;
  height?: number;
}) {
  const [start, setStart] = useState(startAt ?? from);
  const [position, setPosition] = useState<string | null>(null);
  const timeline = useTimeline(cameraId, from, to);
  const hasFootage = (timeline.data?.ranges.length ?? 0) > 0;
  const effectiveStart = Date.parse(start) >= Date.parse(from) && Date.parse(start) < Date.parse(to) ? start : from;
  return (
    <Box data-testid={`recording-${cameraId}`}>
      <Typography variant="subtitle2" noWrap>
        {label}
      </Typography>
      <Box sx={{ height, bgcolor: '#000', borderRadius: 1, overflow: 'hidden' }}>
        {timeline.isSuccess && !hasFootage ? (
          <Alert severity="info" sx={{ m: 1 }}>
            No footage in the selected range
          </Alert>
        ) : (
          <HlsPlayer
            key={effectiveStart}
            src={hasFootage ? playbackUrl(cameraId, effectiveStart, to) : null}
            testId={`recording-video-${cameraId}`}
            onTimeUpdate={(_s, date) => date && setPosition(date.toISOString())}
          />
        )}
      </Box>
      <Box sx={{ mt: 0.5 }}>
        <Timeline
          from={from}
          to={to}
          ranges={timeline.data?.ranges ?? []}
          markers={timeline.data?.markers ?? []}
          cursor={position}
          onSeek={setStart}
        />
      </Box>
    </Box>
  );
}
