import { appendFileSync, mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { APP_ROUTES } from '../apps/web/src/app/route-registry.ts';
import { expect, signInThroughForm, test } from './fixtures.ts';

/**
 * WCAG 2.0/2.1/2.2 A and AA, checked by axe-core on every screen of the route registry that needs no object in its
 * address, signed in as the customer administrator (who may open nearly all of them), in the light and the dark
 * theme, once the screen's content has loaded. Screens with an id in their address are covered through the objects
 * the demo has (`OBJECT_PATHS`). Any violation fails the test.
 *
 * One page per theme signs in once and moves from screen to screen inside the app, as a person does (no reload of
 * the bundle per screen): the two themes run side by side on two workers in a few minutes.
 */
/** Every violation found, one JSON line each (test-results/axe-violations.jsonl), and each screen's time to settle. */
const REPORT = 'test-results/axe-violations.jsonl';
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

/** Opens `path` inside the app (the router follows the history, as on Back and Forward). */
async function open(page: Page, path: string) {
  await page.evaluate(async (to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    // the router's next render, where the progress line or the new screen's loading state shows
    await new Promise((resolve) => setTimeout(resolve, 50));
  }, path);
}

/**
 * Waits in the page until nothing has shown loading for `quietMs` (live screens refresh, so the network never goes
 * quiet); false when the screen was still busy after `maxMs`.
 */
function settle(page: Page, quietMs = 300, maxMs = 8_000): Promise<boolean> {
  return page.evaluate(
    async ({ busy, quietMs, maxMs }) => {
      const start = performance.now();
      let quietSince = start;
      while (performance.now() - start < maxMs) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!document.querySelector('main') || document.querySelector(busy)) quietSince = performance.now();
        else if (performance.now() - quietSince >= quietMs) return true;
      }
      return false;
    },
    { busy: BUSY, quietMs, maxMs },
  );
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe, ${theme} theme: every screen`, async ({ page }) => {
    // Run with AXE=1: it joins the default run once no screen shows a violation any more.
    test.skip(!process.env.AXE, 'the full axe sweep runs with AXE=1');
    test.setTimeout(PATHS.length * 15_000 + 60_000);
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 4|Failed to load resource' });
    await page.addInitScript((mode) => localStorage.setItem('config-theme', mode), theme);
    await signInThroughForm(page, 'customeradmin');
    const found: string[] = [];
    const busy: string[] = [];
    const started = Date.now();
    for (const path of PATHS) {
      await open(page, path);
      if (!(await settle(page))) busy.push(path);
      // Only the violations' details: axe skips describing every passing node, the bulk of its time. (options()
      // replaces what withTags() set, so it comes first.)
      const result = await new AxeBuilder({ page })
        .options({ resultTypes: ['violations'] })
        .withTags(TAGS)
        .disableRules(Object.keys(ALLOWED))
        .analyze();
      for (const v of result.violations) {
        const targets = v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ');
        found.push(`${path} [${theme}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${targets}`);
        appendFileSync(REPORT, `${JSON.stringify({ path, theme, rule: v.id, impact: v.impact, nodes: v.nodes.length, targets })}\n`);
      }
    }
    test.info().annotations.push({
      type: 'axe sweep',
      description: `${PATHS.length} screens in ${Math.round((Date.now() - started) / 1000)} s; still loading after 8 s: ${busy.join(', ') || 'none'}`,
    });
    expect(found, 'axe violations').toEqual([]);
  });
}
