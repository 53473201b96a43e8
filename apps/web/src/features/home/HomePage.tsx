import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import DevicesOutlined from '@mui/icons-material/DevicesOutlined';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { isCustomerAdmin, ROLE_LABELS } from '@sitewatch/contracts/roles';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { leafItems } from '../../app/shell/menu.ts';
import { NavIcon } from '../../app/shell/nav-icons.tsx';
import { useShell } from '../../app/shell/shell-context.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { hasRole, useUser } from '../../lib/session.ts';
import { useCurrentCustomer } from '../tenant-settings/api.ts';

const HomeDashboards = lazy(() => import('../dashboards/nav/HomeDashboards.tsx').then((m) => ({ default: m.HomeDashboards })));

function greetingKey(hour: number) {
  if (hour < 12) return 'home.greetingMorning';
  if (hour < 18) return 'home.greetingAfternoon';
  return 'home.greetingEvening';
}

const GRID = { display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' } as const;

/** Home: a greeting and the sections this user can open, as cards (no made-up figures). */
export function HomePage() {
  const { t } = useTranslation();
  const user = useUser();
  const { menu, menuLoading } = useShell();
  const customer = useCurrentCustomer().data;
  if (!user) return null;
  const sections = leafItems(menu).filter((item) => item.value !== '/');
  const firstRole = user.userRole[0];
  const account: Array<{ to: string; label: string; hint: string; icon: ReactNode; testId: string }> = [
    {
      to: '/myprofile',
      label: t('profileMenu.myProfile'),
      hint: t('home.myProfileHint'),
      icon: <PersonOutlined />,
      testId: 'home-my-profile',
    },
    {
      to: '/account/change-password/',
      label: t('profileMenu.changePassword'),
      hint: t('home.changePasswordHint'),
      icon: <LockResetOutlined />,
      testId: 'home-change-password',
    },
    { to: '/sessions', label: t('profileMenu.sessions'), hint: t('home.sessionsHint'), icon: <DevicesOutlined />, testId: 'home-sessions' },
  ];
  if (isCustomerAdmin(user.userRole)) {
    account.push({
      to: '/settings',
      label: t('profileMenu.settings'),
      hint: t('home.settingsHint'),
      icon: <SettingsOutlined />,
      testId: 'home-settings',
    });
  }
  if (hasRole(user, 'sysadmin') && !sections.some((s) => s.value === '/app-admin')) {
    account.push({
      to: '/app-admin',
      label: t('admin.title'),
      hint: t('home.appAdminHint'),
      icon: <AdminPanelSettingsOutlined />,
      testId: 'home-app-admin',
    });
  }

  return (
    <Box data-testid="home-page">
      <Typography variant="h1" component="h1">
        {t(greetingKey(new Date().getHours()), { name: user.firstname || user.username })}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 4 }}>
        {customer?.name
          ? t('home.signedInAsAt', { role: firstRole ? ROLE_LABELS[firstRole] : '', customer: customer.name })
          : t('home.signedInAs', { role: firstRole ? ROLE_LABELS[firstRole] : '' })}
      </Typography>

      <Suspense fallback={null}>
        <HomeDashboards />
      </Suspense>

      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        {t('home.sections')}
      </Typography>
      {menuLoading ? (
        <Box sx={{ ...GRID, mb: 5 }} aria-busy="true" aria-label={t('home.sectionsLoading')} data-testid="home-sections-loading">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={72} />
          ))}
        </Box>
      ) : sections.length ? (
        <Box sx={{ ...GRID, mb: 5 }} data-testid="home-sections">
          {sections.map((item) => (
            <HomeCard key={`${item.label}|${item.value}`} to={item.value} label={item.label} icon={<NavIcon name={item.icon} />} />
          ))}
        </Box>
      ) : (
        <Card sx={{ mb: 5 }}>
          <EmptyState compact title={t('home.noSections')} description={t('home.noSectionsHint')} data-testid="home-no-sections" />
        </Card>
      )}

      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        {t('home.account')}
      </Typography>
      <Box sx={GRID}>
        {account.map((item) => (
          <HomeCard key={item.to} to={item.to} label={item.label} hint={item.hint} icon={item.icon} testId={item.testId} />
        ))}
      </Box>
    </Box>
  );
}

function HomeCard({ to, label, hint, icon, testId }: { to: string; label: string; hint?: string; icon: ReactNode; testId?: string }) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={to} sx={{ height: '100%', alignItems: 'flex-start' }} data-testid={testId}>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <Box sx={{ color: 'primary.main', display: 'flex', mt: 0.25 }} aria-hidden>
            {icon}
          </Box>
          <Box>
            <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
            {hint ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {hint}
              </Typography>
            ) : null}
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
