import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { INCIDENT_COLUMNS } from '@sitewatch/contracts/video';
import { useParams } from 'react-router';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { toast } from '../../lib/toasts.ts';
import { useIncident, useUpdateIncident } from './api.ts';
import { EvidencePackPanel } from './EvidencePackPanel.tsx';
import { FactList } from './FactList.tsx';

const [AWB, TABLE] = INCIDENT_COLUMNS;
const INCIDENT_STATUS_LABELS: Record<string, string> = { OPEN: 'Open', CLOSED: 'Closed' };

/** /incident-report/view/{IncidentId}: the incident, its clip (remuxed from the recording) and its status. */
export function IncidentViewPage() {
  const id = Number(useParams().IncidentId);
  const incident = useIncident(id);
  const update = useUpdateIncident(id);
  const gate = loadState(incident, { title: 'Incident not found', back: { to: '/incident-report', label: 'All incidents' } });
  const i = incident.data;
  if (gate || !i) return gate;
  const rows: [string, string][] = [
    [AWB.label, i.awb],
    [TABLE.label, i.tableNumber],
    ['Camera', i.cameraLabel ?? String(i.cameraId)],
    ['Event time', new Date(i.eventAt).toLocaleString()],
    ['Clip length', `${i.durationSec} s`],
    ['Status', INCIDENT_STATUS_LABELS[i.status] ?? i.status],
  ];
  return (
    <Box>
      <PageHeader
        title={i.title}
        subtitle={i.description || undefined}
        actions={
          <Button
            variant="outlined"
            onClick={() =>
              update.mutate({ status: i.status === 'OPEN' ? 'CLOSED' : 'OPEN' }, { onSuccess: () => toast.success('Successfully Updated') })
            }
          >
            {i.status === 'OPEN' ? 'Close incident' : 'Reopen incident'}
          </Button>
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Paper sx={{ p: 2 }}>
          {i.clipStatus === 'ready' && i.clipPath ? (
            <>
              {/* biome-ignore lint/a11y/useMediaCaption: camera footage has no captions */}
              <video src={i.clipPath} controls style={{ width: '100%' }} data-testid="incident-clip" />
              <Button href={i.clipPath} download={`incident-${i.id}.mp4`}>
                Download clip
              </Button>
            </>
          ) : i.clipStatus === 'pending' ? (
            <Alert severity="info">The clip is being prepared from the recording…</Alert>
          ) : (
            <Alert severity="warning">No footage was recorded for this incident's time.</Alert>
          )}
        </Paper>
        <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
          <Paper sx={{ p: 2 }}>
            <FactList facts={rows} />
          </Paper>
          <EvidencePackPanel incidentId={i.id} clipReady={i.clipStatus === 'ready'} />
        </Box>
      </Box>
    </Box>
  );
}
