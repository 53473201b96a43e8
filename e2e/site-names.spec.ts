import { HELPDESK_MESSAGES } from '@sitewatch/contracts/helpdesk/tickets';
import { apiSession, expect, test } from './fixtures.ts';

/**
 * Labels repeat at every site (each has its CAM-01, RTR-01, ACS-01): wherever a camera, device or alarm is named,
 * its site is named beside it, and a search by the site's name finds it (issue 52, part 1).
 */

test.beforeAll(async ({ request }) => {
  await expect.poll(async () => (await request.get('/api/auth/captcha/')).status(), { timeout: 30_000 }).toBe(200);
});

test.describe('named with its site', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the camera grid names each camera with its site, groups and filters by site, and never shows an empty box', async ({
    page,
    signIn,
  }) => {
    await signIn('customeradmin');
    await page.goto('/camview');
    const cards = page.getByTestId('camera-card');
    await expect(cards.first()).toBeVisible({ timeout: 30_000 });
    const count = await cards.count();
    expect(count).toBeGreaterThan(3);
    // every card names its site, under a heading of that site
    await expect(page.getByTestId('camera-site-group').first()).toBeVisible();
    for (let i = 0; i < count; i++) await expect(cards.nth(i).getByTestId('site-name')).not.toBeEmpty();
    // each shows a picture: the snapshot, or the default picture when none can be had
    await expect
      .poll(async () => page.locator('[data-testid="camera-card"] img[data-testid^="snapshot"]').count(), { timeout: 45_000 })
      .toBe(count);

    // searching by a site's name finds that site's cameras, and only them
    const site = ((await cards.first().getByTestId('site-name').textContent()) ?? '').replace(/^ · /, '');
    expect(site.length).toBeGreaterThan(2);
    await page.getByLabel('Search cameras or sites').fill(site);
    // (another site's name may begin with this one's)
    await expect
      .poll(async () => (await page.getByTestId('camera-site-group').allTextContents()).every((t) => t.includes(site)))
      .toBe(true);
    await expect(page.getByTestId('camera-site-group').first()).toHaveText(site);
    for (const name of await cards.getByTestId('site-name').allTextContents()) expect(name).toContain(site);

    // the site filter does the same
    await page.getByLabel('Search cameras or sites').fill('');
    await page.getByTestId('site-picker').getByRole('combobox').fill(site);
    await page.getByRole('option', { name: site, exact: true }).click();
    await expect(page.getByTestId('camera-site-group')).toHaveText([site]);
  });

  test('device health names the site of every alarm and finds alarms by site name', async ({ page, signIn }) => {
    await signIn('customeradmin');
    await page.goto('/device-health');
    const cells = page.locator('.MuiDataGrid-row [data-field="deviceLabel"]');
    await expect(cells.first()).toBeVisible({ timeout: 30_000 });
    // (rows come and go as the living demo raises and clears alarms: the rows shown at one moment)
    await expect.poll(async () => (await cells.allTextContents()).every((text) => / · \S/.test(text))).toBe(true);
    const site = ((await cells.first().getByTestId('site-name').textContent()) ?? '').replace(/^ · /, '');
    await page.getByLabel('Search device, site or rule').fill(site);
    // every row found is at a site whose name holds what was searched ("Salford Quays" also finds "Salford Quays 2")
    await expect
      .poll(async () => {
        const names = await cells.getByTestId('site-name').allTextContents();
        return names.length > 0 && names.every((name) => name.includes(site));
      })
      .toBe(true);
  });

  test('the extension panel names the site of each active alarm', async ({ page, signIn }) => {
    await signIn('customeradmin');
    await page.goto('/extension');
    const section = page.getByRole('region', { name: /Active alarms/ });
    const items = section.locator('.MuiListItemButton-root');
    await expect(items.first()).toBeVisible({ timeout: 30_000 });
    for (const item of await items.all()) await expect(item.getByTestId('site-name')).not.toBeEmpty();
  });

  test("Add Ticket's device picker lists the chosen location's devices, each named with its site", async ({ page, signIn, baseURL }) => {
    await signIn('customeradmin');
    await page.goto('/tickets/all/create');
    const device = page.getByRole('combobox', { name: 'Device' });
    // before a location is chosen: every device is named with its site
    await device.fill('ACS-01');
    const options = page.getByRole('option');
    await expect(options.first()).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => (await options.allTextContents()).every((t) => /^ACS-01 \(ACCESSCONTROL\) · \S/.test(t))).toBe(true);
    const before = await options.allTextContents();
    expect(before.length).toBeGreaterThan(1);
    const sites = before.map((t) => t.split(' · ')[1]);
    expect(new Set(sites).size).toBe(sites.length);
    await page.keyboard.press('Escape');
    await device.fill('');

    // after: only that location's devices
    const site = sites[1] as string;
    await page.getByRole('combobox', { name: 'Location' }).fill(site);
    await page.getByRole('option', { name: site, exact: true }).click();
    await device.click();
    await expect(options.first()).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => (await options.allTextContents()).every((t) => t.endsWith(` · ${site}`))).toBe(true);

    // a mismatch that still reaches the server is told in words
    const api = await apiSession(baseURL as string, 'customeradmin');
    const found = await (await api.get('/iotapp/devices/?type=ACCESSCONTROL&limit=2&orderBy=id')).json();
    const [a, b] = found.contents as { id: number; label: string; assetId: number; asset: { name: string } }[];
    const res = await api.post('/helpdesk/tickets/', {
      title: 'Door stuck',
      event: 'Power Failure',
      locationId: b?.assetId,
      entityId: a?.id,
    });
    expect(res.status()).toBe(400);
    expect((await res.json()).detail).toBe(HELPDESK_MESSAGES.deviceAtOtherSite(`${a?.label} · ${a?.asset.name}`, b?.asset.name as string));
    await api.dispose();
  });

  test('the device, camera and equipment pages name their site in the heading and the breadcrumbs', async ({ page, signIn, baseURL }) => {
    const api = await apiSession(baseURL as string, 'customeradmin');
    const device = (await (await api.get('/iotapp/devices/?type=ROUTER&limit=1&orderBy=id')).json()).contents[0] as {
      id: number;
      label: string;
      asset: { name: string };
    };
    const camera = (await (await api.get('/api/cameras/?limit=1')).json()).contents[0] as { id: number; label: string; siteName: string };
    const equipment = (await (await api.get('/api/equipment/?limit=1')).json()).contents[0] as
      | { id: number; name: string; siteName: string }
      | undefined;
    await api.dispose();
    const lastCrumb = page.getByTestId('breadcrumbs').locator('[aria-current="page"]');
    await signIn('customeradmin');

    await page.goto(`/devices/${device.id}/view`);
    await expect(lastCrumb).toHaveText(`${device.label} · ${device.asset.name}`, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 }).getByTestId('site-name')).toHaveText(` · ${device.asset.name}`);

    await page.goto(`/cctv/view/${camera.id}`);
    await expect(lastCrumb).toHaveText(`${camera.label} · ${camera.siteName}`, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 }).getByTestId('site-name')).toHaveText(` · ${camera.siteName}`);

    if (equipment) {
      await page.goto(`/equipments/${equipment.id}`);
      await expect(lastCrumb).toHaveText(`${equipment.name} · ${equipment.siteName}`, { timeout: 30_000 });
    }
  });

  test("a bulk command's devices are named with their site and found by the site's name", async ({ page, signIn, baseURL }) => {
    const api = await apiSession(baseURL as string, 'customeradmin');
    const stamp = Date.now().toString(36);
    const names = [`Eastmoor ${stamp}`, `Westmoor ${stamp}`];
    const deviceIds: number[] = [];
    for (const name of names) {
      const site = await (
        await api.post('/iotapp/assets/', {
          name,
          address: ['India', 'Karnataka', 'Bengaluru'],
          latitude: 12.9,
          longitude: 77.6,
          metadata: {},
        })
      ).json();
      const res = await api.post('/iotapp/devices/', {
        label: 'RLY-77',
        type: 'RELAY',
        assetId: site.id,
        parentId: null,
        templateId: null,
        metadata: {},
      });
      expect(res.status(), await res.text()).toBe(201);
      deviceIds.push((await res.json()).id);
    }
    const sent = await api.post('/api/commands/bulk/', { target: { kind: 'devices', deviceIds }, method: 'ping' });
    expect(sent.status(), await sent.text()).toBe(201);
    const bulk = (await sent.json()) as { id: number };
    await api.dispose();

    await signIn('customeradmin');
    await page.goto(`/device-commands?bulk=${bulk.id}`);
    const rows = page.getByTestId('bulk-device-row');
    await expect(rows.getByTestId('site-name')).toHaveText(
      names.map((n) => ` · ${n}`),
      { timeout: 30_000 },
    );
    await page.getByTestId('bulk-search').fill(names[1] as string);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveText(new RegExp(`^RLY-77 · ${names[1]}`));
  });

  test('dashboard value and alarm widgets name the site of their device', async ({ page, signIn }) => {
    await signIn('customeradmin');
    const mine = (await (await page.request.get('/iotapp/user-dashboards/')).json()).contents as { id: number; name: string }[];
    const energy = mine.find((d) => d.name === 'Energy dashboard');
    const wall = mine.find((d) => d.name === 'Site operations wall');
    await page.goto(`/dashboards/${energy?.id}/view`);
    const values = page.getByTestId('latest-value');
    await expect(values.first()).toBeVisible({ timeout: 45_000 });
    for (const value of await values.all()) await expect(value.getByTestId('site-name')).not.toBeEmpty();
    await page.goto(`/dashboards/${wall?.id}/view`);
    // the living demo always has some active alarm; each row names its device's site
    const rows = page.getByTestId('alarm-list').getByRole('row');
    await expect(rows.first()).toBeVisible({ timeout: 45_000 });
    await expect.poll(async () => (await rows.count()) === (await rows.getByTestId('site-name').count())).toBe(true);
  });
});
