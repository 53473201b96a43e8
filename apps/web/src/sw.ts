/// <reference lib="webworker" />
/**
 * The service worker (built by vite-plugin-pwa with Workbox): precaches the app shell and the hashed assets of this
 * build, sends page navigations to the network and, when the server cannot be reached (or a proxy answers 502-504),
 * redirects to the precached /offline.html?returnUrl=…&reason=…, which takes the user back once the server answers.
 * The reason tells the page what to say: `unreachable` (the network is up, the server did not answer), the status a
 * proxy answered with, or `offline` (the browser has no network and the app is not precached yet). When the phone
 * itself has no connection, a navigation gets the precached app: the field screens work from what the app kept on
 * the phone (its offline copies and outbox, in IndexedDB) and send the outbox when the connection returns.
 * API calls are not intercepted: the app keeps its own copies of the reads it needs offline.
 * A new build waits until the page asks it to take over (the "new version available" notice).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

/** Paths served by the API, never app pages (web.ts on the server keeps the same list). */
const NOT_PAGES = /^\/(api|iotapp|helpdesk|notification|ifmapp|ws|health|ready|metrics|current-login|logout|app-version)([/?]|$)/;
const OFFLINE_PAGE = '/offline.html';

function offline(url: URL, reason: string): Response {
  const returnUrl = encodeURIComponent(url.pathname + url.search + url.hash);
  return Response.redirect(`${OFFLINE_PAGE}?returnUrl=${returnUrl}&reason=${reason}`, 302);
}

// Registered before the precache route so that a navigation to "/" does not get the cached index.html.
registerRoute(
  new NavigationRoute(
    async ({ request, url }) => {
      try {
        const response = await fetch(request);
        return response.status >= 502 && response.status <= 504 ? offline(url, String(response.status)) : response;
      } catch {
        if (!self.navigator.onLine) return (await matchPrecache('/index.html')) ?? offline(url, 'offline');
        return offline(url, 'unreachable');
      }
    },
    // matched against path and query
    { denylist: [NOT_PAGES, /^\/offline\.html([?#]|$)/] },
  ),
);

precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^returnUrl$/, /^reason$/] });
cleanupOutdatedCaches();
// The first install controls the open pages at once (so the offline fallback works on the first visit); later
// versions wait for SKIP_WAITING.
clientsClaim();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Background Sync: the connection is back; an open page sends its outbox (it holds the session the sends need).
self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag?: string };
  if (sync.tag !== 'sitewatch-outbox') return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((pages) => {
      for (const page of pages) page.postMessage({ type: 'OUTBOX_SYNC' });
    }),
  );
});
