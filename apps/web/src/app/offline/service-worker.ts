import { Workbox } from 'workbox-window';

/** How often an open tab asks whether a new version was deployed (also when the tab becomes visible again). */
const UPDATE_CHECK_MS = 30 * 60_000;

let registered = false;

/**
 * Registers /sw.js (production builds only) and calls `onUpdate` when a new version is installed and waiting;
 * the function it receives activates that version and reloads the page.
 */
export function registerServiceWorker(onUpdate: (apply: () => void) => void): void {
  if (registered || import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registered = true;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () =>
    onUpdate(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    }),
  );
  void wb.register().catch(() => undefined);
  const check = () => void wb.update().catch(() => undefined);
  setInterval(check, UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
}
