import { apiSession, expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 180_000 });

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
  const limits = await (await api.get('/api/telemetry/rate-limits/')).json();
  const perSecond = Number(String(limits.limits.deviceMessages).split(',')[0]?.split(':')[0]);
  expect(perSecond).toBeGreaterThan(0);

  // more than a second's worth at once: the excess is answered 429, as ThingsBoard answers it
  const statuses = await Promise.all(
    Array.from({ length: perSecond * 2 }, (_, i) =>
      api.context.post(`/api/v1/${accessToken}/telemetry`, { data: { reading: i } }).then((r) => r.status()),
    ),
  );
  const refused = statuses.filter((s) => s === 429).length;
  expect(refused).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);

  await signIn('customeradmin', { next: `/devices/${device.id}/view` });
  const limited = page.getByTestId('device-rate-limited');
  await expect(limited).toBeVisible({ timeout: 30_000 });
  const shown = Number((await limited.innerText()).match(/([\d,]+) messages? dropped/)?.[1]?.replace(/,/g, ''));
  expect(shown).toBeGreaterThanOrEqual(refused);
  await expect(page.getByRole('button', { name: 'Copy access token' })).toBeVisible();
  await expect(page.getByTestId('device-access-token-state')).toHaveText('set');
  expect(await page.content()).not.toContain(accessToken);
  await api.delete(`/iotapp/devices/${device.id}/`);
  await api.dispose();
});
