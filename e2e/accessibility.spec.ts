import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type axe from 'axe-core';
import { APP_ROUTES } from '../apps/web/src/app/route-registry.ts';
import { expect, signInThroughForm, switchTheme, type Theme, test, withAxe } from './fixtures.ts';
import { harvestRouteLinks, routePlan, routeSamples } from './route-samples.ts';

/**
 * WCAG 2.0/2.1/2.2 A and AA, checked by axe-core on every screen of the route registry, signed in as the customer
 * administrator (who may open nearly all of them), in the light and the dark theme, once the screen's content has
 * loaded. Screens with parameters in their address are opened at an address from the links of the screens seen before
 * or from the demo data (an unknown id where the demo has none, whose "not found" state is a screen too). The screens
 * the customer administrator is sent away from are checked as the system administrator. Any violation fails the test,
 * and so does any route of the registry left unchecked without a reason in `NOT_SCREENS`.
 *
 * One page per user signs in once and moves from screen to screen inside the app, as a person does (no reload of the
 * bundle per screen). On each screen it checks the theme it is in with every rule, switches the theme (as another tab
 * of the app does) and checks the colours again, so each screen loads once for both themes. The theme alternates from
 * screen to screen: each theme gets every rule on half of the screens and the colour rules on all of them. axe-core
 * runs in the page itself: the Playwright binding would finish every check in a new blank page and load the engine
 * anew each time, ten times the cost.
 */
/** A file of this run's output folder (emptied when a run starts). */
function runFile(name: string) {
  const folder = test.info().project.outputDir;
  mkdirSync(folder, { recursive: true });
  return join(folder, name);
}
/** Every violation found, one JSON line each. */
const REPORT = () => runFile('axe-violations.jsonl');
/** Each screen's time to load, to be checked, to switch theme and to be checked again. */
const TIMES = () => runFile('axe-times.jsonl');

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Rules left aside, each with its reason. */
const ALLOWED: Record<string, string> = {};

/** Routes of the registry that are not places a signed-in user stays on, and why. */
const NOT_SCREENS: Record<string, string> = {
  '/:role/login': 'sign-in form: sends a signed-in user home',
  '/register': 'registration form: sends a signed-in user home',
  '/register/request-done': 'shown after a registration request, signed out',
  '/email-done': 'shown after an e-mail confirmation link, signed out',
  '/tenant-not-found': 'shown on an address no tenant has, signed out',
  '/login': 'only redirects to the sign-in form',
  '/redirect': 'only redirects to the screen a link names',
  '/dashboards/:id/view/': 'the dashboard screen of /dashboards/:id/view under a second address',
};

/** AXE_SCREENS=/calendar,/permissions checks only those addresses, as the customer administrator (while putting one right). */
const ONLY = process.env.AXE_SCREENS?.split(',');

/** What a screen shows while it loads: the next page's progress line, skeletons, spinners, busy regions. */
const BUSY = '.sw-progress, .MuiSkeleton-root, .MuiCircularProgress-indeterminate, .MuiLinearProgress-indeterminate, [aria-busy="true"]';

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
          // a placeholder out of sight waits to be scrolled to (dashboard widgets load when they come into view)
          const inSight = (el: Element) => {
            const box = el.getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
          };
          const loading = !document.querySelector('main') || [...document.querySelectorAll(busy)].some(inSight);
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

/**
 * Runs axe-core in the page, asking only for the violations' details (describing every passing node is the bulk of
 * its time). The engine is put into the page once: moving inside the app keeps it. The app has no frames to check.
 * `colours` runs only the rules about colour (axe's category `cat.color`: contrast, links told apart from text): a
 * theme changes the colours of a screen and nothing else, so the check after a switch needs no more.
 */
async function check(page: Page, scope: 'all' | 'colours'): Promise<axe.Result[]> {
  await withAxe(page);
  return page.evaluate(
    ({ tags, allowed, scope }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      const rules = engine
        .getRules(tags)
        .filter((rule) => !allowed.includes(rule.ruleId) && (scope === 'all' || rule.tags.includes('cat.color')))
        .map((rule) => rule.ruleId);
      return engine
        .run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'], iframes: false })
        .then((result) => result.violations);
    },
    { tags: TAGS, allowed: Object.keys(ALLOWED), scope },
  );
}

/**
 * Checks screen after screen in `page` in both themes (the page keeps the theme it ends in). Calls `visit` with each
 * route's address, skips a screen the user is sent away from to the access-denied one and returns those routes.
 */
async function sweepScreens(
  page: Page,
  user: string,
  screens: Array<[route: string, to: string]>,
  found: string[],
  busy: string[],
  afterEach?: () => Promise<void>,
) {
  const denied: string[] = [];
  let theme: Theme = (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark' ? 'dark' : 'light';
  const scan = async (route: string, to: string, scope: 'all' | 'colours') => {
    for (const v of await check(page, scope)) {
      const targets = v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ');
      found.push(`${to} [${theme}, ${user}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${targets}`);
      const details = v.nodes.slice(0, 3).map((n) => ({ html: n.html, why: n.failureSummary }));
      appendFileSync(
        REPORT(),
        `${JSON.stringify({ route, to, user, theme, rule: v.id, impact: v.impact, nodes: v.nodes.length, targets, details })}\n`,
      );
    }
  };
  for (const [route, to] of screens) {
    const t0 = Date.now();
    await open(page, to);
    if (!(await settle(page))) busy.push(to);
    if (route !== '/access-denied' && new URL(page.url()).pathname.replace(/\/$/, '') === '/access-denied') {
      denied.push(route);
      continue;
    }
    const t1 = Date.now();
    await scan(route, to, 'all');
    const t2 = Date.now();
    theme = theme === 'light' ? 'dark' : 'light';
    await switchTheme(page, theme);
    const t3 = Date.now();
    await scan(route, to, 'colours');
    appendFileSync(
      TIMES(),
      `${JSON.stringify({ route, to, user, settle: t1 - t0, scan: t2 - t1, switch: t3 - t2, rescan: Date.now() - t3 })}\n`,
    );
    await afterEach?.();
  }
  return denied;
}

test('axe, light and dark theme: every screen', async ({ page, browser, baseURL }) => {
  const { signedIn } = routePlan(Object.keys(NOT_SCREENS));
  test.setTimeout((ONLY?.length ?? signedIn.plain.length + signedIn.withParams.length) * 10_000 + 60_000);
  // screens opened with an unknown id (no such record in the demo) ask for it and get its "not found"
  test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 4|Failed to load resource' });
  await signInThroughForm(page, 'customeradmin');
  const found: string[] = [];
  const busy: string[] = [];
  const started = Date.now();
  if (ONLY) {
    await sweepScreens(
      page,
      'customeradmin',
      ONLY.map((to) => [to, to]),
      found,
      busy,
    );
    expect(found, 'axe violations').toEqual([]);
    return;
  }
  // the screens without parameters first: their links give the others' addresses
  const links = new Map<string, string>();
  const denied = await sweepScreens(
    page,
    'customeradmin',
    signedIn.plain.map((path) => [path, path]),
    found,
    busy,
    () => harvestRouteLinks(page, signedIn.withParams, links),
  );
  const samples = await routeSamples(baseURL as string);
  const withParams = signedIn.withParams.flatMap(({ path }): Array<[string, string]> => {
    const to = links.get(path) ?? samples[path];
    return to ? [[path, to]] : [];
  });
  denied.push(...(await sweepScreens(page, 'customeradmin', withParams, found, busy)));
  const checked = new Set([...signedIn.plain, ...withParams.map(([path]) => path)].filter((path) => !denied.includes(path)));
  let asSysadmin: string[] = [];
  if (denied.length > 0) {
    // the system administrator's own screens
    const sysadmin = await browser.newPage();
    await signInThroughForm(sysadmin, 'sysadmin');
    const addresses = new Map([...signedIn.plain.map((path): [string, string] => [path, path]), ...withParams]);
    const screens = denied.map((path): [string, string] => [path, addresses.get(path) as string]);
    const deniedAgain = await sweepScreens(sysadmin, 'sysadmin', screens, found, busy);
    asSysadmin = denied.filter((path) => !deniedAgain.includes(path));
    for (const path of asSysadmin) checked.add(path);
    await sysadmin.close();
  }
  const missed = APP_ROUTES.map((r) => r.path).filter((path) => !checked.has(path) && !NOT_SCREENS[path]);
  const summary = `${checked.size} screens (${asSysadmin.length} as the system administrator: ${asSysadmin.join(', ') || 'none'}), two themes, in ${Math.round((Date.now() - started) / 1000)} s; still loading after 8 s: ${busy.join(', ') || 'none'}`;
  test.info().annotations.push({ type: 'axe sweep', description: summary });
  console.log(`axe sweep: ${summary}`);
  expect.soft(found, 'axe violations').toEqual([]);
  expect(missed, 'screens of the route registry this test did not check').toEqual([]);
});
