import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, Outlet, ScrollRestoration, useMatches, useNavigation } from 'react-router';
import type { RouteHandle } from './route-types.ts';
import { CookieConsentBanner } from './shell/CookieConsentBanner.tsx';

/** Network banner and new-version notice (with the service worker's registration), kept out of the login bundle. */
const ConnectivityNotices = lazy(() => import('./offline/ConnectivityNotices.tsx'));

/**
 * Where the scroll position of a page is kept: by history entry, as the router does. The first entry of every page
 * load (an address typed or opened from outside, a reload) has no key of its own, all of them "default": those are kept
 * by their address, so that a page loaded anew never takes the position of another page loaded before it.
 */
const scrollKey = (location: Location) => (location.key === 'default' ? location.pathname + location.search : location.key);

/** Around every page: the document title, a progress line while the next page loads, the cookie banner. */
export function RootShell() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const matches = useMatches();
  const titled = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title);
  const title = (titled?.handle as RouteHandle | undefined)?.title;

  useEffect(() => {
    const appName = t('app.name');
    document.title = title ? `${t(title)} · ${appName}` : appName;
  }, [title, t]);

  return (
    <>
      {navigation.state === 'loading' ? <div className="sw-progress" role="progressbar" aria-label={t('app.loading')} /> : null}
      <Outlet />
      <CookieConsentBanner />
      <Suspense fallback={null}>
        <ConnectivityNotices />
      </Suspense>
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
