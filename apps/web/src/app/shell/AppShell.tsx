import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useMatches } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useFreshRights } from '../../features/profile/api.ts';
import { useCurrentCustomer, useCustomerSettings } from '../../features/tenant-settings/api.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import type { RouteHandle } from '../route-types.ts';
import { mayOpen } from '../screens.ts';
import { AppBreadcrumbs } from './AppBreadcrumbs.tsx';
import { isEmbedded, isExtensionPath } from './embedding.ts';
import { Footer } from './Footer.tsx';
import { visibleMenu } from './menu.ts';
import { rememberQuery } from './query-memory.ts';
import { SideNav } from './SideNav.tsx';
import { SkipLink } from './SkipLink.tsx';
import { SystemAlertsBanner } from './SystemAlertsBanner.tsx';
import { ShellContext } from './shell-context.ts';
import { TopBar } from './TopBar.tsx';

/** The floating Forms button loads with its own chunk, after the page (SPEC 2.5). */
const FormsFab = lazy(() => import('../../features/forms/FormsFab.tsx'));

/** Top bar, system alerts, side navigation, breadcrumbs and footer around the page (SPEC 2.5, 2.6, 2.16, 2.17). */
export function AppShell({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  const matches = useMatches();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [navOpen, setNavOpen] = useState(true);
  const [mobileNavOpen, setMobileNavOpen] = useState(false);
  const settingsQuery = useCustomerSettings();
  const settings = settingsQuery.data;
  const menuLoading = Boolean(user) && settingsQuery.isPending;
  useCurrentCustomer();
  useFreshRights();

  const hideNavigation =
    isEmbedded() || isExtensionPath(location.pathname) || matches.some((m) => (m.handle as RouteHandle | undefined)?.hideNavigation);

  const menu = useMemo(
    () =>
      user && settings
        ? visibleMenu(settings.menu, { roles: user.userRole, permissions: permissionsOf(user), hasScreen: (to) => mayOpen(to, user) })
        : [],
    [user, settings],
  );
  const shell = useMemo(() => ({ menu, settings, menuLoading }), [menu, settings, menuLoading]);

  useEffect(() => {
    rememberQuery(location.pathname, location.search);
  }, [location.pathname, location.search]);

  // After a navigation, start reading (and tabbing) at the page, not at the top bar.
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname !== firstPath.current) mainRef.current?.focus({ preventScroll: true });
    firstPath.current = '';
  }, [location.pathname]);

  const showNav = !hideNavigation && Boolean(user);
  return (
    <ShellContext.Provider value={shell}>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
        {hideNavigation ? null : <SkipLink />}
        {hideNavigation ? null : (
          <TopBar
            user={user}
            settings={settings}
            navOpen={desktop ? navOpen : mobileNavOpen}
            onToggleNav={() => (desktop ? setNavOpen((v) => !v) : setMobileNavOpen((v) => !v))}
          />
        )}
        {user ? <SystemAlertsBanner enabled={Boolean(settings?.showSystemAlert)} /> : null}
        <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
          {showNav ? (
            <SideNav
              items={menu}
              ticketAlias={settings?.aliases?.ticket}
              open={desktop ? navOpen : mobileNavOpen}
              temporary={!desktop}
              onClose={() => setMobileNavOpen(false)}
            />
          ) : null}
          <Box
            component="main"
            id="main-content"
            ref={mainRef}
            tabIndex={-1}
            sx={{
              flex: 1,
              minWidth: 0,
              p: hideNavigation ? { xs: 1, md: 2 } : { xs: 2, md: 3 },
              // room below the end of the page for the floating Forms button, and beside it for the docked tab
              pb: 10,
              'body[data-forms-dock="side"] &': { pr: { xs: '48px', md: '56px' } },
              outline: 'none',
            }}
          >
            {hideNavigation ? null : <AppBreadcrumbs settings={settings} />}
            <Suspense fallback={<PageLoader />}>{children}</Suspense>
          </Box>
        </Box>
        {hideNavigation ? null : <Footer sellerLogo={settings?.sellerLogo} />}
        {user && !hideNavigation ? (
          <Suspense fallback={null}>
            <FormsFab />
          </Suspense>
        ) : null}
      </Box>
    </ShellContext.Provider>
  );
}
