import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Where footage exists between `from` and `to` (green) and where it does not (grey: the camera was down).
 * Clicking a point asks to play from there; `cursor` marks the current position.
 */
export function Timeline({
  from,
  to,
  ranges,
  markers = [],
  cursor,
  onSeek,
}: {
  from: string;
  to: string;
  ranges: { start: string; end: string }[];
  /** Marked stretches (maintenance windows), drawn as a band along the top. */
  markers?: { start: string; end: string; label: string }[];
  cursor?: string | null;
  onSeek?: (iso: string) => void;
}) {
  const start = Date.parse(from);
  const span = Math.max(1, Date.parse(to) - start);
  const pct = (iso: string) => Math.min(100, Math.max(0, ((Date.parse(iso) - start) / span) * 100));
  return (
    <Box>
      <Box
        role="slider"
        aria-label="Recording timeline"
        aria-valuemin={start}
        aria-valuemax={start + span}
        aria-valuenow={cursor ? Date.parse(cursor) : start}
        tabIndex={0}
        data-testid="recording-timeline"
        onClick={(e) => {
          const rect = e.currentTarget.getBoundingClientRect();
          const ratio = (e.clientX - rect.left) / rect.width;
          onSeek?.(new Date(start + ratio * span).toISOString());
        }}
        sx={{
          position: 'relative',
          height: 14,
          bgcolor: 'grey.400',
          borderRadius: 1,
          cursor: onSeek ? 'pointer' : 'default',
          overflow: 'hidden',
        }}
      >
        {ranges.map((r) => (
          <Tooltip key={r.start} title={`${time(r.start)} – ${time(r.end)}`}>
            <Box
              data-testid="footage-range"
              sx={{
                position: 'absolute',
                top: 0,
                bottom: 0,
                left: `${pct(r.start)}%`,
                width: `${Math.max(0.3, pct(r.end) - pct(r.start))}%`,
                bgcolor: 'success.main',
              }}
            />
          </Tooltip>
        ))}
        {markers.map((m) => (
          <Tooltip key={`m${m.start}`} title={`${m.label}: ${time(m.start)} – ${time(m.end)}`}>
            <Box
              data-testid="timeline-marker"
              sx={{
                position: 'absolute',
                top: 0,
                height: 5,
                left: `${pct(m.start)}%`,
                width: `${Math.max(0.3, pct(m.end) - pct(m.start))}%`,
                bgcolor: 'warning.main',
              }}
            />
          </Tooltip>
        ))}
        {cursor ? <Box sx={{ position: 'absolute', top: 0, bottom: 0, width: 2, left: `${pct(cursor)}%`, bgcolor: 'error.main' }} /> : null}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
        <Typography variant="caption">{time(from)}</Typography>
        <Typography variant="caption">{time(to)}</Typography>
      </Box>
    </Box>
  );
}
