import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { Link as RouterLink, useLocation } from 'react-router';
import { useUserDashboards } from '../api.ts';

/**
 * SPEC 6: the dashboards meant for the user in the side navigation (fetched only when the first role is not
 * sysadmin, localadmin or customeradmin; those find every dashboard under /dashboards).
 */
export function UserDashboardsNav({ onNavigate }: { onNavigate?: () => void }) {
  const location = useLocation();
  const mine = useUserDashboards();
  const items = (mine.data?.contents ?? []).filter((d) => d.config.settings.showInMenu);
  if (items.length === 0) return null;
  return (
    <List
      dense
      disablePadding
      sx={{ px: 1, mt: 1 }}
      data-testid="nav-user-dashboards"
      subheader={
        <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
          My dashboards
        </ListSubheader>
      }
    >
      {items.map((d) => {
        const to = `/dashboards/${d.id}/view`;
        return (
          <ListItem key={d.id} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={to}
              selected={location.pathname.startsWith(`/dashboards/${d.id}/`)}
              onClick={onNavigate}
            >
              <ListItemIcon>
                <DashboardOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={d.name} slotProps={{ primary: { noWrap: true } }} />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
