import { apiSession, expect, test } from './fixtures.ts';

test('an alarm rule made in Device health raises an alarm from telemetry posted with a device token', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const list = await (await api.get('/iotapp/devices/?type=GENERATOR&limit=1')).json();
  const deviceId: number = list.contents[0].id;
  const device = await (await api.post(`/iotapp/devices/${deviceId}/access-token/`)).json();
  expect(device.accessToken).toBeTruthy();
  // names of this run's own, so that a repeated run (or a retry) on the same server meets no rule of an earlier one
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const ruleName = `E2E fuel check ${run}`;
  const key = `e2eFuel${run}`;

  await signIn('customeradmin', { next: '/device-health' });
  // the cookie banner sits above dialogs until it is answered, as a person would answer it first
  await page.getByTestId('cookie-consent-accept').click();
  await expect(page.getByTestId('cookie-consent')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Alarm rules' }).click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(ruleName);
  await dialog.getByLabel('Telemetry key').fill(key);
  await dialog.getByLabel('Threshold').fill('10');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alarm rule created')).toBeVisible();
  await expect(page.getByRole('gridcell', { name: ruleName })).toBeVisible();

  // the device reports, as firmware would: its token is the credential
  const posted = await api.context.post(`/api/v1/${device.accessToken}/telemetry`, { data: { [key]: 4 } });
  expect(posted.status()).toBe(200);

  await page.getByRole('tab', { name: 'Alarms' }).click();
  await expect(page.getByRole('gridcell', { name: `${ruleName}: ${key} < 10 (value 4)` })).toBeVisible({ timeout: 20_000 });

  const rules = await (await api.get('/api/alarms/rules/')).json();
  const rule = rules.contents.find((r: { name: string }) => r.name === ruleName);
  expect((await api.delete(`/api/alarms/rules/${rule.id}/`)).status()).toBe(200);
  await api.dispose();
});

test('the HTTP device API refuses an unknown token', async ({ baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const res = await api.context.post('/api/v1/not-a-device-token/telemetry', { data: { a: 1 } });
  expect(res.status()).toBe(401);
  await api.dispose();
});
