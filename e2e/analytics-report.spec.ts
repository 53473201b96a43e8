import type { Browser, Page } from '@playwright/test';
import { apiSession, expect, test } from './fixtures.ts';

/** /analytics-report: create a shared link, see it with its label and views, open it without a session, revoke it. */
const SLOW = { timeout: 30_000 };
test.describe.configure({ timeout: 150_000 });

type Api = Awaited<ReturnType<typeof apiSession>>;

/** An analytics dashboard of the demo estate's site summary and ticket counters. */
async function analyticsDashboard(api: Api, name: string) {
  const res = await api.post('/iotapp/dashboards/', {
    name,
    config: { type: 'ANALYTICS' },
    widgets: [
      { id: 'summary', kind: 'siteSummary', title: 'Devices' },
      { id: 'counters', kind: 'ticketCounters', title: 'Tickets' },
    ],
    layouts: {
      lg: [
        { i: 'summary', x: 0, y: 0, w: 6, h: 6 },
        { i: 'counters', x: 6, y: 0, w: 6, h: 6 },
      ],
      sm: [],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; name: string };
}

/** Opens a link in a context of its own (no session, no cookies of the signed-in page). */
async function openFresh(browser: Browser, baseURL: string, path: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

async function expectPainted(page: Page, ids: string[]) {
  for (const id of ids) {
    const widget = page.getByTestId(`widget-${id}`);
    await widget.scrollIntoViewIfNeeded();
    await expect(widget.getByTestId('widget-loading')).toHaveCount(0, SLOW);
    await expect(widget.getByTestId('widget-error')).toHaveCount(0);
  }
}

const overflowOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('creates a shared link, lists it with its label and views, opens it without a session, revokes it', async ({
  page,
  signIn,
  browser,
  baseURL,
}) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const stamp = Date.now();
  const dashboard = await analyticsDashboard(api, `Board pack ${stamp}`);
  const label = `Investors ${stamp}`;

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn('customeradmin', { next: '/analytics-report' });
  await expect(page.getByTestId('analytics-report')).toBeVisible(SLOW);
  await page.getByTestId('create-link').click();
  const dialog = page.getByTestId('link-dialog');
  await expect(dialog).toBeVisible();
  // a link needs a dashboard: the form says so before anything is sent
  await page.getByTestId('link-label').fill(label);
  await page.getByTestId('link-create').click();
  await expect(dialog.getByRole('alert')).toContainText('Choose a dashboard');
  await page.getByTestId('link-dashboard').click();
  await page.getByRole('option', { name: dashboard.name, exact: true }).click();
  await page.getByTestId('link-create').click();
  await expect(dialog).toHaveCount(0, SLOW);
  await expect(page.getByText('Successfully Created')).toBeVisible();

  // the new link is copied, and listed with its label, its dashboard and no views yet
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`/analytics-dashboard/${dashboard.id}/`));
  const path = new URL(copied).pathname;
  const row = page.getByTestId('links-table').getByRole('row').filter({ hasText: label });
  await expect(row).toContainText(dashboard.name);
  await expect(row).toContainText('active');
  await expect(row.getByTestId('link-views')).toHaveText('0');
  const reported = page.getByTestId('report-table').getByRole('row').filter({ hasText: label });
  await expect(reported).toContainText(dashboard.name);

  // opened in a fresh browser: the dashboard's data, the label, no navigation bars
  const fresh = await openFresh(browser, baseURL as string, path);
  await expect(fresh.page.getByTestId('shared-dashboard')).toBeVisible(SLOW);
  await expect(fresh.page.getByText(label)).toBeVisible();
  await expect(fresh.page.getByTestId('side-nav')).toHaveCount(0);
  await expectPainted(fresh.page, ['summary', 'counters']);
  await expect(fresh.page.getByTestId('widget-summary').getByTestId('site-summary-table')).toBeVisible();
  await expect(fresh.page.getByTestId('widget-counters').getByTestId('ticket-counters')).toBeVisible();
  await fresh.context.close();

  // the view is counted
  await page.reload();
  await expect(row.getByTestId('link-views')).toHaveText('1', SLOW);
  await expect(reported).toContainText('1');

  // revoked after a confirmation: listed as revoked, refused to a fresh browser with a clear message
  await row.getByTestId('link-revoke').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(label);
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(page.getByText('Link revoked')).toBeVisible(SLOW);
  await expect(row).toContainText('revoked');
  await expect(row.getByTestId('link-revoke')).toHaveCount(0);
  await expect(page.getByTestId('report-table').getByRole('row').filter({ hasText: label })).toHaveCount(0);
  const refused = await openFresh(browser, baseURL as string, path);
  await expect(refused.page.getByTestId('link-refused')).toContainText('This link has been revoked', SLOW);
  await expect(refused.page.getByTestId('shared-dashboard')).toHaveCount(0);
  await expect(refused.page.getByText(dashboard.name)).toHaveCount(0);
  await refused.context.close();
  await api.dispose();
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the report, the link dialog and a shared link at 390 px: nothing wider than the screen', async ({
    page,
    signIn,
    browser,
    baseURL,
  }) => {
    const api = await apiSession(baseURL as string, 'customeradmin');
    const stamp = Date.now();
    const dashboard = await analyticsDashboard(api, `Phone pack ${stamp}`);
    const res = await api.post('/iotapp/analytics-links/', {
      dashboardId: dashboard.id,
      label: `Phone ${stamp}`,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      rls_conditions: [],
    });
    expect(res.status(), await res.text()).toBe(201);
    const link = await res.json();

    await signIn('customeradmin', { next: '/analytics-report' });
    await expect(page.getByTestId('links-table')).toBeVisible(SLOW);
    await expect(
      page
        .getByTestId('links-table')
        .getByRole('row')
        .filter({ hasText: `Phone ${stamp}` }),
    ).toBeVisible();
    expect(await overflowOf(page)).toBeLessThanOrEqual(1);
    await page.getByTestId('create-link').click();
    await expect(page.getByTestId('link-dialog')).toBeVisible();
    await expect(page.getByTestId('link-create')).toBeInViewport();
    expect(await overflowOf(page)).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('link-dialog')).toHaveCount(0);

    const fresh = await openFresh(browser, baseURL as string, link.path, { width: 390, height: 844 });
    await expect(fresh.page.getByTestId('shared-dashboard')).toBeVisible(SLOW);
    await expectPainted(fresh.page, ['summary', 'counters']);
    expect(await overflowOf(fresh.page)).toBeLessThanOrEqual(1);
    await fresh.context.close();
    await api.dispose();
  });
});
