import { apiSession, expect, test } from './fixtures.ts';

/** /inventory-report and /pr-report: filter and export a report, raise a purchase request from low stock, approve and receive it, schedule a report; a phone pass. */

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

/** Elements of the page's main area wider than the window (a data grid scrolls inside its own box). */
const tooWide = (page: import('@playwright/test').Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((e) => !e.closest('.MuiDataGrid-root') && e.getBoundingClientRect().right > window.innerWidth + 1)
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
});
