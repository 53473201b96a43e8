import { expect, test } from './fixtures.ts';

/**
 * The ticket dashboard and the ticket reports in the browser: the figures follow the type and the period, a report
 * opens from the dashboard and is saved as CSV, and both screens fit a phone.
 */

test.describe.configure({ timeout: 90_000 });

test('the ticket dashboard follows its type and period and opens a report, saved as CSV', async ({ page, signIn }) => {
  await signIn('customeradmin', { next: '/ticket/dashboard' });
  await expect(page.getByRole('heading', { name: 'Ticket dashboard' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('dash-total')).toContainText(/\d/);

  const byType = page.waitForResponse((r) => r.url().includes('/helpdesk/dashboard/') && r.url().includes('type=AlarmTicket'));
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Device Health Tickets' }).click();
  expect((await byType).status()).toBe(200);

  const byPeriod = page.waitForResponse((r) => r.url().includes('/helpdesk/dashboard/') && r.url().includes('type=AlarmTicket'));
  await page.getByRole('combobox', { name: 'Range' }).click();
  await page.getByRole('option', { name: 'Last 7 days' }).click();
  const answer = await byPeriod;
  const { from, to } = Object.fromEntries(new URL(answer.url()).searchParams) as { from: string; to: string };
  expect(Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)).toBe(7);
  const total = ((await answer.json()) as { total: number }).total;
  await expect(page.getByTestId('dash-total')).toContainText(String(total));

  await page.getByRole('link', { name: 'Tickets by status' }).click();
  await expect(page).toHaveURL(/\/ticket-report\/status$/);
  await expect(page.getByRole('heading', { name: 'Tickets by status' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  expect((await download).suggestedFilename()).toBe('status-report.csv');

  await page.getByRole('combobox', { name: 'Report' }).click();
  await page.getByRole('option', { name: 'Open ticket ageing' }).click();
  await expect(page).toHaveURL(/\/ticket-report\/ageing$/);
  await expect(page.getByRole('heading', { name: 'Open ticket ageing' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dashboard and a report fit the screen', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/ticket/dashboard' });
    await expect(page.getByTestId('dash-total')).toContainText(/\d/, { timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto('/ticket-report/location');
    await expect(page.getByRole('heading', { name: 'Tickets by location' })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
