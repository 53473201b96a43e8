import { apiSession, createUser, expect, signInThroughForm, test } from './fixtures.ts';

/** Users CSV import in the browser: a file with one bad row, previewed, then imported; the good rows become users. */

test.describe.configure({ timeout: 120_000 });

const csvOf = (stamp: string) =>
  [
    'username,email,first name,last name,mobile,role,group,sites',
    `imp-a-${stamp},imp-a-${stamp}@demo.example.com,Ada,Import,,fieldexecutive,,`,
    `imp-b-${stamp},imp-b-${stamp}@demo.example.com,Bo,Import,12345,vendor,,`,
    `imp-c-${stamp},imp-c-${stamp}@demo.example.com,Cy,Import,,Vendor,,`,
  ].join('\n');

test('a customer admin imports users from a CSV file with one bad row', async ({ page, signIn, baseURL }) => {
  const stamp = Date.now().toString(36);
  await signIn('customeradmin', { next: '/users' });
  await page.getByTestId('import-users').click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'Import users' });
  await expect(dialog.getByRole('link', { name: 'Download the template' })).toBeVisible();
  await page.getByTestId('user-import-file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(stamp)) });
  await expect(page.getByTestId('user-import-summary')).toHaveText(/3 row\(s\) read: 2 valid, 1 with errors/);
  await expect(page.getByTestId('user-import-invalid')).toHaveCount(1);
  await expect(page.getByTestId('user-import-invalid')).toContainText('Mobile number must be 10 digits');
  await expect(page.getByTestId('user-import-valid')).toHaveCount(2);

  // Keyboard: the Import button is reached and pressed without a mouse.
  const confirm = page.getByTestId('user-import-confirm');
  await confirm.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-import-outcome')).toHaveText(/2 user\(s\) created, 1 row\(s\) failed/, { timeout: 30_000 });
  await expect(page.getByTestId('user-import-failed')).toContainText(`imp-b-${stamp}`);
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download failed rows' }).click();
  expect((await download).suggestedFilename()).toBe('users-import-errors.csv');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const api = await apiSession(baseURL as string, 'customeradmin');
  const list = await (await api.get(`/iotapp/users/?searchText=imp-&limit=50`)).json();
  const names = (list.contents as { username: string }[]).map((u) => u.username);
  expect(names).toEqual(expect.arrayContaining([`imp-a-${stamp}`, `imp-c-${stamp}`]));
  expect(names).not.toContain(`imp-b-${stamp}`);
});

test('the import dialog fits a 390 px phone', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn('customeradmin', { next: '/users' });
  await page.getByTestId('import-users').click({ timeout: 30_000 });
  await page
    .getByTestId('user-import-file')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(`p${Date.now().toString(36)}`)) });
  await expect(page.getByTestId('user-import-summary')).toBeVisible();
  const box = await page.getByRole('dialog', { name: 'Import users' }).boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  await expect(page.getByTestId('user-import-confirm')).toBeInViewport();
});

test('a user who may view users but not add them sees no Import and no Add user', async ({ page, baseURL }) => {
  const stamp = Date.now().toString(36);
  const api = await apiSession(baseURL as string, 'customeradmin');
  const group = await api.post('/iotapp/permission-groups/', { name: `E2E user viewers ${stamp}`, codenames: ['view_user'] });
  expect(group.status()).toBe(201);
  const username = `viewer-${stamp}`;
  await createUser(baseURL as string, {
    username,
    firstname: 'Vera',
    lastname: `Viewer ${stamp}`,
    role: 'customer',
    more: { mobile: null, groupId: (await group.json()).id, assetIds: [], notificationConfig: { popup: false } },
  });
  await api.dispose();

  await signInThroughForm(page, username, { next: '/users' });
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible({ timeout: 30_000 });
  // Other tests add users, so the viewer may sit past the first page: found by search.
  await page.getByPlaceholder('Search name, username or e-mail').fill(stamp);
  await expect(page.getByRole('link', { name: `Vera Viewer ${stamp}` })).toBeVisible();
  await expect(page.getByTestId('import-users')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expect(page.getByTestId('add-user')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add user' })).toHaveCount(0);
});
