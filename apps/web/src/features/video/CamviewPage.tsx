import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { cameraStateText } from '@sitewatch/contracts/video';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { can, canAdministerVideo } from '../../lib/access.ts';
import { useUser } from '../../lib/session.ts';
import { AddCameraDialog } from './AddCameraDialog.tsx';
import { useCameras } from './api.ts';
import { LiveVideoDialog } from './popups.tsx';
import { Snapshot } from './Snapshot.tsx';
import { VideoToolsBanner } from './VideoToolsBanner.tsx';

const PAGE_SIZE = 24;
const STATE_COLOUR = { recording: 'success', starting: 'info', retrying: 'warning', idle: 'default', stopped: 'default' } as const;

/** /camview: every camera the user may see, with a fresh snapshot, its state and its screens. */
export function CamviewPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const cameras = useCameras({ search, page, limit: PAGE_SIZE });
  const total = cameras.data?.totalCount ?? 0;
  const [live, setLive] = useState<{ id: number; label: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const user = useUser();
  const admin = canAdministerVideo(user);
  return (
    <Box>
      <PageHeader
        title="Cameras"
        actions={
          <>
            {admin && can(user, 'add_device') ? (
              <Button variant="outlined" onClick={() => setAdding(true)}>
                Add camera
              </Button>
            ) : null}
            <Button component={Link} to="/camview/live" variant="contained">
              Live view
            </Button>
            <Button component={Link} to="/camview/record" variant="outlined">
              Recordings
            </Button>
          </>
        }
      />
      <VideoToolsBanner />
      <TextField
        size="small"
        label="Search cameras"
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setPage(1);
        }}
        sx={{ mb: 2 }}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
        {(cameras.data?.contents ?? []).map((c) => (
          <Card key={c.id}>
            <Snapshot cameraId={c.id} alt={c.label} height={150} />
            <CardContent sx={{ pb: 0 }}>
              <Typography variant="subtitle1" noWrap>
                {c.label}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {c.parentLabel ?? ''}
              </Typography>
              <Chip size="small" sx={{ mt: 1 }} color={c.configured ? STATE_COLOUR[c.state] : 'default'} label={cameraStateText(c)} />
            </CardContent>
            <CardActions>
              <Button size="small" onClick={() => setLive({ id: c.id, label: c.label })}>
                Live
              </Button>
              <Button size="small" component={Link} to={`/camview/record?cameras=${c.id}`}>
                Recordings
              </Button>
              {admin ? (
                <Button size="small" component={Link} to={`/cameras/${c.id}/configs`}>
                  Configs
                </Button>
              ) : null}
            </CardActions>
          </Card>
        ))}
      </Box>
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
      {cameras.isSuccess && cameras.data.contents.length === 0 ? (
        <Typography color="text.secondary">{search ? 'No camera matches this search.' : 'No cameras yet.'}</Typography>
      ) : null}
      {adding ? <AddCameraDialog onClose={() => setAdding(false)} /> : null}
      {live ? <LiveVideoDialog open cameraId={live.id} label={live.label} onClose={() => setLive(null)} /> : null}
    </Box>
  );
}
