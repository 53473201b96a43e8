import { alarmedMeters } from './alarm-fixtures.ts';
import { expect, test } from './fixtures.ts';

test('Raise ticket on an alarm opens a ticket pre-filled from it, and both link to each other', async ({ page, signIn, baseURL }) => {
  test.setTimeout(180_000);
  const { alarms, cleanup } = await alarmedMeters(baseURL as string, 1);
  const [alarm] = alarms;
  if (!alarm) throw new Error('no alarm raised');
  await signIn('customeradmin', { next: `/devices/${alarm.deviceId}/view` });
  const row = page.getByTestId('device-alarms').getByRole('listitem').filter({ hasText: alarm.message });
  await row.getByTestId('raise-alarm-ticket').click();

  // the ticket page: pre-filled from the alarm, and its Device Details shows the alarm and the device's alarm history
  await expect(page).toHaveURL(/\/tickets\/all\/\d+$/, { timeout: 30_000 });
  const ticketPath = new URL(page.url()).pathname;
  await expect(page.getByText(/E2E overload \w+ on EM-01/).first()).toBeVisible({ timeout: 30_000 });
  const details = page.getByTestId('device-details');
  await expect(details.getByTestId('ticket-alarm')).toContainText(alarm.message);

  // the alarm shows its ticket as a link, on the device page and in Device health, and offers no second ticket
  await page.goto(`/devices/${alarm.deviceId}/view`);
  const again = page.getByTestId('device-alarms').getByRole('listitem').filter({ hasText: alarm.message });
  await expect(again.getByTestId('alarm-ticket-link')).toBeVisible({ timeout: 30_000 });
  await expect(again.getByTestId('raise-alarm-ticket')).toHaveCount(0);
  await again.getByTestId('alarm-ticket-link').click();
  await expect(page).toHaveURL(new RegExp(`${ticketPath}$`));
  await page.goto('/device-health');
  await expect(page.getByTestId('alarm-ticket-link').first()).toBeVisible({ timeout: 30_000 });
  await cleanup();
});

test('a user who may not raise tickets sees the alarm without the action', async ({ page, signIn, baseURL }) => {
  test.setTimeout(120_000);
  const { alarms, cleanup } = await alarmedMeters(baseURL as string, 1, 'customer');
  const [alarm] = alarms;
  if (!alarm) throw new Error('no alarm raised');
  await signIn('customer', { next: `/devices/${alarm.deviceId}/view` });
  const row = page.getByTestId('device-alarms').getByRole('listitem').filter({ hasText: alarm.message });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('raise-alarm-ticket')).toHaveCount(0);
  await cleanup();
});
