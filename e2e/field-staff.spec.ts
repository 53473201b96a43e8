import { apiSession, expect, PASSWORD, signInThroughForm, test } from './fixtures.ts';

/** Field staff directories and clusters in the browser. */

test.describe.configure({ timeout: 150_000 });

/** An open ticket of the demo tenant at a site, to give a new field executive something to be assigned. */
async function openTicketAtSite(baseURL: string) {
  const api = await apiSession(baseURL, 'customeradmin');
  const list = await (await api.get('/helpdesk/tickets/?status=OPEN&limit=100')).json();
  const ticket = (list.contents as { id: number; ticketId: string; locationId: number | null; assignedTo: number | null }[]).find(
    (t) => t.locationId !== null,
  );
  if (!ticket) throw new Error('no open demo ticket at a site');
  const site = await (await api.get(`/iotapp/assets/${ticket.locationId}/`)).json();
  await api.dispose();
  return { ticket, site: site as { id: number; name: string } };
}

test('an admin adds a field executive who signs in, and assigns them a ticket from the directory', async ({
  page,
  signIn,
  browser,
  baseURL,
}) => {
  const { ticket, site } = await openTicketAtSite(baseURL as string);
  const stamp = Date.now().toString(36);
  const username = `fe-${stamp}`;
  await signIn('customeradmin', { next: '/field-executives' });
  await expect(page.getByRole('heading', { name: 'Field Executives' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('add-person').click();
  await expect(page).toHaveURL(/\/field-executives\/create$/);
  await page.getByTestId('person-firstname').fill('Faye');
  await page.getByTestId('person-lastname').fill(`Field ${stamp}`);
  await page.getByTestId('person-username').fill(username);
  await page.getByTestId('person-email').fill(`${username}@demo.example.com`);
  await page.getByTestId('person-employeeCode').fill('bad code');
  await page.getByTestId('person-area').fill('Riverside');
  await page.getByLabel('Sites looked after').fill(site.name);
  await page.getByRole('option', { name: site.name, exact: true }).click();
  await page.getByRole('combobox', { name: 'Password' }).click();
  await page.getByRole('option', { name: 'Set a password now' }).click();
  await page.getByTestId('person-password').fill(PASSWORD);
  await page.getByTestId('person-save').click();
  // The profile is checked in the form before anything is sent.
  await expect(page.getByText('Employee code may contain letters, digits and . / - _ only')).toBeVisible();
  await page.getByTestId('person-employeeCode').fill(`FE-${stamp}`);
  await page.getByTestId('person-save').click();
  await expect(page).toHaveURL(/\/field-executives$/);
  await expect(page.getByText('User created successfully')).toBeVisible();
  await page.getByPlaceholder('Search name, contact, code or area').fill(username);
  const row = page.getByRole('row').filter({ hasText: `Faye Field ${stamp}` });
  await expect(row).toContainText('Riverside');
  await expect(row).toContainText('Never');

  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await signInThroughForm(newcomer, username);
  await expect(newcomer).not.toHaveURL(/login/);
  await context.close();

  await row.getByTestId(`assign-${username}`).click();
  await expect(page.getByRole('dialog')).toContainText(`Assign a ticket to Faye Field ${stamp}`);
  await page.getByTestId('assign-ticket-search').fill(ticket.ticketId);
  await page.getByTestId(`assign-ticket-${ticket.id}`).click();
  await page.getByTestId('assign-ticket-confirm').click();
  await expect(page.getByText(`${ticket.ticketId} assigned to Faye Field ${stamp}`)).toBeVisible();
  await expect(row.locator('[data-field="openTickets"]')).toHaveText('1');

  await row.getByRole('link', { name: `Faye Field ${stamp}` }).click();
  await expect(page).toHaveURL(/\/field-executives\/edit\/\d+$/);
  await expect(page.getByTestId('person-tickets')).toContainText(ticket.ticketId);
  await expect(page.getByTestId('person-employeeCode')).toHaveValue(`FE-${stamp}`);
});

test('an admin creates a cluster with its city lead, area head and regional head', async ({ page, signIn }) => {
  const name = `E2E cluster ${Date.now().toString(36)}`;
  await signIn('customeradmin', { next: '/cluster-view' });
  await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('add-cluster').click();
  await expect(page).toHaveURL(/\/cluster-view\/create$/);
  await page.getByTestId('cluster-save').click();
  await expect(page.getByText('Cluster name is required')).toBeVisible();
  await page.getByTestId('cluster-name').fill(name);
  for (const label of ['City lead', 'Area head', 'Regional head']) {
    await page.getByLabel(label).click();
    await page.getByRole('option').first().click();
  }
  await page.getByLabel('Sites').click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('cluster-save').click();
  await expect(page).toHaveURL(/\/cluster-view$/);
  await expect(page.getByText('Cluster created successfully')).toBeVisible();
  await page.getByPlaceholder('Search cluster name').fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  // The list may still re-render for the debounced search: click again until the edit page opens.
  await expect(async () => {
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(/\/cluster-view\/\d+\/edit$/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('cluster-city-lead')).not.toHaveValue('');
  await page.goto('/cluster-view');
  await page.getByPlaceholder('Search cluster name').fill(name);
  // A click while the search's answer redraws the row can be lost: click again until the question shows.
  await expect(async () => {
    await page.getByRole('button', { name: `Delete ${name}` }).click({ timeout: 2_000 });
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Cluster deleted successfully')).toBeVisible();
});

test('a user without the rights sees neither directory nor clusters', async ({ page, signIn }) => {
  await signIn('fieldexecutive', { next: '/field-executives' });
  await expect(page).toHaveURL(/access-denied/, { timeout: 30_000 });
  await page.goto('/cluster-view');
  await expect(page).toHaveURL(/access-denied/, { timeout: 30_000 });
});

test('the directories and clusters work at 390 px', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn('customeradmin', { next: '/store-manager' });
  await expect(page.getByRole('heading', { name: 'Store Managers' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('add-person')).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(1);
  await page.getByTestId('add-person').click();
  await expect(page.getByTestId('person-employeeCode')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(1);
  await page.goto('/infra-admin');
  await expect(page.getByRole('heading', { name: 'Infra Admins' })).toBeVisible();
  await page.goto('/cluster-view');
  await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(1);
  await page.getByTestId('add-cluster').click();
  await expect(page.getByTestId('cluster-name')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(1);
});
