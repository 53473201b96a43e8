import { expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

/** Device secrets are write-only: the page says whether the SNMP community is set, the answer never carries it. */
test('a device page shows the SNMP community as set, never its value', async ({ page, signIn }) => {
  await signIn('customeradmin');
  const answer = await page.request.get('/iotapp/devices/?type=UPS&limit=1');
  const ups = (await answer.json()).contents[0] as { id: number; secrets: string[]; metadata: Record<string, unknown> };
  expect(ups.secrets).toContain('snmpCommunity');
  expect(ups.metadata.snmpCommunity).toBeUndefined();
  await page.goto(`/devices/${ups.id}/view`);
  await expect(page.getByText('SNMP community', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('not set', { exact: true })).toHaveCount(0);
  await page.goto(`/devices/${ups.id}/edit`);
  await expect(page.getByText('set: leave empty to keep it')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('device-snmp-community')).toHaveValue('');
});
