import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ATTENDANCE_PERMISSIONS } from '@sitewatch/contracts/attendance';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { useAttendanceList } from './api.ts';
import { CheckInPanel } from './CheckInPanel.tsx';

/** /attendance: a field executive checks in and out at a site from a phone. */
export function CheckInPage() {
  const permissions = permissionsOf(useUser());
  const recent = useAttendanceList({ limit: 5, userId: useUser()?.id }, permissions.has(ATTENDANCE_PERMISSIONS.add));
  const denied = useDenied(permissions.has(ATTENDANCE_PERMISSIONS.add));
  if (denied) return denied;
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto' }}>
      <PageHeader title="Check in" />
      <Card variant="outlined">
        <CardContent>
          <CheckInPanel />
        </CardContent>
      </Card>
      <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
        Your recent visits
      </Typography>
      {(recent.data?.contents ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No visits yet.
        </Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="recent-visits">
          {recent.data?.contents.map((r) => (
            <Box component="li" key={r.id} sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {r.siteName}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatDateTime(r.checkInAt)} – {r.checkOutAt ? formatDateTime(r.checkOutAt) : 'open'}
                {r.hours !== null ? ` · ${r.hours} h` : ''}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {permissions.has(ATTENDANCE_PERMISSIONS.view) ? (
        <Typography variant="body2" sx={{ mt: 2 }}>
          <Link component={RouterLink} to="/attendance-management">
            Attendance management
          </Link>
        </Typography>
      ) : null}
    </Box>
  );
}
