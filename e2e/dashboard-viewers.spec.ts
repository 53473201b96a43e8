import { expect, test } from './fixtures.ts';

/**
 * Dashboards work for whoever opens them (issue 52, part 4): a viewer limited to some sites opens the demo's shared
 * "Energy dashboard" and every widget answers (data of their sites, or a plain note for a device of another site),
 * with no failed call, no red error and no Retry; the demo Operators group does not edit the administrator's boards.
 */

test.beforeAll(async ({ request }) => {
  await expect.poll(async () => (await request.get('/api/auth/captcha/')).status(), { timeout: 30_000 }).toBe(200);
});

for (const username of ['fieldexecutive', 'vendor', 'customer']) {
  test(`${username} opens the shared Energy dashboard without a failed widget call`, async ({ page, signIn }) => {
    test.setTimeout(90_000);
    const failed: string[] = [];
    const answered: number[] = [];
    page.on('response', (res) => {
      if (!res.url().includes('/iotapp/dashboards/widget-data/')) return;
      answered.push(res.status());
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    await signIn(username);
    const mine = await (await page.request.get('/iotapp/user-dashboards/')).json();
    const energy = (mine.contents as { id: number; name: string }[]).find((d) => d.name === 'Energy dashboard');
    expect(energy, 'the Energy dashboard is shared with this user').toBeTruthy();
    await page.goto(`/dashboards/${energy?.id}/view`);
    await expect(page.getByTestId('dashboard-view')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('widget-loading')).toHaveCount(0, { timeout: 45_000 });
    expect(answered.length).toBeGreaterThan(0);
    expect(failed).toEqual([]);
    await expect(page.getByTestId('widget-error')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    // nor may they change the administrator's dashboard
    await expect(page.getByTestId('edit-dashboard')).toHaveCount(0);
  });
}
