import { apiSession, expect, test } from './fixtures.ts';

/**
 * /inventory-report and /pr-report: filter and export a report, raise a purchase request from low stock, approve and
 * receive it, schedule a report, raise one from a ticket (not offered without the right); a phone pass.
 */

test.describe.configure({ timeout: 150_000 });

async function prepare(baseURL: string) {
  const api = await apiSession(baseURL, 'customeradmin');
  const stamp = Date.now().toString(36).toUpperCase();
  const store = await (await api.post('/iotapp/inventory/stores/', { name: `E2E Report Store ${stamp}` })).json();
  const item = await (
    await api.post('/iotapp/inventory/items/', {
      code: `E2E-RPT-${stamp}`,
      name: `E2E report filter ${stamp}`,
      tracking: 'QUANTITY',
      unit: 'pcs',
      lowStockThreshold: 5,
    })
  ).json();
  const received = await api.post('/iotapp/inventory/movements/', { kind: 'RECEIVE', itemId: item.id, storeId: store.id, quantity: 2 });
  expect(received.ok()).toBe(true);
  await api.dispose();
  return { stamp, store, item };
}

/**
 * Elements of the page's main area wider than the window (a data grid and a scrollable tab bar scroll inside their
 * own box: what they clip is not wider than the screen).
 */
const tooWide = (page: import('@playwright/test').Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((e) => !e.closest('.MuiDataGrid-root, .MuiTabs-scroller') && e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => `${e.tagName}.${e.className}`.slice(0, 120))
      .slice(0, 5),
  );

test('filters the inventory report, exports it to Downloads and schedules it', async ({ page, signIn, baseURL }) => {
  const { item, store } = await prepare(baseURL as string);
  await signIn('customeradmin', { next: '/inventory-report' });
  await expect(page.getByRole('heading', { name: 'Inventory Report' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('filter-search').getByRole('textbox').fill(item.code);
  const grid = page.getByTestId('stock-report');
  await expect(grid.getByText(store.name)).toBeVisible();
  await expect(page.getByTestId('stock-report-totals')).toContainText('Rows: 1');
  await page.getByTestId('export-inventory-stock').click();
  await page.getByTestId('export-format-xlsx').click();
  await expect(page.getByText(/Export started: Stock on hand \(Excel/)).toBeVisible();
  await page.getByTestId('schedule-inventory-stock').click();
  const dialog = page.getByTestId('schedule-dialog');
  await dialog.getByLabel('Name').fill(`Stock ${item.code}`);
  await dialog.getByTestId('schedule-save').click();
  await expect(page.getByText('Report scheduled')).toBeVisible();
  await expect(page.getByTestId('schedule-list')).toContainText(`Stock ${item.code}: daily at 06:00 UTC`);
  // the movements tab checks its dates
  await page.getByTestId('tab-movements').click();
  await page.getByTestId('filter-from').getByLabel('From').fill('2026-02-10');
  await page.getByTestId('filter-to').getByLabel('To').fill('2026-02-01');
  await expect(page.getByText('The start date must be before the end date')).toBeVisible();
  await page.goto('/downloads');
  await expect(page.getByText(/Stock on hand .*\.xlsx/).first()).toBeVisible({ timeout: 30_000 });
});

test('raises a purchase request from low stock, approves and receives it into the ledger', async ({ page, signIn, baseURL }) => {
  const { store, item } = await prepare(baseURL as string);
  await signIn('customeradmin', { next: '/pr-report' });
  await expect(page.getByRole('heading', { name: 'Purchase Requests' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('raise-low-stock').click();
  const dialog = page.getByTestId('raise-dialog');
  await dialog.getByLabel('Store').click();
  await page.getByRole('option', { name: new RegExp(store.name) }).click();
  await dialog.getByTestId('raise-confirm').click();
  await expect(page.getByTestId('pr-state')).toHaveText('Submitted', { timeout: 15_000 });
  await expect(page.getByRole('cell', { name: new RegExp(item.code) })).toBeVisible();
  await page.getByTestId('pr-action-approve').click();
  await expect(page.getByTestId('pr-state')).toHaveText('Approved');
  await page.getByTestId('pr-action-receive').click();
  await page.getByTestId('pr-action-confirm').click();
  await expect(page.getByTestId('pr-state')).toHaveText('Received');
  await expect(page.getByText('Purchase request received')).toBeVisible();
  // the receipt is in the ledger: 2 + 8 on hand
  await page.goto('/inventory-report');
  await page.getByTestId('filter-search').getByRole('textbox').fill(item.code);
  await expect(page.getByTestId('stock-report').getByRole('gridcell', { name: '10', exact: true }).first()).toBeVisible();
});

/** A ticket raised by the customer admin, to raise purchase requests from. */
async function ticket(baseURL: string, stamp: string) {
  const api = await apiSession(baseURL, 'customeradmin');
  const res = await api.post('/helpdesk/tickets/', { title: `Generator filter worn ${stamp}`, event: 'HVAC' });
  expect(res.status()).toBe(201);
  const created = await res.json();
  await api.dispose();
  return created as { id: number; ticketId: string; title: string };
}

test('raises a purchase request from a ticket, which then lists it', async ({ page, signIn, baseURL }) => {
  const { stamp, store, item } = await prepare(baseURL as string);
  const raisedFrom = await ticket(baseURL as string, stamp);
  await signIn('customeradmin', { next: `/tickets/all/view/?ticketId=${raisedFrom.id}` });
  await expect(page.getByTestId('ticket-heading')).toHaveText(raisedFrom.title, { timeout: 30_000 });
  const section = page.getByTestId('ticket-purchase-requests');
  await expect(section).toContainText('No purchase request was raised from this ticket.');
  await section.getByTestId('raise-purchase-request').click();
  await expect(page.getByRole('heading', { name: 'New purchase request' })).toBeVisible();
  await expect(page.getByTestId('pr-title')).toHaveValue(`Parts for ${raisedFrom.ticketId}: ${raisedFrom.title}`);
  await expect(page.getByLabel('Ticket number (optional)')).toHaveValue(String(raisedFrom.id));
  await page.getByTestId('pr-store').click();
  await page.getByRole('option', { name: new RegExp(store.name) }).click();
  const line = page.getByTestId('pr-line-0');
  await line.getByLabel('Item').fill(item.code);
  await page.getByRole('option', { name: new RegExp(item.code) }).click();
  await line.getByLabel('Quantity').fill('3');
  await page.getByTestId('pr-submit').click();
  await expect(page.getByTestId('pr-state')).toHaveText('Submitted', { timeout: 15_000 });
  const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/PR-\d+/)?.[0] as string;
  expect(number).toMatch(/^PR-\d+$/);
  // back on the ticket, the request is listed with a link to it
  await page.goto(`/tickets/all/view/?ticketId=${raisedFrom.id}`);
  await expect(section.getByRole('link', { name: number })).toBeVisible({ timeout: 15_000 });
  await expect(section).toContainText('Submitted');
  await section.getByRole('link', { name: number }).click();
  await expect(page.getByTestId('pr-state')).toHaveText('Submitted');
});

test('a user who may not create purchase requests sees no such action on a ticket', async ({ page, signIn, baseURL }) => {
  // the ticket's attendance panel asks for the viewer's own attendance, which a viewer may not record (403)
  test.info().annotations.push({ type: 'allow-console-errors', description: '/api/attendance/current/' });
  const viewer = await apiSession(baseURL as string, 'customer');
  const list = await (await viewer.get('/helpdesk/tickets/?limit=1')).json();
  await viewer.dispose();
  const seen = list.contents[0] as { id: number; title: string };
  expect(seen).toBeTruthy();
  await signIn('customer', { next: `/tickets/all/view/?ticketId=${seen.id}` });
  await expect(page.getByTestId('ticket-heading')).toHaveText(seen.title, { timeout: 30_000 });
  await expect(page.getByTestId('raise-purchase-request')).toHaveCount(0);
  await expect(page.getByTestId('ticket-purchase-requests')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the reports and the request form fit a phone and validate', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/pr-report' });
    await expect(page.getByRole('heading', { name: 'Purchase Requests' })).toBeVisible({ timeout: 30_000 });
    // the cookie banner covers the bottom of a phone screen until it is accepted
    await page.getByTestId('cookie-consent-accept').click();
    expect(await tooWide(page)).toEqual([]);
    await page.getByTestId('new-pr').click();
    await expect(page.getByRole('heading', { name: 'New purchase request' })).toBeVisible();
    await page.getByTestId('pr-submit').click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Choose an item')).toBeVisible();
    expect(await tooWide(page)).toEqual([]);
    await page.goto('/inventory-report?tab=consumption');
    await expect(page.getByRole('heading', { name: 'Inventory Report' })).toBeVisible();
    expect(await tooWide(page)).toEqual([]);
  });

  test('raising a purchase request from a ticket fits a phone', async ({ page, signIn, baseURL }) => {
    const raisedFrom = await ticket(baseURL as string, Date.now().toString(36).toUpperCase());
    await signIn('customeradmin', { next: `/tickets/all/view/?ticketId=${raisedFrom.id}` });
    await expect(page.getByTestId('ticket-heading')).toHaveText(raisedFrom.title, { timeout: 30_000 });
    await page.getByTestId('cookie-consent-accept').click();
    const raise = page.getByTestId('raise-purchase-request');
    await raise.scrollIntoViewIfNeeded();
    await expect(raise).toBeVisible();
    expect(await tooWide(page)).toEqual([]);
    await raise.click();
    await expect(page.getByTestId('pr-title')).toHaveValue(`Parts for ${raisedFrom.ticketId}: ${raisedFrom.title}`);
    expect(await tooWide(page)).toEqual([]);
  });
});
