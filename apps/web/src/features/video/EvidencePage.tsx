import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { EvidenceFiles } from './EvidencePackPanel.tsx';
import { FactList } from './FactList.tsx';
import { videoKeys } from './keys.ts';

/** /evidence/{token}: the shared evidence pack of an incident, for anyone holding the link until it expires. */
export function EvidencePage() {
  const token = useParams().token ?? '';
  const pack = useQuery({
    queryKey: videoKeys.evidence(token),
    queryFn: () => api.get('/api/evidence/{token}/', { path: { token }, toast: false }),
    retry: false,
  });
  if (pack.isLoading) return <PageLoader />;
  if (!pack.data) {
    return (
      <Box component="main" sx={{ maxWidth: 640, mx: 'auto', p: 2 }}>
        <Alert severity="warning">This evidence link is not valid or has expired.</Alert>
      </Box>
    );
  }
  const p = pack.data;
  const facts: Array<[string, string]> = [
    ['AWB', p.awb],
    ['Table', p.tableNumber],
    ['Camera', p.cameraLabel],
    ['Event time', formatDateTime(p.eventAt)],
    ['Duration', `${p.durationSec} s`],
  ];
  return (
    <Box component="main" sx={{ maxWidth: 720, mx: 'auto', p: 2, display: 'grid', gap: 2 }} data-testid="evidence-page">
      <Typography variant="h5" component="h1">
        Incident evidence: {p.title}
      </Typography>
      <Paper sx={{ p: 2 }}>
        <FactList facts={facts} />
      </Paper>
      <Paper sx={{ p: 2 }}>
        <EvidenceFiles files={p.files} href={(name) => `/api/evidence/${encodeURIComponent(token)}/${name}`} />
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          Compare a downloaded file's SHA-256 with the one shown to check it is unchanged. This link is valid until{' '}
          {formatDateTime(p.expiresAt)}.
        </Typography>
      </Paper>
    </Box>
  );
}
