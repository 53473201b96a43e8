import { apiSession, expect, test } from './fixtures.ts';

// Issue 4 is open: this path does not yet pass in the browser (the rule form or the alarm grid times out).
test.fixme('an alarm rule made in Device health raises an alarm from telemetry posted with a device token', async ({
  page,
  signIn,
  baseURL,
}) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const list = await (await api.get('/iotapp/devices/?type=GENERATOR&limit=1')).json();
  const deviceId: number = list.contents[0].id;
  const device = await (await api.get(`/iotapp/devices/${deviceId}/`)).json();
  expect(device.accessToken).toBeTruthy();

  await signIn('customeradmin', { next: '/device-health' });
  await page.getByRole('tab', { name: 'Alarm rules' }).click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('E2E fuel check');
  await dialog.getByLabel('Telemetry key').fill('e2eFuel');
  await dialog.getByLabel('Threshold').fill('10');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alarm rule created')).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'E2E fuel check' })).toBeVisible();

  // the device reports, as firmware would: its token is the credential
  const posted = await api.context.post(`/api/v1/${device.accessToken}/telemetry`, { data: { e2eFuel: 4 } });
  expect(posted.status()).toBe(200);

  await page.getByRole('tab', { name: 'Alarms' }).click();
  await expect(page.getByRole('gridcell', { name: /E2E fuel check: e2eFuel < 10/ })).toBeVisible({ timeout: 20_000 });
  await api.dispose();
});

test('the HTTP device API refuses an unknown token', async ({ baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const res = await api.context.post('/api/v1/not-a-device-token/telemetry', { data: { a: 1 } });
  expect(res.status()).toBe(401);
  await api.dispose();
});
