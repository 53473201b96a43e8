import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useUserDashboards } from '../api.ts';

/** The dashboards meant for the user that ask to be on the home page (SPEC 6: not for the administrator roles). */
export function HomeDashboards() {
  const mine = useUserDashboards();
  const items = (mine.data?.contents ?? []).filter((d) => d.config.settings.showOnHome);
  if (items.length === 0) return null;
  return (
    <Box sx={{ mb: 5 }} data-testid="home-dashboards">
      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        My dashboards
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {items.map((d) => (
          <Card key={d.id}>
            <CardActionArea component={RouterLink} to={`/dashboards/${d.id}/view`} data-testid={`home-dashboard-${d.id}`}>
              <CardContent sx={{ display: 'flex', gap: 2 }}>
                <DashboardOutlined color="primary" aria-hidden />
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }} noWrap>
                    {d.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    Updated {formatDateTime(d.updatedAt)}
                  </Typography>
                </Box>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
