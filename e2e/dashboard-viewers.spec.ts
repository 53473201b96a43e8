import { apiSession, expect, signInThroughForm, test } from './fixtures.ts';

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

test('a dashboard is put in the navigation of the groups its editor chooses, and of nobody else', async ({
  page,
  signIn,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000);
  const name = `For the viewers ${Date.now()}`;
  await signIn('customeradmin');
  await page.goto('/dashboards/create');
  await page.getByTestId('dashboard-name').fill(name);
  // off until chosen, and then the editor says for whom
  const inNavigation = page.getByRole('checkbox', { name: 'In the navigation' });
  await expect(inNavigation).not.toBeChecked();
  await expect(page.getByTestId('dashboard-audience-groups')).toHaveCount(0);
  await inNavigation.check();
  await page.getByRole('combobox', { name: 'For groups' }).click();
  await page.getByRole('option', { name: 'Viewers', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('combobox', { name: 'For groups' })).toHaveText('Viewers');
  await expect(page.getByRole('combobox', { name: 'For roles' })).toHaveText('No role');
  await page.getByTestId('dashboard-save').click();
  await page.waitForURL(/\/dashboards\/\d+\/edit$/, { timeout: 30_000 });
  const id = Number(/\/dashboards\/(\d+)\/edit/.exec(page.url())?.[1]);

  // the Viewers group's customer has it in the navigation; the Operators' field executive has not, nor opens it
  const customer = await browser.newContext({ baseURL });
  const theirPage = await customer.newPage();
  await signInThroughForm(theirPage, 'customer');
  await expect(theirPage.getByTestId('nav-user-dashboards').getByRole('link', { name })).toBeVisible({ timeout: 30_000 });
  await customer.close();
  const field = await apiSession(baseURL as string, 'fieldexecutive');
  const theirs = (await (await field.get('/iotapp/user-dashboards/')).json()).contents as { id: number }[];
  expect(theirs.map((d) => d.id)).not.toContain(id);
  expect((await field.get(`/iotapp/dashboards/${id}/`)).status()).toBe(404);
  await field.dispose();
  const admin = await apiSession(baseURL as string, 'customeradmin');
  expect((await admin.delete(`/iotapp/dashboards/${id}/`)).status()).toBe(204);
  await admin.dispose();
});
