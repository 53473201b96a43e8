import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { AnalysisResultPage } from '@sitewatch/contracts/analysis';
import { cameraAtPath, type VideoEvidence } from '@sitewatch/contracts/video-evidence';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can } from '../../lib/access.ts';
import { formatDateTime } from '../../lib/format.ts';
import { http } from '../../lib/http.ts';
import { useUser } from '../../lib/session.ts';
import { useTicketEvidence } from './evidence-api.ts';
import { videoKeys } from './keys.ts';

const STATUS: Record<VideoEvidence['status'], { label: string; color: 'default' | 'success' | 'warning' }> = {
  pending: { label: 'Waiting for the window to end', color: 'default' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'No footage recorded', color: 'warning' },
};

function EvidenceClip({ clip }: { clip: VideoEvidence }) {
  const status = STATUS[clip.status];
  return (
    <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid="evidence-clip">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ mr: 'auto' }}>
          {clip.cameraLabel}
        </Typography>
        <Chip size="small" label={clip.source === 'alarm' ? 'Alarm window' : 'AI finding'} />
        <Chip size="small" color={status.color} label={status.label} data-testid="evidence-status" />
        {clip.pinned ? <Chip size="small" variant="outlined" label="Kept while the ticket is open" /> : null}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        Event {formatDateTime(clip.eventAt)} · {formatDateTime(clip.from)} – {formatDateTime(clip.to)}
      </Typography>
      {clip.clipPath ? (
        // biome-ignore lint/a11y/useMediaCaption: camera footage has no spoken words to caption
        <video
          src={clip.clipPath}
          controls
          preload="metadata"
          style={{ width: '100%', maxHeight: 320, background: '#000', borderRadius: 4 }}
          data-testid="evidence-video"
        />
      ) : null}
      <Button size="small" component={Link} to={cameraAtPath(clip.cameraId, clip.eventAt)} data-testid="evidence-open-camera">
        Live and playback at event time
      </Button>
    </Paper>
  );
}

/** The frames of the AI findings behind an AI audit ticket. */
function FindingFrames({ ticketId }: { ticketId: number }) {
  const results = useQuery({
    queryKey: videoKeys.ticketFindings(ticketId),
    queryFn: () => http.get<AnalysisResultPage>('/api/analysis/results/', { query: { ticketId, limit: 6 }, toast: false }),
    retry: false,
  });
  const withFrames = results.data?.results.filter((r) => r.hasFrame) ?? [];
  if (withFrames.length === 0) return null;
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' }}>
      {withFrames.map((r) => (
        <Box key={r.id} component="figure" sx={{ m: 0 }}>
          <Box
            component="img"
            src={`/api/analysis/results/${r.id}/frame/`}
            alt={`${r.cameraLabel} at ${formatDateTime(r.at)}`}
            sx={{ width: '100%', borderRadius: 1, display: 'block' }}
            data-testid="evidence-frame"
          />
          <Typography variant="caption" color="text.secondary" component="figcaption">
            {r.detail} · score {r.score}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * A ticket's video evidence: for an alarm, the clip of each camera mapped to the device or its site over
 * 300 s either side of the alarm; for an AI audit ticket, its findings' frames and a short clip around each.
 */
export function TicketVideoEvidence({ ticketId, aiTicket }: { ticketId: number; aiTicket: boolean }) {
  const user = useUser();
  const allowed = can(user, 'view_camera');
  const evidence = useTicketEvidence(ticketId, allowed);
  if (!allowed) return null;
  const clips = evidence.data?.contents ?? [];
  if (!aiTicket && evidence.isSuccess && clips.length === 0) return null;
  return (
    <Paper sx={{ p: 2 }} data-testid="ticket-video-evidence">
      <Typography variant="h6" sx={{ fontSize: '1rem', mb: 1.5 }}>
        Video evidence
      </Typography>
      {aiTicket ? <FindingFrames ticketId={ticketId} /> : null}
      {evidence.isLoading ? <Skeleton height={120} /> : null}
      {evidence.isError ? <Alert severity="warning">The video evidence could not be loaded.</Alert> : null}
      {evidence.isSuccess && clips.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No clip on this ticket.
        </Typography>
      ) : null}
      <Box sx={{ display: 'grid', gap: 1.5, mt: aiTicket ? 1.5 : 0 }}>
        {clips.map((c) => (
          <EvidenceClip key={c.id} clip={c} />
        ))}
      </Box>
      {clips.some((c) => c.source === 'alarm') ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          Each mapped camera's recording over the window around the alarm, cut once recorded.
        </Typography>
      ) : null}
    </Paper>
  );
}
