import { apiSession, expect, test } from './fixtures.ts';

/** Attendance at phone size: check in outside the geofence (refused with the distance), inside, and out; equipment. */

// The tests check the same field executive in and out: they run one after another, never side by side.
test.describe.configure({ mode: 'default', timeout: 120_000 });

type Site = { id: number; name: string; latitude: number | null; longitude: number | null };
type Session = Awaited<ReturnType<typeof apiSession>>;

/** Closes the user's open check-in, if any, where it was made (check-out is fenced too). */
async function checkOutWherever(session: Session) {
  const { record } = await (await session.get('/api/attendance/current/')).json();
  if (record) await session.post('/api/attendance/check-out/', { latitude: record.checkIn.latitude, longitude: record.checkIn.longitude });
}

test.describe('check-in at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, permissions: ['geolocation'], geolocation: { latitude: 0, longitude: 0 } });

  test('refused outside the fence, accepted inside, then checked out', async ({ page, context, signIn, baseURL }, testInfo) => {
    // The refusal is a 400 answer, which the browser reports on the console.
    testInfo.annotations.push({ type: 'allow-console-errors', description: 'status of 400' });
    const field = await apiSession(baseURL as string, 'fieldexecutive');
    await checkOutWherever(field);
    const sites = (await (await field.get('/iotapp/assets/?limit=50&orderBy=name')).json()).contents as Site[];
    const site = sites.find((s) => s.latitude !== null && s.longitude !== null && !(s.latitude === 0 && s.longitude === 0));
    expect(site, 'a site of the field executive with coordinates').toBeTruthy();
    const { latitude, longitude, name } = site as Required<Site> & { latitude: number; longitude: number };
    await field.dispose();

    // About 1.1 km north of the site.
    await context.setGeolocation({ latitude: latitude + 0.01, longitude });
    await signIn('fieldexecutive', { next: '/attendance' });
    await expect(page.getByTestId('attendance-closed')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('combobox', { name: 'Site' }).fill(name);
    await page.getByRole('option', { name, exact: true }).click();
    await page.getByTestId('check-in').click();
    const refusal = page.getByTestId('attendance-error');
    await expect(refusal).toContainText(`m from ${name}; check-in is allowed within 200 m`);
    await expect(refusal).toContainText(/You are 1[01]\d\d m from/);

    await context.setGeolocation({ latitude, longitude });
    await page.getByTestId('check-in').click();
    await expect(page.getByTestId('attendance-status')).toHaveText(`Checked in at ${name}`);
    await expect(page.getByTestId('attendance-open')).toContainText('0 m from the site');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);

    await page.getByTestId('check-out').click();
    await expect(page.getByTestId('attendance-closed')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('recent-visits')).toContainText(name);
  });
});

test('administrators read that the fence trusts the phone, and see impossible travel flagged', async ({ page, signIn, baseURL }) => {
  const field = await apiSession(baseURL as string, 'fieldexecutive');
  await checkOutWherever(field);
  const sites = ((await (await field.get('/iotapp/assets/?limit=50&orderBy=name')).json()).contents as Site[]).filter(
    (s) => s.latitude !== null && s.longitude !== null && !(s.latitude === 0 && s.longitude === 0),
  );
  const from = sites[0] as Site & { latitude: number; longitude: number };
  const to = sites.find((s) => Math.abs((s.latitude as number) - from.latitude) + Math.abs((s.longitude as number) - from.longitude) > 0.5);
  expect(to, 'two sites of the field executive far apart').toBeTruthy();
  const at = (s: Site) => ({ latitude: s.latitude, longitude: s.longitude });
  expect((await field.post('/api/attendance/check-in/', { assetId: from.id, ...at(from) })).status()).toBe(201);
  expect((await field.post('/api/attendance/check-out/', at(from))).status()).toBe(200);
  // moments later, far away
  const jump = await field.post('/api/attendance/check-in/', { assetId: (to as Site).id, ...at(to as Site) });
  expect((await jump.json()).impossibleTravel).toBe(true);
  await field.post('/api/attendance/check-out/', at(to as Site));
  await field.dispose();

  await signIn('customeradmin', { next: '/attendance-management' });
  await expect(page.getByTestId('attendance-trust-note')).toContainText('relies on the position the phone reports', { timeout: 30_000 });
  const flag = page.getByTestId('attendance-grid').getByTestId('attendance-travel-flag').first();
  await expect(flag).toBeVisible({ timeout: 30_000 });
  // the speed is in the flag itself: a grid cell's tooltip is out of the keyboard's reach
  await expect(flag).toContainText(/Impossible travel · \d+ km\/h/);
});

test('a system administrator sets the networks the devices may be reached in', async ({ page, signIn }, testInfo) => {
  // The refused list is a 400 answer, which the browser reports on the console.
  testInfo.annotations.push({ type: 'allow-console-errors', description: 'status of 400' });
  await signIn('sysadmin', { next: '/app-admin?tab=networks' });
  const panel = page.getByTestId('outbound-networks-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  // the demo tenant's devices are simulated: loopback only
  await expect(page.getByTestId('outbound-networks')).toHaveValue('127.0.0.0/8\n::1');
  await page.getByTestId('outbound-networks').fill('127.0.0.0/8\n::1\n10.0.0.0/33');
  await page.getByTestId('outbound-networks-save').click();
  await expect(page.getByTestId('outbound-networks-error')).toContainText('10.0.0.0/33 is not');
  await page.getByTestId('outbound-networks').fill('127.0.0.0/8\n::1');
  await page.getByTestId('outbound-networks-save').click();
  await expect(page.getByTestId('outbound-networks-error')).toBeHidden();
});

test('an administrator adds equipment and finds it in the list', async ({ page, signIn }) => {
  const serial = `E2E-${Date.now().toString(36).toUpperCase()}`;
  await signIn('customeradmin', { next: '/equipments' });
  await page.getByTestId('add-equipment').click({ timeout: 30_000 });
  const form = page.getByTestId('equipment-form');
  await form.getByTestId('equipment-save').click();
  await expect(form.getByText('Choose a site')).toBeVisible();
  await form.getByRole('combobox', { name: 'Site' }).click();
  await page.getByRole('option').first().click();
  await form.getByTestId('equipment-name').fill('E2E generator');
  await form.getByTestId('equipment-serial').fill(serial);
  await form.getByTestId('equipment-save').click();
  await expect(form).toBeHidden();
  await page.getByPlaceholder('Search name, serial, make, model or site').fill(serial);
  const grid = page.getByTestId('equipment-grid');
  await expect(grid.getByText(serial)).toBeVisible();
  await grid.getByRole('link', { name: 'E2E generator' }).first().click();
  await expect(page.getByTestId('equipment-facts')).toContainText(serial);
  await expect(page.getByText('Maintenance history')).toBeVisible();
});
