import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Pagination from '@mui/material/Pagination';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { type Camera, cameraStateText } from '@sitewatch/contracts/video';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { can, canAdministerVideo } from '../../lib/access.ts';
import { useUser } from '../../lib/session.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { AddCameraDialog } from './AddCameraDialog.tsx';
import { useCameras } from './api.ts';
import { LiveVideoDialog } from './popups.tsx';
import { Snapshot } from './Snapshot.tsx';
import { VideoToolsBanner } from './VideoToolsBanner.tsx';

const PAGE_SIZE = 24;
const STATE_COLOUR = { recording: 'success', starting: 'info', retrying: 'warning', idle: 'default', stopped: 'default' } as const;

/** The page's cameras under one heading per site (they come ordered by site), or under none when not grouped. */
function groupBySite(cameras: Camera[], grouped: boolean) {
  if (!grouped) return [{ key: 'all', title: null as string | null, cameras }];
  const groups: { key: string; title: string | null; cameras: Camera[] }[] = [];
  for (const c of cameras) {
    const key = String(c.assetId ?? 'none');
    const last = groups.at(-1);
    if (last?.key === key) last.cameras.push(c);
    else groups.push({ key, title: c.siteName ?? 'No site', cameras: [c] });
  }
  return groups;
}

/** /camview: every camera the user may see, with a fresh snapshot, its state and its screens. */
export function CamviewPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [site, setSite] = useState<Option | null>(null);
  const [grouped, setGrouped] = useState(true);
  const cameras = useCameras({ search, page, limit: PAGE_SIZE, ...(site ? { assetId: site.id } : {}) });
  const groups = groupBySite(cameras.data?.contents ?? [], grouped);
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
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
        <TextField
          size="small"
          label="Search cameras or sites"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <Box sx={{ minWidth: 220, flex: '0 1 280px' }}>
          <SitePicker
            label="Site"
            value={site}
            onChange={(v) => {
              setSite(v);
              setPage(1);
            }}
          />
        </Box>
        <FormControlLabel control={<Switch checked={grouped} onChange={(e) => setGrouped(e.target.checked)} />} label="Group by site" />
      </Box>
      {groups.map((group) => (
        <Box key={group.key} component="section" aria-label={group.title ?? 'Cameras'} sx={{ mb: 2 }}>
          {group.title !== null ? (
            <Typography variant="h6" component="h2" sx={{ mb: 1 }} data-testid="camera-site-group">
              {group.title}
            </Typography>
          ) : null}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(260px, 100%), 1fr))' }}>
            {group.cameras.map((c) => (
              <Card key={c.id} data-testid="camera-card">
                <Snapshot cameraId={c.id} alt={nameWithSite(c.label, c.siteName)} height={150} />
                <CardContent sx={{ pb: 0 }}>
                  <Typography variant="subtitle1" noWrap>
                    <SiteNamed label={c.label} site={c.siteName} />
                  </Typography>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {c.parentLabel ?? ''}
                  </Typography>
                  <Chip size="small" sx={{ mt: 1 }} color={c.configured ? STATE_COLOUR[c.state] : 'default'} label={cameraStateText(c)} />
                </CardContent>
                <CardActions>
                  <Button size="small" onClick={() => setLive({ id: c.id, label: nameWithSite(c.label, c.siteName) })}>
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
        </Box>
      ))}
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
