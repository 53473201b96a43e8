import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EVIDENCE_LINK_DAYS, type EvidencePack } from '@sitewatch/contracts/video';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { toast } from '../../lib/toasts.ts';

/** The files of a pack with their SHA-256 (also on the shared page). */
export function EvidenceFiles({ files, href }: { files: EvidencePack['files']; href?: (name: string) => string }) {
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
      {files.map((f) => (
        <Box component="li" key={f.name}>
          <Typography variant="subtitle2">
            {href ? <a href={href(f.name)}>{f.label}</a> : f.label} · {formatBytes(f.bytes)}
          </Typography>
          <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            SHA-256 {f.sha256}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Builds the incident's evidence pack and shows the link to share (SPEC 2.2 /incident-report). */
export function EvidencePackPanel({ incidentId, clipReady }: { incidentId: number; clipReady: boolean }) {
  const [days, setDays] = useState(EVIDENCE_LINK_DAYS);
  const build = useMutation({
    mutationFn: () => api.post('/api/incident-reports/{id}/pack/', { days }, { path: { id: incidentId } }),
  });
  const pack = build.data;
  const link = pack ? `${window.location.origin}${pack.url}` : '';
  return (
    <Paper sx={{ p: 2 }} data-testid="evidence-pack">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        Evidence pack
      </Typography>
      {!clipReady ? (
        <Alert severity="info">The pack can be built once the clip is ready.</Alert>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            size="small"
            type="number"
            label="Link valid (days)"
            value={days}
            onChange={(e) => setDays(Math.max(1, Math.min(30, Number(e.target.value) || 1)))}
            slotProps={{ htmlInput: { min: 1, max: 30 } }}
            sx={{ width: 160 }}
          />
          <Button variant="contained" onClick={() => build.mutate()} disabled={build.isPending}>
            {pack ? 'Build a new link' : 'Build evidence pack'}
          </Button>
        </Box>
      )}
      {pack ? (
        <Box sx={{ mt: 2, display: 'grid', gap: 1 }}>
          <TextField size="small" label="Link to share" value={link} slotProps={{ htmlInput: { readOnly: true } }} fullWidth />
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              size="small"
              onClick={() =>
                navigator.clipboard.writeText(link).then(
                  () => toast.success('Link copied'),
                  () => toast.error('Copy failed'),
                )
              }
            >
              Copy link
            </Button>
            <Typography variant="caption" color="text.secondary">
              Valid until {formatDateTime(pack.expiresAt)}
            </Typography>
          </Box>
          <EvidenceFiles files={pack.files} />
        </Box>
      ) : null}
    </Paper>
  );
}
