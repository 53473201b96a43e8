import { apiSession, expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 300_000 });

/**
 * A device over its rate limits: its input beyond them is refused (HTTP 429) and counted, and the device page shows
 * the count; the page offers the access token only through its copy action, never on screen.
 */
test('the device page shows how much input the rate limits dropped, and never the access token', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const sites = await (await api.get('/iotapp/assets/?limit=1')).json();
  const created = await api.post('/iotapp/devices/', {
    label: `RL-${Date.now().toString(36)}`,
    type: 'SENSOR',
    assetId: sites.contents[0].id,
    parentId: null,
    templateId: null,
    metadata: {},
  });
  expect(created.status(), await created.text()).toBe(201);
  const device = await created.json();
  expect(device.accessToken).toBeUndefined();
  const { accessToken } = await (await api.post(`/iotapp/devices/${device.id}/access-token/`)).json();
  // the tenant's own limit for this test: 5 messages a minute per device (put back to the default at the end)
  const sysadmin = await apiSession(baseURL as string, 'sysadmin');
  const before = await (await sysadmin.get('/api/telemetry/rate-limits/')).json();
  expect((await sysadmin.put('/api/telemetry/rate-limits/', { deviceMessages: '5:60' })).status()).toBe(200);
  let refused = 0;
  try {
    for (let i = 0; i < 12; i++) {
      const status = (await api.context.post(`/api/v1/${accessToken}/telemetry`, { data: { reading: i } })).status();
      expect([200, 429]).toContain(status);
      if (status === 429) refused++;
    }
  } finally {
    const own = before.custom.includes('deviceMessages') ? before.limits.deviceMessages : null;
    await sysadmin.put('/api/telemetry/rate-limits/', { deviceMessages: own });
    await sysadmin.dispose();
  }
  // over the limit, as ThingsBoard answers it: 429, and counted
  expect(refused).toBeGreaterThanOrEqual(7);

  await signIn('customeradmin', { next: `/devices/${device.id}/view` });
  const limited = page.getByTestId('device-rate-limited');
  await expect(limited).toBeVisible({ timeout: 90_000 });
  const shown = Number(((await limited.textContent()) ?? '').match(/([\d,]+) messages? dropped/)?.[1]?.replace(/,/g, ''));
  expect(shown).toBeGreaterThanOrEqual(refused);
  await expect(page.getByRole('button', { name: 'Copy access token' })).toBeVisible();
  await expect(page.getByTestId('device-access-token-state')).toHaveText('set');
  expect(await page.content()).not.toContain(accessToken);
  // The page is closed before the device is deleted: it follows the device, and would ask for what is gone.
  await page.close();
  await api.delete(`/iotapp/devices/${device.id}/`);
  await api.dispose();
});
