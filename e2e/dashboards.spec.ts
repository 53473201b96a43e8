import type { Page } from '@playwright/test';
import { apiSession, expect, test } from './fixtures.ts';

/** Dashboards: the grid editor with every widget kind, folders and breadcrumbs, shared links, chart range → cameras. */
const SLOW = { timeout: 30_000 };
test.describe.configure({ timeout: 150_000 });
// camera tiles of the demo start their stream on demand; a tile that has not yet played may log a media abort
test.beforeEach(() => {
  test.info().annotations.push({ type: 'allow-console-errors', description: 'live-view|net::ERR_ABORTED|live.m3u8' });
});

type Api = Awaited<ReturnType<typeof apiSession>>;
type Widget = Record<string, unknown> & { id: string; kind: string };
type Detail = {
  id: number;
  name: string;
  widgets: Widget[];
  layouts: { lg: Array<{ i: string; x: number; y: number; w: number; h: number }> };
};

async function findDashboard(api: Api, search: string): Promise<Detail> {
  const list = await (await api.get(`/iotapp/dashboards/?search=${encodeURIComponent(search)}`)).json();
  const id = list.contents[0]?.id as number;
  expect(id, `demo dashboard ${search}`).toBeTruthy();
  return (await api.get(`/iotapp/dashboards/${id}/`)).json();
}

/** Widgets of every kind, from the demo estate's devices, cameras, forms and the demo component. */
async function everyKind(api: Api): Promise<{ widgets: Widget[]; gensetId: number; cameraId: number }> {
  const energy = await findDashboard(api, 'Energy dashboard');
  const wall = await findDashboard(api, 'Site operations wall');
  const trend = energy.widgets.find((w) => w.kind === 'timeseries') as Widget & { deviceIds: number[] };
  const component = energy.widgets.find((w) => w.kind === 'component') as Widget & { componentId: number };
  const camera = wall.widgets.find((w) => w.kind === 'camera') as Widget & { cameraId: number };
  const forms = await (await api.get('/ifmapp/dynamic-form-templates/')).json();
  const gensetId = trend.deviceIds[0] as number;
  const widgets: Widget[] = [
    {
      id: 'ts',
      kind: 'timeseries',
      title: 'Fuel',
      deviceIds: [gensetId],
      keys: ['fuelLevel'],
      agg: 'none',
      range: { kind: 'relative', lastMs: 86_400_000 },
    },
    { id: 'gauge', kind: 'latest', title: 'Fuel now', deviceId: gensetId, key: 'fuelLevel', display: 'gauge', min: 0, max: 100, unit: '%' },
    { id: 'status', kind: 'latest', title: 'Genset status', deviceId: gensetId, display: 'status' },
    { id: 'summary', kind: 'siteSummary', title: 'Devices' },
    { id: 'alarms', kind: 'alarmList', title: 'Alarms' },
    { id: 'counters', kind: 'ticketCounters', title: 'Ticket counters' },
    { id: 'tickets', kind: 'ticketList', title: 'Ticket list' },
    { id: 'map', kind: 'siteMap', title: 'Map' },
    { id: 'cam', kind: 'camera', title: 'Gate camera', cameraId: camera.cameraId },
    { id: 'forms', kind: 'formResponses', title: 'Responses', formId: forms.contents[0].id },
    { id: 'comp', kind: 'component', title: 'Placed component', componentId: component.componentId },
  ];
  return { widgets, gensetId, cameraId: camera.cameraId };
}

async function createDashboard(api: Api, body: Record<string, unknown>) {
  const res = await api.post('/iotapp/dashboards/', body);
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Detail;
}

/** Scrolls each widget into view (widgets below the fold fetch only then) and waits for its content. */
async function expectWidgetsPainted(page: Page, ids: string[]) {
  for (const id of ids) {
    const widget = page.getByTestId(`widget-${id}`);
    await widget.scrollIntoViewIfNeeded();
    await expect(widget.getByTestId('widget-loading')).toHaveCount(0, SLOW);
    await expect(widget.getByTestId('widget-error')).toHaveCount(0);
  }
}

test('builds a dashboard with every widget kind, rearranges it, saves a version and reloads it', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const { widgets } = await everyKind(api);
  await signIn('customeradmin', { next: '/dashboards' });
  await page.getByTestId('create-dashboard').click(SLOW);
  const name = `Every widget ${Date.now()}`;
  await page.getByTestId('dashboard-name').fill(name);
  // two widgets through the dialog: a site summary and an alarm list
  for (const kind of ['siteSummary', 'alarmList']) {
    await page.getByTestId('add-widget').click();
    await page.getByTestId('widget-kind').click();
    await page.getByTestId(`widget-kind-${kind}`).click();
    await page.getByTestId('widget-title').fill(`UI ${kind}`);
    await page.getByTestId('widget-save').click();
  }
  await expect(page.locator('[data-testid^="grid-item-"]')).toHaveCount(2);
  await page.getByTestId('dashboard-save').click();
  await page.waitForURL(/\/dashboards\/\d+\/edit$/, SLOW);
  const id = Number(/\/dashboards\/(\d+)\/edit/.exec(page.url())?.[1]);

  // the rest of the kinds, saved as the next version
  const saved: Detail = await (await api.get(`/iotapp/dashboards/${id}/`)).json();
  const all = [...saved.widgets, ...widgets];
  const res = await api.put(`/iotapp/dashboards/${id}/`, {
    name,
    folderId: null,
    layouts: { lg: saved.layouts.lg, sm: [], src: null },
    widgets: all,
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(`/dashboards/${id}/view`);
  await expect(page.getByTestId('dashboard-view')).toBeVisible(SLOW);
  await expectWidgetsPainted(
    page,
    all.map((w) => w.id),
  );
  await expect(page.getByTestId('widget-gauge').getByTestId('latest-gauge')).toBeVisible();
  await expect(page.getByTestId('widget-ts').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('widget-summary').getByTestId('site-summary-table')).toBeVisible();
  await expect(page.getByTestId('widget-counters').getByTestId('ticket-counters')).toBeVisible();
  await expect(page.getByTestId('widget-forms').getByTestId('form-responses')).toBeVisible();

  // rearrange: drag the first widget's title to the right half, save, reload
  await page.goto(`/dashboards/${id}/edit`);
  const first = saved.widgets[0] as Widget;
  const handle = page.getByTestId(`widget-${first.id}`).locator('.widget-drag');
  await expect(handle).toBeVisible(SLOW);
  // a page loaded anew opens at its top, not where the view loaded before it was scrolled to
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByTestId(`widget-${first.id}`).getByTestId('widget-loading')).toHaveCount(0, SLOW);
  const item = page.getByTestId(`grid-item-${first.id}`);
  const startStyle = await item.getAttribute('style');
  const box = (await handle.boundingBox()) as { x: number; y: number; width: number; height: number };
  const grid = (await page.getByTestId('dashboard-grid').boundingBox()) as { x: number; width: number };
  await handle.hover({ position: { x: 20, y: box.height / 2 } });
  await page.mouse.down();
  await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(grid.x + grid.width * 0.75, box.y + box.height / 2, { steps: 20 });
  await page.mouse.up();
  await expect(item).not.toHaveAttribute('style', startStyle ?? '');
  await page.getByTestId('dashboard-save').click();
  await expect(page.getByText('Successfully Updated')).toBeVisible(SLOW);
  const after: Detail = await (await api.get(`/iotapp/dashboards/${id}/`)).json();
  const before = saved.layouts.lg.find((item) => item.i === first.id);
  const moved = after.layouts.lg.find((item) => item.i === first.id);
  expect(moved?.x).toBeGreaterThan(before?.x ?? 0);
  await page.reload();
  await expect(page.getByTestId(`widget-${first.id}`)).toBeVisible(SLOW);

  // the versions panel lists the saves and restores the first one
  await page.getByTestId('open-versions').click();
  await expect(page.getByTestId('versions-panel').getByTestId('version-1')).toBeVisible(SLOW);
  await page.getByTestId('restore-1').click();
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(page.getByText('Successfully Restored')).toBeVisible(SLOW);
  await expect(page.locator('[data-testid^="grid-item-"]')).toHaveCount(2, SLOW);
  await api.dispose();
});

test('folders: navigation, breadcrumbs along the folder path, reorder and delete with confirmation', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const stamp = Date.now();
  const outer = await (await api.post('/iotapp/dashboards/folders/', { name: `Plants ${stamp}` })).json();
  const inner = await (await api.post('/iotapp/dashboards/folders/', { name: `North ${stamp}`, parentId: outer.id })).json();
  const a = await createDashboard(api, { name: `Pumps ${stamp}`, folderId: inner.id, config: { titleAsBreadCrumb: true } });
  await createDashboard(api, { name: `Valves ${stamp}`, folderId: inner.id });

  await signIn('customeradmin', { next: '/dashboards' });
  await page.getByTestId(`folder-${outer.id}`).getByRole('link').click(SLOW);
  await expect(page).toHaveURL(new RegExp(`/folder/${outer.id}$`));
  await expect(page.getByTestId('breadcrumbs')).toContainText(`Home`);
  await expect(page.getByTestId('breadcrumbs')).toContainText(`Plants ${stamp}`);
  await page.getByTestId(`folder-${inner.id}`).getByRole('link').click();
  await expect(page.getByTestId('breadcrumbs')).toContainText(`Plants ${stamp}`);
  await expect(page.getByTestId('breadcrumbs')).toContainText(`North ${stamp}`);

  // reorder: Pumps moves below Valves
  const rows = page.locator(
    '[data-testid^="dashboard-"]:not([data-testid*="-down"]):not([data-testid*="-move"]):not([data-testid*="-delete"])',
  );
  await expect(rows.first()).toContainText(`Pumps ${stamp}`);
  await page.getByTestId(`dashboard-${a.id}-down`).click();
  await expect(rows.first()).toContainText(`Valves ${stamp}`, SLOW);

  // titleAsBreadCrumb: the dashboard's name stands in for the last folder
  await page.getByRole('link', { name: `Pumps ${stamp}`, exact: true }).click();
  await expect(page.getByTestId('dashboard-view')).toBeVisible(SLOW);
  const crumbs = page.getByTestId('breadcrumbs');
  await expect(crumbs).toContainText(`Plants ${stamp}`);
  await expect(crumbs).toContainText(`Pumps ${stamp}`);
  await crumbs.getByRole('link', { name: `Plants ${stamp}` }).click();
  await expect(page).toHaveURL(new RegExp(`/folder/${outer.id}$`));

  // delete asks first
  await page.getByTestId(`folder-${inner.id}`).getByRole('link').click();
  await page.getByTestId(`dashboard-${a.id}-delete`).click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(page.getByTestId(`dashboard-${a.id}`)).toHaveCount(0, SLOW);
  await api.dispose();
});

test('a shared link opens without a session and inside a frame; tampered and revoked links are refused', async ({ browser, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const { widgets, cameraId } = await everyKind(api);
  const shared = await createDashboard(api, {
    name: `Shared ${Date.now()}`,
    config: { type: 'ANALYTICS' },
    widgets: widgets.filter((w) => ['summary', 'counters', 'ts', 'cam'].includes(w.id)),
  });
  const res = await api.post('/iotapp/analytics-links/', {
    dashboardId: shared.id,
    label: 'Board pack',
    expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    rls_conditions: [],
  });
  expect(res.status(), await res.text()).toBe(201);
  const link = await res.json();
  expect(link.path).toMatch(new RegExp(`^/analytics-dashboard/${shared.id}/`));

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(link.path);
  await expect(page.getByTestId('shared-dashboard')).toBeVisible(SLOW);
  await expect(page.getByTestId('side-nav')).toHaveCount(0);
  await expectWidgetsPainted(page, ['summary', 'counters', 'ts', 'cam']);
  await expect(page.getByText('Board pack')).toBeVisible();
  // the camera tile plays live through the link (the demo cameras are simulated sources started on demand)
  const video = page.getByTestId(`shared-video-${cameraId}`);
  await video.scrollIntoViewIfNeeded();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 2 && !v.paused ? v.currentTime : 0)), { timeout: 60_000 })
    .toBeGreaterThan(0);
  const sources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  expect(sources.some((u) => u.includes(`/iotapp/analytics-dashboard/${shared.id}/cameras/cam/`))).toBe(true);
  expect(sources.some((u) => u.includes('/api/cameras/'))).toBe(false);
  // the link's token travels in a header, never in a URL
  expect(sources.some((u) => u.includes((link.path as string).split('/').pop() as string))).toBe(false);
  expect(await page.content()).not.toMatch(/rtsp:/);

  // inside a frame of a page of the same origin (frame-ancestors 'self')
  await page.route('**/frame-host.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<iframe id="f" src="${link.path}" style="width:1000px;height:800px"></iframe>` }),
  );
  await page.goto('/frame-host.html');
  const frame = page.frameLocator('#f');
  await expect(frame.getByTestId('shared-dashboard')).toBeVisible(SLOW);
  await expect(frame.getByTestId('top-bar')).toHaveCount(0);

  // a changed character in the signed payload
  const token = link.path.split('/').pop() as string;
  const mid = Math.floor(token.length / 2);
  const tampered = `${token.slice(0, mid)}${token[mid] === 'A' ? 'B' : 'A'}${token.slice(mid + 1)}`;
  await page.goto(`/analytics-dashboard/${shared.id}/${tampered}`);
  await expect(page.getByTestId('link-refused')).toContainText('This link is not valid', SLOW);

  // revoked
  expect((await api.post(`/iotapp/analytics-links/${link.id}/revoke/`)).status()).toBe(200);
  await page.goto(link.path);
  await expect(page.getByTestId('link-refused')).toContainText('This link has been revoked', SLOW);
  await context.close();
  await api.dispose();
});

test('selecting a range on a chart moves the camera tile to playback; Back to live returns', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const { widgets, cameraId } = await everyKind(api);
  const board = await createDashboard(api, {
    name: `Range ${Date.now()}`,
    widgets: widgets.filter((w) => ['ts', 'cam', 'tickets'].includes(w.id)),
    layouts: {
      lg: [
        { i: 'ts', x: 0, y: 0, w: 8, h: 7 },
        { i: 'cam', x: 8, y: 0, w: 4, h: 7 },
        { i: 'tickets', x: 0, y: 7, w: 12, h: 6 },
      ],
      sm: [],
    },
  });
  await signIn('customeradmin', { next: `/dashboards/${board.id}/view` });
  const tile = page.getByTestId(`dashboard-camera-${cameraId}`);
  await expect(tile).toHaveAttribute('data-mode', 'live', SLOW);
  const over = page.getByTestId('widget-ts').locator('.u-over');
  await expect(over).toBeVisible(SLOW);
  const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByTestId('range-banner')).toBeVisible();
  await expect(tile).toHaveAttribute('data-mode', 'playback');
  await expect(page.getByTestId(`recording-${cameraId}`)).toBeVisible();
  await page.getByTestId('back-to-live').click();
  await expect(tile).toHaveAttribute('data-mode', 'live');
  await expect(page.getByTestId('range-banner')).toHaveCount(0);
  await api.dispose();
});

test('components: create, edit and view one, place it on a dashboard and see it there', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const stamp = Date.now();
  await signIn('customeradmin', { next: '/dashboards?tab=components' });
  await page.getByTestId('create-component').click(SLOW);
  await expect(page).toHaveURL(/\/dashboards\/component\/create$/);
  // the widget dialog opens first: a site summary
  await expect(page.getByTestId('widget-dialog')).toBeVisible();
  await page.getByTestId('widget-kind').click();
  await page.getByTestId('widget-kind-siteSummary').click();
  await page.getByTestId('widget-title').fill('Devices by type');
  await page.getByTestId('widget-save').click();
  await expect(page.getByTestId('widget-dialog')).toHaveCount(0);
  // a name is required
  await page.getByTestId('component-save').click();
  await expect(page.getByTestId('component-editor').getByRole('alert')).toBeVisible();
  const name = `Device mix ${stamp}`;
  await page.getByTestId('component-name').fill(name);
  await page.getByTestId('component-save').click();
  await page.waitForURL(/\/dashboards\/component\/\d+\/view$/, SLOW);
  const componentId = Number(/\/component\/(\d+)\/view/.exec(page.url())?.[1]);
  await expect(page.getByTestId('component-view')).toContainText(name);
  await expect(page.getByTestId('component-view')).toContainText('Site summary · on 0 dashboards');
  await expect(page.getByTestId('component-view').getByTestId('site-summary-table')).toBeVisible(SLOW);

  // edit: a new name and title, back on the view page
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboards/component/${componentId}/edit$`));
  await expect(page.getByTestId('component-name')).toHaveValue(name);
  const renamed = `${name} (fleet)`;
  await page.getByTestId('component-name').fill(renamed);
  await page.getByTestId('component-configure').click();
  await page.getByTestId('widget-title').fill('Fleet by type');
  await page.getByTestId('widget-save').click();
  await page.getByTestId('component-save').click();
  await page.waitForURL(new RegExp(`/dashboards/component/${componentId}/view$`), SLOW);
  await expect(page.getByTestId('component-view')).toContainText(renamed);
  await expect(page.getByTestId('component-view')).toContainText('Fleet by type');

  // placed on a new dashboard through the widget dialog
  await page.goto('/dashboards/create');
  await page.getByTestId('dashboard-name').fill(`With component ${stamp}`);
  await page.getByTestId('add-widget').click();
  await page.getByTestId('widget-kind').click();
  await page.getByTestId('widget-kind-component').click();
  await page.getByTestId('widget-component').click();
  await page.getByRole('option', { name: renamed, exact: true }).click();
  await page.getByTestId('widget-save').click();
  await page.getByTestId('dashboard-save').click();
  await page.waitForURL(/\/dashboards\/\d+\/edit$/, SLOW);
  const dashboardId = Number(/\/dashboards\/(\d+)\/edit/.exec(page.url())?.[1]);
  const saved: Detail = await (await api.get(`/iotapp/dashboards/${dashboardId}/`)).json();
  const placed = saved.widgets.find((w) => w.kind === 'component') as Widget & { componentId: number };
  expect(placed.componentId).toBe(componentId);
  await page.goto(`/dashboards/${dashboardId}/view`);
  await expectWidgetsPainted(page, [placed.id]);
  await expect(page.getByTestId(`widget-${placed.id}`).getByTestId('site-summary-table')).toBeVisible();
  await page.goto(`/dashboards/component/${componentId}/view`);
  await expect(page.getByTestId('component-view')).toContainText('Site summary · on 1 dashboards', SLOW);
  await api.dispose();
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the small-screen layout at 390 px: one column, nothing wider than the screen', async ({ page, signIn, baseURL }) => {
    const api = await apiSession(baseURL as string, 'customeradmin');
    const energy = await findDashboard(api, 'Energy dashboard');
    await signIn('customeradmin', { next: `/dashboards/${energy.id}/view` });
    await expect(page.getByTestId('dashboard-grid')).toHaveAttribute('data-breakpoint', 'sm', SLOW);
    await expectWidgetsPainted(
      page,
      energy.widgets.slice(0, 3).map((w) => w.id),
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.goto('/dashboards');
    await expect(page.getByTestId('directory-list')).toBeVisible(SLOW);
    const listOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(listOverflow).toBeLessThanOrEqual(1);
    await api.dispose();
  });
});

/** How far the ticket counters donut (its drawn canvas) reaches past any edge of its widget. */
async function donutOverflow(page: Page) {
  const widget = page.getByTestId('widget-counters');
  const donut = widget.getByTestId('ticket-pie').locator('canvas').first();
  const outer = await widget.boundingBox();
  const inner = await donut.boundingBox();
  if (!outer || !inner || inner.height < 40) return Number.POSITIVE_INFINITY;
  return Math.max(
    outer.y - inner.y,
    outer.x - inner.x,
    inner.y + inner.height - (outer.y + outer.height),
    inner.x + inner.width - (outer.x + outer.width),
  );
}

test('the ticket counters donut stays inside its widget at the default size: editor, view and shared link', async ({
  page,
  signIn,
  browser,
  baseURL,
}) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const dashboard = await createDashboard(api, {
    name: `Counters ${Date.now()}`,
    config: { type: 'ANALYTICS' },
    widgets: [{ id: 'counters', kind: 'ticketCounters', title: 'Ticket counters' }],
  });
  const res = await api.post('/iotapp/analytics-links/', {
    dashboardId: dashboard.id,
    label: 'Counters link',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    rls_conditions: [],
  });
  expect(res.status(), await res.text()).toBe(201);
  const link = (await res.json()) as { path: string };
  await api.dispose();
  // a width at which the donut used to wrap under the counters and reach past the widget's bottom
  const viewport = { width: 1000, height: 900 };
  await page.setViewportSize(viewport);
  await signIn('customeradmin', { next: `/dashboards/${dashboard.id}/edit` });
  // (the editor's grid settles its sizes first)
  await expect.poll(() => donutOverflow(page), { message: 'editor', ...SLOW }).toBeLessThanOrEqual(0.5);
  await page.goto(`/dashboards/${dashboard.id}/view`);
  await expect.poll(() => donutOverflow(page), { message: 'view', ...SLOW }).toBeLessThanOrEqual(0.5);

  const context = await browser.newContext({ baseURL, viewport });
  const shared = await context.newPage();
  await shared.goto(link.path);
  await expect(shared.getByTestId('shared-dashboard')).toBeVisible(SLOW);
  await expect.poll(() => donutOverflow(shared), { message: 'shared link', ...SLOW }).toBeLessThanOrEqual(0.5);
  await context.close();
});
