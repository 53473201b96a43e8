import { readFile } from 'node:fs/promises';
import { apiSession, expect, test } from './fixtures.ts';

/** The first screen after sign-in loads the device-tree layout's chunks: allow a busy machine time for it. */
const FIRST_PAINT = { timeout: 30_000 };
// Each test builds a site with thirteen devices through the API before it opens the app.
test.describe.configure({ timeout: 120_000 });

/**
 * Sites and devices in the browser: the asset tree (expand, Load More, search, right-click menu), the Device Alarm
 * Settings dialog end to end, the site summary export and the map's markers with the zoom ≤ 4 grouping.
 */

type Api = Awaited<ReturnType<typeof apiSession>>;

/** A site with a router carrying twelve sensors: more than one page (10) of children in the tree. */
async function makeBusySite(api: Api, name: string) {
  // Apart from the other tests' sites, so that the map never clusters them together.
  const spread = () => (Math.random() - 0.5) * 0.6;
  const site = await (
    await api.post('/iotapp/assets/', {
      name,
      address: ['Portugal', 'Lisboa', 'Lisbon'],
      latitude: 38.7223 + spread(),
      longitude: -9.1393 + spread(),
      metadata: { assetCode: name.toUpperCase().replace(/\W+/g, '-') },
    })
  ).json();
  const router = await (await api.post('/iotapp/devices/', { label: 'RTR-01', type: 'ROUTER', assetId: site.id })).json();
  for (let i = 1; i <= 12; i++) {
    const res = await api.post('/iotapp/devices/', { label: `TEMP-${String(i).padStart(2, '0')}`, type: 'SENSOR', parentId: router.id });
    expect(res.status()).toBe(201);
  }
  return { site, router };
}

test('the asset tree expands lazily, loads more, searches and offers its right-click menu', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const name = `Tree Test ${Date.now()}`;
  const { site } = await makeBusySite(api, name);
  const total = (await (await api.get('/iotapp/assets/tree/')).json()).siteCount as number;

  await signIn('customeradmin', { next: '/site-summary/dashboard' });
  const tree = page.getByTestId('asset-tree');
  await expect(tree.getByRole('button', { name: 'Expand Portugal' })).toBeVisible(FIRST_PAINT);
  // Other tests add sites meanwhile: the footer counts at least the sites that existed before.
  await expect(tree.getByTestId('tree-footer')).toHaveText(/^Sites - \d+$/);
  expect(Number((await tree.getByTestId('tree-footer').textContent())?.split(' - ')[1])).toBeGreaterThanOrEqual(total);
  // Address levels first: countries, then regions and cities, then the site.
  await tree.getByRole('button', { name: 'Expand Portugal' }).click();
  await tree.getByRole('button', { name: 'Expand Lisboa' }).click();
  await tree.getByRole('button', { name: 'Expand Lisbon' }).click();
  await tree.getByRole('button', { name: `Expand ${name}` }).click();
  await tree.getByRole('button', { name: 'Expand RTR-01' }).click();
  await expect(tree.getByText('TEMP-10')).toBeVisible();
  await expect(tree.getByText('TEMP-11')).toHaveCount(0);
  await tree.getByTestId('tree-load-more').click();
  await expect(tree.getByText('TEMP-12')).toBeVisible();
  await expect(tree.getByTestId('tree-load-more')).toHaveCount(0);

  // Choosing a node narrows the dashboard to it.
  await tree.getByRole('treeitem').filter({ hasText: name }).getByRole('button', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`assetId=${site.id}`));

  // Search finds the site and its devices; the menu of a site leads to its dashboard.
  await tree.getByTestId('tree-search').fill('Tree Test');
  const result = tree.getByRole('treeitem').filter({ hasText: name });
  await expect(result).toBeVisible({ timeout: 5000 });
  await result.click({ button: 'right' });
  const menu = page.getByTestId('tree-context-menu');
  await expect(menu.getByRole('menuitem', { name: 'Edit Site' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Add Device' })).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Site Dashboard' }).click();
  await expect(page).toHaveURL(new RegExp(`/sitemonitoring\\?assetId=${site.id}`));
  await expect(page.getByRole('heading', { name })).toBeVisible();

  await tree.getByTestId('tree-search').fill('zzz-no-such-site');
  await expect(tree.getByTestId('tree-empty')).toHaveText('No Data Found');
  await api.dispose();
});

test('the Device Alarm Settings dialog puts a router and its children in maintenance with a ticket note', async ({
  page,
  signIn,
  baseURL,
}) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const { router } = await makeBusySite(api, `Alarm Test ${Date.now()}`);

  await signIn('customeradmin', { next: `/devices/${router.id}/view` });
  await page.getByTestId('open-alarm-settings').click(FIRST_PAINT);
  const dialog = page.getByTestId('alarm-settings-dialog');
  await expect(dialog.getByText('Manage Mute, Maintenance, and Disable Alarms')).toBeVisible();
  await expect(dialog.getByText('Mute Device')).toBeVisible();
  await expect(dialog.getByText('Disable Device')).toBeVisible();
  await dialog.getByText('Apply to all child devices').click();
  await dialog.getByTestId('toggle-maintenance').click();

  const confirm = page.getByTestId('alarm-confirm-dialog');
  await expect(confirm.getByText('Are you sure you want to enable Maintenance mode?')).toBeVisible();
  await confirm.getByLabel('Please add a short note about this action:').fill('Quarterly generator service');
  await confirm.getByTestId('alarm-confirm').click();
  // The helpdesk raises the ticket before the call answers.
  await expect(page.getByText('Maintenance mode enabled successfully!')).toBeVisible({ timeout: 30_000 });

  const children = await (await api.get(`/iotapp/devices/compact-list/?parentId=${router.id}&limit=50`)).json();
  expect(children.totalCount).toBe(12);
  for (const child of children.contents as { id: number }[]) {
    const device = await (await api.get(`/iotapp/devices/${child.id}/`)).json();
    expect(device.metadata.maintenance).toBe(true);
  }
  const log = await (await api.get(`/iotapp/devices/${router.id}/alarm-actions/`)).json();
  expect(log.contents[0]).toMatchObject({
    telemetryKey: 'maintenance',
    telemetryValue: true,
    updatedDevices: 13,
    createTicket: true,
    description: 'Quarterly generator service',
  });
  await expect(page.getByTestId('alarm-action-log')).toContainText('Quarterly generator service');
  await api.dispose();
});

test('the site summary exports the current page as SiteSummary.csv', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const name = `Export Test ${Date.now()}`;
  await makeBusySite(api, name);

  await signIn('customeradmin', { next: '/site-summary/dashboard' });
  await expect(page.getByTestId('summary-card').first()).toContainText('Site', FIRST_PAINT);
  await expect(page.getByTestId('summary-card').nth(1)).toContainText('DVR/NVR');
  await expect(page.getByTestId('summary-card').nth(2)).toContainText('Alarm Panel');
  await page.getByTestId('site-summary-grid').waitFor();
  await page.getByTestId('list-search').fill(name);
  await expect(page.getByTestId('site-summary-grid').getByRole('row')).toHaveCount(2);
  await page.getByTestId('list-export').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-current-page').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('SiteSummary.csv');
  const text = (await readFile(await file.path())).toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\r\n');
  expect(lines[0]).toBe('Name,Total,Online,Offline,Not Connected');
  expect(lines).toHaveLength(3);
  // The demo simulator may connect the new devices at any moment: the counts always add up to the 13 devices.
  const [rowName, total, online, offline, notC] = (lines[1] ?? '').split(',');
  expect(rowName).toBe(name);
  expect(Number(total)).toBe(13);
  expect(Number(online) + Number(offline) + Number(notC)).toBe(13);

  await page.getByTestId('open-detailed-summary').click();
  await expect(page.getByTestId('detailed-summary-dialog').getByText('Site detailed summary')).toBeVisible();
  await api.dispose();
});

test('the map shows one marker per country at zoom 4 or less and site markers closer in', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const name = `Map Test ${Date.now()}`;
  await makeBusySite(api, name);
  const markers = await (await api.get('/iotapp/assets/map/?limit=1000')).json();
  const countries = new Set((markers.contents as { level1: string }[]).map((m) => m.level1));

  await signIn('customeradmin', { next: '/multisitestatus/dashboard' });
  const map = page.getByTestId('site-map');
  await expect(map.locator('.sw-group')).toHaveCount(countries.size, FIRST_PAINT);
  await expect(map.locator('.sw-site')).toHaveCount(0);

  // Search by name flies to the site (zoom 14) and opens its popup with the device counts.
  await page.getByTestId('map-search').fill(name);
  const popup = map.locator('.sw-popup');
  await expect(popup).toContainText(name, { timeout: 10_000 });
  await expect(popup).toContainText('Managed Devices13');
  await expect(map.locator('.sw-group')).toHaveCount(0);
  await expect(map.locator('.sw-site').first()).toBeVisible();
  await expect(page.getByText('Max Locations')).toBeVisible();
  await api.dispose();
});

test('a site chosen on the site summary is revealed in the tree, whose right-click entries come from the settings', async ({
  page,
  signIn,
  baseURL,
}) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const name = `Reveal Test ${Date.now()}`;
  const { site } = await makeBusySite(api, name);
  const before = (await (await api.get('/iotapp/customer-settings/')).json()).settings.treeNavigation as unknown[];
  try {
    // A customer admin adds a site entry on /settings; the shared schema refuses an unknown placeholder first.
    await signIn('customeradmin', { next: '/settings' });
    const section = page.getByTestId('settings-tree-navigation');
    await expect(section.getByTestId('tree-navigation-row')).toHaveCount(before.length, FIRST_PAINT);
    await section.getByTestId('tree-navigation-add').click();
    const row = section.getByTestId('tree-navigation-row').last();
    await row.getByRole('combobox', { name: 'Node' }).click();
    await page.getByRole('option', { name: 'Site', exact: true }).click();
    await row.getByTestId('tree-navigation-label').fill('Site Record');
    await row.getByTestId('tree-navigation-to').fill('/assets/view/{siteId}');
    await page.getByTestId('settings-save').click();
    await expect(row.getByText('Address may only use {assetId} and {deviceId}')).toBeVisible();
    await row.getByTestId('tree-navigation-to').fill('/assets/view/{assetId}');
    await page.getByTestId('settings-save').click();
    await expect(page.getByText('Settings updated successfully')).toBeVisible();

    // Choosing the site in the site summary table opens the tree down to it and selects it.
    await page.goto('/site-summary/dashboard');
    await page.getByTestId('list-search').fill(name);
    const grid = page.getByTestId('site-summary-grid');
    await expect(grid.getByRole('row')).toHaveCount(2, FIRST_PAINT);
    await grid.getByRole('row').nth(1).getByRole('gridcell').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`assetId=${site.id}`));
    const tree = page.getByTestId('asset-tree');
    const node = tree.locator(`[data-node="asset:${site.id}"]`);
    await expect(node).toBeVisible();
    await expect(node).toHaveAttribute('aria-selected', 'true');
    await expect(tree.getByRole('button', { name: 'Collapse Portugal' })).toBeVisible();
    await expect(tree.getByRole('button', { name: 'Collapse Lisbon' })).toBeVisible();

    // Its right-click menu carries the entry from the settings, filled in with the site's id.
    await node.click({ button: 'right' });
    const menu = page.getByTestId('tree-context-menu');
    await expect(menu.getByRole('menuitem', { name: 'Site Dashboard' })).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Site Record' }).click();
    await expect(page).toHaveURL(new RegExp(`/assets/view/${site.id}$`));
  } finally {
    await api.put('/iotapp/customer-settings/', { treeNavigation: before });
    await api.dispose();
  }
});
