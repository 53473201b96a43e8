import { apiSession, CAPTCHA, createUser, expect, PASSWORD, signInThroughForm, test } from './fixtures.ts';

/** User administration in the browser: an admin creates a user, who then signs in with the password chosen. */

test.describe.configure({ timeout: 120_000 });

test('a customer admin creates a user who then signs in', async ({ page, signIn, browser }) => {
  const stamp = Date.now().toString(36);
  const username = `e2e-${stamp}`;
  await signIn('customeradmin', { next: '/users' });
  await page.getByTestId('add-user').click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/user\/create$/);
  await page.getByTestId('user-firstname').fill('Erin');
  await page.getByTestId('user-lastname').fill(`Tester ${stamp}`);
  await page.getByTestId('user-username').fill(username);
  await page.getByTestId('user-email').fill(`${username}@demo.example.com`);
  await page.getByTestId('user-mobile').fill('12345');
  await page.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'Vendor' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Password' }).click();
  await page.getByRole('option', { name: 'Set a password now' }).click();
  await page.getByTestId('user-password').fill(PASSWORD);
  await page.getByTestId('user-save').click();
  // The mobile number is checked in the form before anything is sent.
  await expect(page.getByText('Mobile number must be 10 digits')).toBeVisible();
  await page.getByTestId('user-mobile').fill('');
  await page.getByTestId('user-save').click();
  await expect(page).toHaveURL(/\/user-details\/\d+$/);
  await expect(page.getByText('User created successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Erin Tester ${stamp}` })).toBeVisible();
  await expect(page.getByText('Vendor', { exact: true })).toBeVisible();

  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await signInThroughForm(newcomer, username);
  await expect(newcomer).not.toHaveURL(/login/);
  await newcomer.goto('/myprofile');
  await expect(newcomer.getByTestId('profile-email')).toHaveValue(`${username}@demo.example.com`, { timeout: 30_000 });
  await context.close();

  // The new user's session shows on the details page once they signed in.
  await page.reload();
  await expect(page.getByText('Active sessions')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Password', exact: true })).toBeVisible();
});

test('a user without the user permissions sees no user administration', async ({ page, signIn }) => {
  await signIn('fieldexecutive', { next: '/users' });
  await expect(page).toHaveURL(/access-denied/, { timeout: 30_000 });
});

test("changing a group's permissions shows or hides a screen for its users", async ({ page, signIn, browser, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const stamp = Date.now().toString(36);
  const groupName = `E2E readers ${stamp}`;
  const group = await (await api.post('/iotapp/permission-groups/', { name: groupName, codenames: ['view_asset', 'view_ticket'] })).json();
  const username = `reader-${stamp}`;
  await createUser(baseURL as string, {
    username,
    firstname: 'Rita',
    lastname: `Reader ${stamp}`,
    role: 'customer',
    more: { mobile: null, groupId: group.id, assetIds: [], notificationConfig: { popup: false } },
  });
  await api.dispose();

  const context = await browser.newContext();
  const reader = await context.newPage();
  await signInThroughForm(reader, username);
  await reader.goto('/users');
  await expect(reader).toHaveURL(/access-denied/, { timeout: 30_000 });

  await signIn('customeradmin', { next: '/permissions' });
  await page.getByRole('button', { name: new RegExp(groupName) }).click({ timeout: 30_000 });
  const editor = page.getByTestId('group-editor');
  await editor.getByRole('checkbox', { name: /Can view user/ }).check();
  await editor.getByTestId('save-group').click();
  await expect(page.getByText('Permission for selected events are updated successfully!')).toBeVisible();

  await reader.goto('/users');
  await expect(reader.getByRole('heading', { name: 'Users' })).toBeVisible({ timeout: 30_000 });
  // Other tests add users, so the reader may sit past the first page: found by search.
  await reader.getByPlaceholder('Search name, username or e-mail').fill(stamp);
  await expect(reader.getByRole('link', { name: `Rita Reader ${stamp}` })).toBeVisible({ timeout: 30_000 });

  await editor.getByRole('checkbox', { name: /Can view user/ }).uncheck();
  await editor.getByTestId('save-group').click();
  // the newest toast: the first save's may still be leaving
  await expect(page.getByText('Permission for selected events are updated successfully!').last()).toBeVisible({ timeout: 30_000 });
  await reader.goto('/users');
  await expect(reader).toHaveURL(/access-denied/, { timeout: 30_000 });
  await context.close();
});

test('a newcomer registers, confirms the e-mail, is approved and signs in', async ({ page, signIn, browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const username = `joiner-${stamp}`;
  const email = `${username}@demo.example.com`;
  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await newcomer.goto('/register');
  await expect(newcomer.getByTestId('captcha-image')).toBeVisible({ timeout: 30_000 });
  await newcomer.getByTestId('register-firstname').fill('Jo');
  await newcomer.getByTestId('register-lastname').fill(`Joiner ${stamp}`);
  await newcomer.getByTestId('register-username').fill(username);
  await newcomer.getByTestId('register-email').fill(email);
  await newcomer.getByTestId('register-password').fill(PASSWORD);
  await newcomer.getByTestId('register-confirm').fill(PASSWORD);
  await newcomer.getByTestId('register-captcha').fill(CAPTCHA);
  await newcomer.getByTestId('register-submit').click();
  await expect(newcomer).toHaveURL(/\/register\/request-done$/);

  // The confirmation link is in the mail outbox (no SMTP server in tests).
  const sysadmin = await apiSession(baseURL as string, 'sysadmin');
  const outbox = await (await sysadmin.get('/iotapp/mail-outbox/')).json();
  await sysadmin.dispose();
  const mail = outbox.contents.find((m: { to: string }) => m.to === email);
  const link = new URL(/https?:\/\/\S+/.exec(mail.body)?.[0] as string);
  await newcomer.goto(`${link.pathname}${link.search}`);
  await expect(newcomer.getByText('Your e-mail address is confirmed.')).toBeVisible({ timeout: 30_000 });

  await signIn('customeradmin', { next: '/registration-requests' });
  await page.getByRole('link', { name: `Jo Joiner ${stamp}` }).click({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'Vendor' }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('approve').click();
  await expect(page).toHaveURL(/\/user-details\/\d+$/);
  await expect(page.getByText('User created successfully')).toBeVisible();

  await signInThroughForm(newcomer, username);
  await expect(newcomer).not.toHaveURL(/login/);
  await context.close();
});

test('the activity log filters by action and exports through the downloads', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const stamp = Date.now().toString(36);
  const res = await api.post('/iotapp/permission-groups/', { name: `Logged group ${stamp}`, codenames: ['view_asset'] });
  expect(res.status()).toBe(201);
  await api.dispose();

  await signIn('customeradmin', { next: '/user-activity-logs' });
  await expect(page.getByRole('heading', { name: 'User activity logs' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Created a group' }).click();
  await expect(page.getByRole('cell', { name: 'Created a group' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Signed in with password' })).toHaveCount(0);
  await page.getByTestId('export-activity').click();
  await page.goto('/downloads');
  await expect(page.getByText('User activity log').first()).toBeVisible({ timeout: 30_000 });
});
