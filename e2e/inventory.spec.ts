import { apiSession, expect, test } from './fixtures.ts';

/** Inventory of spares on a phone (390 px): a store manager receives stock, issues a spare to a ticket, reads the history. */

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

async function prepare(baseURL: string) {
  const api = await apiSession(baseURL, 'storemanager');
  const stamp = Date.now().toString(36).toUpperCase();
  const stores = (await (await api.get('/iotapp/inventory/stores/')).json()).contents as Array<{ id: number; name: string }>;
  const store = stores.find((s) => s.name === 'Central Store') ?? stores[0];
  if (!store) throw new Error('no demo store');
  const item = await (
    await api.post('/iotapp/inventory/items/', { code: `E2E-FLT-${stamp}`, name: `E2E filter ${stamp}`, tracking: 'QUANTITY', unit: 'pcs' })
  ).json();
  const spare = await (
    await api.post('/iotapp/inventory/items/', {
      code: `E2E-RTR-${stamp}`,
      name: `E2E router ${stamp}`,
      tracking: 'SERIAL',
      make: 'Teltonika',
      model: 'RUT950',
    })
  ).json();
  const received = await api.post('/iotapp/inventory/movements/', {
    kind: 'RECEIVE',
    itemId: spare.id,
    storeId: store.id,
    serials: [`SN-${stamp}`],
  });
  expect(received.ok()).toBe(true);
  const ticket = await (await api.post('/helpdesk/tickets/', { title: `Router down ${stamp}`, event: 'Power Failure' })).json();
  await api.dispose();
  return { stamp, store, item, spare, ticket };
}

test('a store manager receives stock on a phone and sees it on hand', async ({ page, signIn, baseURL }) => {
  const { store, item } = await prepare(baseURL as string);
  await signIn('storemanager', { next: '/inventory-management' });
  await expect(page.getByRole('heading', { name: 'Inventory Management' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('inventory-move').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Receive stock' })).toBeVisible();
  await dialog.getByTestId('move-item').fill(item.code);
  await page.getByRole('option', { name: new RegExp(item.code) }).click();
  await dialog.getByLabel('Into store').click();
  await page.getByRole('option', { name: store.name, exact: true }).click();
  await dialog.getByTestId('move-quantity').fill('7');
  // Enter submits (a live alarm popup may cover the Save button of a full-screen dialog on a phone).
  await dialog.getByTestId('move-quantity').press('Enter');
  await expect(page.getByText('Received: Stock updated')).toBeVisible();
  await page.getByTestId('inventory-search').fill(item.code);
  const row = page.getByTestId('stock-row').filter({ hasText: item.name });
  await expect(row.getByTestId('stock-on-hand')).toHaveText(/7 pcs/);
  // Nothing is wider than the phone.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => `${e.tagName}.${e.className}`.slice(0, 120))
      .slice(0, 5),
  );
  expect(wide).toEqual([]);
});

test('a store manager issues a serial spare to a ticket and sees it in the item history', async ({ page, signIn, baseURL }) => {
  const { stamp, store, spare, ticket } = await prepare(baseURL as string);
  await signIn('storemanager', { next: `/inventory-management/${spare.id}/view` });
  await expect(page.getByRole('heading', { name: spare.name })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('item-label').getByTestId('qr-code')).toBeVisible();
  await page.getByTestId('item-move').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'What happens' }).click();
  await page.getByTestId('move-kind-ISSUE').click();
  await dialog.getByLabel('From store').click();
  await page.getByRole('option', { name: store.name, exact: true }).click();
  await dialog.getByTestId('move-ticket').fill(ticket.ticketId);
  await page.getByRole('option', { name: new RegExp(ticket.ticketId) }).click();
  await dialog.getByTestId('move-serials').click();
  await page.getByRole('option', { name: `SN-${stamp}` }).click();
  await dialog.getByTestId('move-note').fill('Swapped on site');
  await dialog.getByTestId('move-note').press('Enter');
  await expect(page.getByText('Issued to ticket: Stock updated')).toBeVisible();
  await expect(page.getByTestId('item-on-hand')).toHaveText('0');
  const history = page.getByTestId('history-row');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('Issued to ticket');
  await expect(history.first()).toContainText(`SN-${stamp}`);
  await expect(history.last()).toContainText('Received');
  await expect(page.getByTestId('item-serial')).toContainText('issued');
});

test('a customer admin replaces a faulty device from a ticket with a serial spare', async ({ page, signIn, baseURL }) => {
  const { stamp, store, spare, ticket } = await prepare(baseURL as string);
  const admin = await apiSession(baseURL as string, 'customeradmin');
  const devices = (await (await admin.get('/iotapp/devices/?limit=1&type=GENERATOR')).json()) as {
    contents: Array<{ id: number; label: string }>;
  };
  const device = devices.contents[0];
  if (!device) throw new Error('no demo device');

  await signIn('customeradmin', { next: `/inventory-management/${spare.id}/view` });
  await page.getByTestId('cookie-consent-accept').click();
  await page.getByTestId('item-replace').click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'Replace a device' });
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(dialog.getByText('Choose a ticket')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Ticket' }).fill(ticket.ticketId);
  await page.getByRole('option', { name: new RegExp(ticket.ticketId) }).click();
  await dialog.getByRole('combobox', { name: 'Device to replace' }).fill(device.label);
  await page
    .getByRole('option', { name: new RegExp(device.label) })
    .first()
    .click();
  await dialog.getByLabel('From store').click();
  await page.getByRole('option', { name: new RegExp(`^${store.name}`) }).click();
  await dialog.getByLabel('Serial number of the spare').click();
  await page.getByRole('option', { name: `SN-${stamp}` }).click();
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(page.getByText('Device replaced')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('item-serial')).toContainText('issued');

  const after = (await (await admin.get(`/iotapp/devices/${device.id}/`)).json()) as { metadata?: { serialNumber?: string } };
  expect(after.metadata?.serialNumber).toBe(`SN-${stamp}`);
  await admin.dispose();
});
