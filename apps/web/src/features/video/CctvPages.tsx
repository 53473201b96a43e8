import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Pagination from '@mui/material/Pagination';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { CAMERA_CONSTANTS, cameraStateText } from '@sitewatch/contracts/video';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { canAdministerVideo } from '../../lib/access.ts';
import { countOf, formatDateTime } from '../../lib/format.ts';
import { usePageCrumb } from '../../lib/page-crumb.ts';
import { useUser } from '../../lib/session.ts';
import { useTreeSelection } from '../asset-tree/selection.ts';
import { useCamera, useCameras } from './api.ts';
import { LiveTile } from './LiveTile.tsx';
import { RecordingPlayer } from './RecordingPlayer.tsx';
import { Snapshot } from './Snapshot.tsx';

const PAGE_SIZE = 24;

/**
 * /cctv/dashboard: the cameras under the node chosen in the device tree (a region, a site, a DVR/NVR), each with
 * its latest snapshot and state; a card opens the camera's view. Choosing a camera in the tree opens its view.
 */
export function CctvDashboardPage() {
  const selection = useTreeSelection();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [page, setPage] = useState(1);
  const key = JSON.stringify(selection.query) + String(selection.deviceId);
  // a new selection starts at its first page
  const [lastKey, setLastKey] = useState(key);
  if (lastKey !== key) {
    setLastKey(key);
    setPage(1);
  }
  const cameras = useCameras({ ...selection.query, deviceId: selection.deviceId ?? undefined, page, limit: PAGE_SIZE });
  const list = cameras.data?.contents ?? [];
  const total = cameras.data?.totalCount ?? 0;
  const recording = list.filter((c) => c.state === 'recording').length;
  const only = list.length === 1 ? list[0] : undefined;
  useEffect(() => {
    if (only && selection.deviceId === only.id) navigate({ pathname: `/cctv/view/${only.id}`, search }, { replace: true });
  }, [only, selection.deviceId, navigate, search]);
  return (
    <Box>
      <PageHeader
        title="CCTV dashboard"
        subtitle={`${selection.label ? `${selection.label} · ` : 'All sites · '}${countOf(total, 'camera')} · ${recording} recording · ${list.length - recording} not recording${total > PAGE_SIZE ? ' on this page' : ''}`}
      />
      {cameras.data && total === 0 ? (
        <EmptyState
          title="No cameras here"
          description={
            selection.label ? 'Choose another site, region or recorder in the tree.' : 'Add cameras under a DVR or NVR and configure them.'
          }
        />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
          {list.map((c) => (
            <Card key={c.id} data-testid={`cctv-camera-${c.id}`}>
              <CardActionArea component={Link} to={{ pathname: `/cctv/view/${c.id}`, search }}>
                <Snapshot cameraId={c.id} alt={c.label} height={140} />
                <CardContent>
                  <Typography noWrap>
                    <SiteNamed label={c.label} site={c.siteName} />
                  </Typography>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {c.parentLabel ?? ''}
                  </Typography>
                  <Typography variant="body2" color={c.state === 'recording' ? 'success.main' : 'warning.main'}>
                    {cameraStateText(c)}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
    </Box>
  );
}

/** /cctv/view/{id}: one camera live, with the last minutes of its recording below. */
export function CctvViewPage() {
  const id = Number(useParams().id);
  const camera = useCamera(id);
  const user = useUser();
  const { search } = useLocation();
  // ?at=<ISO time>: the recording around an event (alarm, ticket, notification), SPEC 9's window either side
  const atParam = new URLSearchParams(search).get('at');
  const atMs = atParam ? Date.parse(atParam) : Number.NaN;
  const at = Number.isFinite(atMs) && atMs <= Date.now() + 60_000 ? new Date(atMs).toISOString() : null;
  const span = CAMERA_CONSTANTS.recordingWindowSec * 1000;
  const to = at ? new Date(Math.min(Date.now(), atMs + span)).toISOString() : new Date().toISOString();
  const from = at ? new Date(atMs - span).toISOString() : new Date(Date.now() - 10 * 60_000).toISOString();
  usePageCrumb(camera.data ? nameWithSite(camera.data.label, camera.data.siteName) : null);
  const gate = loadState(camera, { title: 'Camera not found', back: { to: `/cctv/dashboard${search}`, label: 'All cameras here' } });
  if (gate || !camera.data) return gate;
  return (
    <Box>
      <PageHeader
        title={<SiteNamed label={camera.data.label} site={camera.data.siteName} />}
        subtitle={camera.data.parentLabel ?? undefined}
        actions={
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button component={Link} to={{ pathname: '/cctv/dashboard', search }}>
              All cameras here
            </Button>
            {canAdministerVideo(user) ? (
              <Button component={Link} to={`/cameras/${id}/configs`}>
                Configs
              </Button>
            ) : null}
          </Box>
        }
      />
      <LiveTile cameraId={id} label={nameWithSite(camera.data.label, camera.data.siteName)} height={420} />
      <Box sx={{ mt: 2 }}>
        <RecordingPlayer
          key={at ?? 'recent'}
          cameraId={id}
          label={at ? `At the event: ${formatDateTime(at)}` : 'Last 10 minutes'}
          from={from}
          to={to}
          startAt={at ?? undefined}
        />
      </Box>
    </Box>
  );
}
