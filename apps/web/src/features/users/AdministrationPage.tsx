import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { CLUSTER_PERMISSIONS } from '@sitewatch/contracts/clusters';
import { GROUP_PERMISSIONS } from '@sitewatch/contracts/permissions';
import { USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { VENDOR_PERMISSIONS } from '@sitewatch/contracts/vendors';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { hasRole, permissionsOf, useUser } from '../../lib/session.ts';

interface Entry {
  to: string;
  title: string;
  text: string;
  allowed: boolean;
}

/** /administration: the admin's landing page, offering only what the user may open. */
export function AdministrationPage() {
  const user = useUser();
  const mine = permissionsOf(user);
  const entries: Entry[] = [
    {
      to: '/users',
      title: 'Users',
      text: 'Add, change, deactivate and remove users; reset passwords.',
      allowed: mine.has(USER_PERMISSIONS.view),
    },
    {
      to: '/vendors',
      title: 'Vendors',
      text: 'Companies that serve your sites, their contacts, issue types and open tickets.',
      allowed: mine.has(VENDOR_PERMISSIONS.view),
    },
    {
      to: '/field-executives',
      title: 'Field executives',
      text: 'Field executives with their area, sites and open tickets; assign them tickets.',
      allowed: mine.has(USER_PERMISSIONS.view),
    },
    {
      to: '/store-manager',
      title: 'Store managers',
      text: 'Store managers with their profile, area and sites.',
      allowed: mine.has(USER_PERMISSIONS.view),
    },
    {
      to: '/infra-admin',
      title: 'Infra admins',
      text: 'Infrastructure administrators with their profile, area and sites.',
      allowed: mine.has(USER_PERMISSIONS.view),
    },
    {
      to: '/cluster-view',
      title: 'Clusters',
      text: 'Groups of sites with their city lead, area head and regional head.',
      allowed: mine.has(CLUSTER_PERMISSIONS.view),
    },
    { to: '/permissions', title: 'Permissions', text: 'Groups and the permissions they grant.', allowed: mine.has(GROUP_PERMISSIONS.view) },
    {
      to: '/registration-requests',
      title: 'Registration requests',
      text: 'Approve or reject people who asked for an account.',
      allowed: mine.has(USER_PERMISSIONS.add),
    },
    {
      to: '/user-activity-logs',
      title: 'User activity logs',
      text: 'Sign-ins and every change, with who, when and what changed.',
      allowed: mine.has(USER_PERMISSIONS.view),
    },
    {
      to: '/assign-asset',
      title: 'Assign sites',
      text: 'Which sites each user looks after.',
      allowed: hasRole(user, 'sysadmin', 'customeradmin', 'localadmin'),
    },
    { to: '/settings', title: 'Settings', text: 'Customer settings, including who may register.', allowed: hasRole(user, 'customeradmin') },
  ].filter((e) => e.allowed);
  return (
    <Box>
      <PageHeader title="Administration" />
      {entries.length === 0 ? (
        <EmptyState title="Nothing to administer" description="Your account has no administration rights." />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
          {entries.map((e) => (
            <Card key={e.to} variant="outlined">
              <CardActionArea component={Link} to={e.to} sx={{ height: '100%' }}>
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {e.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {e.text}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
