/// <reference lib="webworker" />
/**
 * The service worker (built by vite-plugin-pwa with Workbox): precaches the app shell and the hashed assets of this
 * build, sends page navigations to the network and, when the server cannot be reached (or a proxy answers 502-504),
 * redirects to the precached /offline.html?returnUrl=…, which takes the user back once the server answers.
 * API calls are not intercepted: data always comes from the server, never from a cache.
 * A new build waits until the page asks it to take over (the "new version available" notice).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

/** Paths served by the API, never app pages (web.ts on the server keeps the same list). */
const NOT_PAGES = /^\/(api|iotapp|helpdesk|notification|ifmapp|ws|health|ready|metrics|current-login|logout|app-version)([/?]|$)/;
const OFFLINE_PAGE = '/offline.html';

function offline(url: URL): Response {
  return Response.redirect(`${OFFLINE_PAGE}?returnUrl=${encodeURIComponent(url.pathname + url.search + url.hash)}`, 302);
}

// Registered before the precache route so that a navigation to "/" does not get the cached index.html.
registerRoute(
  new NavigationRoute(
    async ({ request, url }) => {
      try {
        const response = await fetch(request);
        return response.status >= 502 && response.status <= 504 ? offline(url) : response;
      } catch {
        return offline(url);
      }
    },
    // matched against path and query
    { denylist: [NOT_PAGES, /^\/offline\.html([?#]|$)/] },
  ),
);

precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^returnUrl$/] });
cleanupOutdatedCaches();
// The first install controls the open pages at once (so the offline fallback works on the first visit); later
// versions wait for SKIP_WAITING.
clientsClaim();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
