import { appendFileSync, mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import axe from 'axe-core';
import { APP_ROUTES } from '../apps/web/src/app/route-registry.ts';
import { expect, signInThroughForm, test } from './fixtures.ts';

/**
 * WCAG 2.0/2.1/2.2 A and AA, checked by axe-core on every screen of the route registry that needs no object in its
 * address, signed in as the customer administrator (who may open nearly all of them), in the light and the dark
 * theme, once the screen's content has loaded. Screens with an id in their address are covered through the objects
 * the demo has (`OBJECT_PATHS`). Any violation fails the test.
 *
 * One page signs in once and moves from screen to screen inside the app, as a person does (no reload of the bundle
 * per screen). On each screen it checks the theme it is in, switches the theme (as another tab of the app does) and
 * checks again, so each screen loads once for both themes. axe-core runs in the page itself: the Playwright binding
 * would finish every check in a new blank page and load the engine anew each time, ten times the cost.
 */
/** Every violation found, one JSON line each. */
const REPORT = 'test-results/axe-violations.jsonl';
/** Each screen's time to load, to be checked, to switch theme and to be checked again. */
const TIMES = 'test-results/axe-times.jsonl';
mkdirSync('test-results', { recursive: true });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Rules left aside, each with its reason. */
const ALLOWED: Record<string, string> = {};

/** Screens that are not places a signed-in user stays on (sign-in forms, redirects, public links). */
const NOT_SCREENS = new Set([
  '/:role/login',
  '/login',
  '/redirect',
  '/register',
  '/register/request-done',
  '/email-done',
  '/tenant-not-found',
]);

/** Demo objects for the screens with an id in their address. */
const OBJECT_PATHS = ['/devices/1/view', '/assets/view/1', '/tickets/TICKET/1', '/forms/1/view', '/dashboards/1/view'];

const ALL_PATHS = [
  ...APP_ROUTES.map((r) => r.path).filter((p) => !p.includes(':') && !NOT_SCREENS.has(p) && !p.includes('*')),
  ...OBJECT_PATHS,
];
/** AXE_SCREENS=/calendar,/permissions checks only those screens (while putting one right). */
const PATHS = process.env.AXE_SCREENS ? process.env.AXE_SCREENS.split(',') : ALL_PATHS;

/** What a screen shows while it loads: the next page's progress line, skeletons, spinners, busy regions. */
const BUSY = '.sw-progress, .MuiSkeleton-root, .MuiCircularProgress-indeterminate, .MuiLinearProgress-indeterminate, [aria-busy="true"]';

type Theme = 'light' | 'dark';

/** Opens `path` inside the app (the router follows the history, as on Back and Forward). */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits in the page until nothing has shown loading for `quietMs` (live screens refresh, so the network never goes
 * quiet): the page's own changes wake the wait, a timer only ends the quiet spell. False when the screen was still
 * busy after `maxMs`.
 */
function settle(page: Page, quietMs = 150, maxMs = 8_000): Promise<boolean> {
  return page.evaluate(
    ({ busy, quietMs, maxMs }) =>
      new Promise<boolean>((resolve) => {
        let quietTimer: ReturnType<typeof setTimeout> | undefined;
        const finish = (settled: boolean) => {
          observer.disconnect();
          clearTimeout(quietTimer);
          clearTimeout(giveUp);
          resolve(settled);
        };
        const check = () => {
          const loading = !document.querySelector('main') || document.querySelector(busy) !== null;
          if (loading) {
            clearTimeout(quietTimer);
            quietTimer = undefined;
          } else if (quietTimer === undefined) quietTimer = setTimeout(() => finish(true), quietMs);
        };
        const observer = new MutationObserver(check);
        const giveUp = setTimeout(() => finish(false), maxMs);
        // the router renders the next screen on a later turn: the first look waits for one frame
        requestAnimationFrame(() => {
          observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'aria-busy'] });
          check();
        });
      }),
    { busy: BUSY, quietMs, maxMs },
  );
}

/** Switches the app's theme as a change in another tab does, and waits for the page drawn in it. */
async function switchTheme(page: Page, theme: Theme) {
  await page.evaluate(async (mode) => {
    localStorage.setItem('config-theme', mode);
    window.dispatchEvent(new StorageEvent('storage', { key: 'config-theme', newValue: mode }));
    while (document.documentElement.dataset.theme !== mode) await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // colours that pass from one theme to the other are checked once they have arrived
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  }, theme);
}

/**
 * Runs axe-core in the page, asking only for the violations' details (describing every passing node is the bulk of
 * its time). The engine is put into the page once: moving inside the app keeps it. The app has no frames to check.
 */
async function check(page: Page): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    ({ tags, allowed }) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(document, {
          runOnly: { type: 'tag', values: tags },
          rules: Object.fromEntries(allowed.map((rule) => [rule, { enabled: false }])),
          resultTypes: ['violations'],
          iframes: false,
        })
        .then((result) => result.violations),
    { tags: TAGS, allowed: Object.keys(ALLOWED) },
  );
}

test('axe, light and dark theme: every screen', async ({ page }) => {
  test.setTimeout(PATHS.length * 10_000 + 60_000);
  test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 4|Failed to load resource' });
  await signInThroughForm(page, 'customeradmin');
  const found: string[] = [];
  const busy: string[] = [];
  const started = Date.now();
  // a new browser profile starts in the light theme
  let theme: Theme = 'light';
  const scan = async (path: string) => {
    const violations = await check(page);
    for (const v of violations) {
      const targets = v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ');
      found.push(`${path} [${theme}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${targets}`);
      const details = v.nodes.slice(0, 3).map((n) => ({ html: n.html, why: n.failureSummary }));
      appendFileSync(REPORT, `${JSON.stringify({ path, theme, rule: v.id, impact: v.impact, nodes: v.nodes.length, targets, details })}\n`);
    }
  };
  for (const path of PATHS) {
    const t0 = Date.now();
    await open(page, path);
    if (!(await settle(page))) busy.push(path);
    const t1 = Date.now();
    await scan(path);
    const t2 = Date.now();
    theme = theme === 'light' ? 'dark' : 'light';
    await switchTheme(page, theme);
    const t3 = Date.now();
    await scan(path);
    appendFileSync(TIMES, `${JSON.stringify({ path, settle: t1 - t0, scan: t2 - t1, switch: t3 - t2, rescan: Date.now() - t3 })}\n`);
  }
  test.info().annotations.push({
    type: 'axe sweep',
    description: `${PATHS.length} screens, two themes, in ${Math.round((Date.now() - started) / 1000)} s; still loading after 8 s: ${busy.join(', ') || 'none'}`,
  });
  expect(found, 'axe violations').toEqual([]);
});
