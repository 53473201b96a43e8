import type { Page } from '@playwright/test';
import { apiSession, expect, test } from './fixtures.ts';

/** The vendors directory in the browser: create a vendor, find it, assign a ticket to it and see it on the vendor. */

test.describe.configure({ timeout: 120_000 });

async function ticketAtASite(baseURL: string, stamp: string) {
  const api = await apiSession(baseURL, 'customeradmin');
  const sites = await (await api.get('/iotapp/assets/?page=1&limit=1&orderBy=name')).json();
  const site = sites.contents[0] as { id: number; name: string };
  const raised = await api.post('/helpdesk/tickets/', {
    type: 'TICKET',
    title: `Pump leaking ${stamp}`,
    event: 'Power Failure',
    locationId: site.id,
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const ticket = (await raised.json()) as { id: number; ticketId: string };
  await api.dispose();
  return { site, ticket };
}

/**
 * Searches the vendors list and waits for the result a person waits for: the one matching row. The unfiltered list
 * can already hold the vendor (it sorts among the demo vendors), but the search reloads the grid half a second
 * later, and a click that lands while the grid's loading overlay covers the rows does not open the link.
 */
async function searchVendors(page: Page, stamp: string, company: string) {
  await page.getByPlaceholder('Search company, contact, e-mail or phone').fill(stamp);
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('link', { name: company })).toBeVisible();
}

test('a customer admin creates a vendor, finds it, and assigns a ticket to it', async ({ page, signIn, baseURL }) => {
  const stamp = Date.now().toString(36);
  const company = `E2E Vendor ${stamp}`;
  const { site, ticket } = await ticketAtASite(baseURL as string, stamp);

  await signIn('customeradmin', { next: '/vendors' });
  await page.getByTestId('add-vendor').click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/vendors\/create$/);
  await page.getByTestId('vendor-company').fill(company);
  await page.getByTestId('vendor-contactPerson').fill('Vera Vendor');
  await page.getByTestId('vendor-phone').fill('12345');
  await page.getByTestId('vendor-save').click();
  await expect(page.getByText('Mobile number must be 10 digits')).toBeVisible();
  await page.getByTestId('vendor-phone').fill('9876501234');
  await page.getByRole('combobox', { name: 'Sites served' }).fill(site.name);
  await page.getByRole('option', { name: site.name, exact: true }).click();
  await page.getByTestId('vendor-save').click();
  await expect(page).toHaveURL(/\/vendors\/edit\/\d+$/);
  await expect(page.getByText('Vendor created successfully')).toBeVisible();

  await page.goto('/vendors');
  await searchVendors(page, stamp, company);

  await page.goto(`/escalation-tickets/view/?ticketId=${ticket.id}`);
  await page.getByTestId('vendor-change').click({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Vendor' }).fill(stamp);
  await page.getByRole('option', { name: company }).click();
  await page.getByTestId('vendor-save').click();
  await expect(page.getByTestId('ticket-vendor')).toHaveText(company);

  await page.goto('/vendors');
  await searchVendors(page, stamp, company);
  await page.getByRole('link', { name: company }).click();
  await expect(page).toHaveURL(/\/vendors\/edit\/\d+$/);
  await expect(page.getByTestId('vendor-tickets')).toContainText(ticket.ticketId);
});

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the vendors list and form fit the screen', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/vendors' });
    await expect(page.getByRole('heading', { name: 'Vendors' })).toBeVisible({ timeout: 30_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByTestId('add-vendor').click();
    await expect(page.getByTestId('vendor-company')).toBeVisible();
    const save = await page.getByTestId('vendor-save').boundingBox();
    expect((save?.x ?? 0) + (save?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
