import type { Locator, Page } from '@playwright/test';
import { apiSession, CAPTCHA, expect, PASSWORD, test } from './fixtures.ts';

/** Presses Tab until `target` has the focus, at most `max` times; fails when it never gets it. */
async function tabTo(page: Page, testId: string, max = 5) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.closest(`[data-testid="${id}"]`) !== null, testId)) return;
  }
  throw new Error(`Tab never reached ${testId}`);
}

/** Presses `key` until `target` has the focus, at most `max` times; fails when it never gets it. */
async function pressUntil(page: Page, key: string, target: Locator, max = 30) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`${key} never reached ${target}`);
}

test.describe('keyboard only', () => {
  test('signs in after a wrong password without leaving the keyboard', async ({ page }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 400|status of 401' });
    await page.goto('/auth/login/');
    await expect(page.getByTestId('captcha-image')).toBeVisible();
    await expect(page.getByLabel(/username/i)).toBeFocused();
    await page.keyboard.type('customeradmin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await tabTo(page, 'login-captcha');
    await page.keyboard.type(CAPTCHA);
    await page.keyboard.press('Enter');

    await expect(page.getByTestId('login-error')).toBeVisible();
    // the focus is back on the password, its text selected: typing replaces it
    await expect(page.getByLabel(/^password/i)).toBeFocused();
    await expect(page.getByTestId('captcha-image')).toBeVisible();
    await page.keyboard.type(PASSWORD);
    await tabTo(page, 'login-captcha');
    await expect(page.getByLabel(/captcha/i)).toHaveValue('');
    await page.keyboard.type(CAPTCHA);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.includes('/login'));
  });
});

test.describe('keyboard only, signed in', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('customeradmin');
  });

  test('the ticket grid is one Tab stop: arrows move inside, Enter opens a ticket, Back returns', async ({ page }) => {
    await page.goto('/tickets');
    const grid = page.getByTestId('ticket-table').getByRole('grid');
    await expect(grid.getByTestId('ticket-link').first()).toBeVisible();
    await grid.getByRole('columnheader').first().focus();
    await page.keyboard.press('ArrowDown');
    // The first column is the ticket's id: its link takes the focus with its cell.
    await expect(grid.getByTestId('ticket-link').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    const second = grid.getByTestId('ticket-link').nth(1);
    await expect(second).toBeFocused();
    const id = (await second.textContent())?.trim() ?? '';
    // One Tab leaves the grid, however many tickets it shows.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="grid"]')))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="grid"]')))).toBe(true);
    await second.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(id).first()).toBeVisible();
    await expect(page).not.toHaveURL(/\/tickets\/?$/);
    await page.goBack();
    await expect(grid.getByTestId('ticket-link').first()).toBeVisible();
  });

  test('the asset tree: one Tab stop, arrows, Right to open, Left to close, Home and End, type-ahead', async ({ page }) => {
    await page.goto('/site-summary/dashboard');
    const tree = page.getByRole('tree', { name: 'Asset tree' });
    const items = tree.getByRole('treeitem');
    await expect(items.first()).toBeVisible();
    await items.first().focus();
    // the tree moves the focus after it has drawn the rows: wait for it rather than reading it at once
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-row') ?? null);
    const first = await items.first().getAttribute('data-row');
    await expect.poll(focused).toBe(first);
    // only the active row is in the Tab order
    await expect(tree.locator('[tabindex="0"]')).toHaveCount(1);

    await page.keyboard.press('ArrowRight');
    await expect(items.first()).toHaveAttribute('aria-expanded', 'true');
    // Right moves into the rows under it once they are drawn (they load when the row opens), as a person sees them
    await expect(tree.getByRole('treeitem', { level: 2 }).first()).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).not.toBe(first);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe(first);
    await page.keyboard.press('ArrowLeft');
    await expect(items.first()).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('End');
    await expect.poll(focused).not.toBe(first);
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe(first);
    // type-ahead: the first letters of another top-level row
    const second = items.nth(1);
    const text = (await second.getAttribute('aria-label')) ?? '';
    const target = await second.getAttribute('data-row');
    await page.keyboard.type(text.slice(0, 2));
    await expect.poll(focused).toBe(target);
    await page.keyboard.press('Enter');
    await expect(second).toHaveAttribute('aria-selected', 'true');
  });

  test('a form from the Forms button to a submitted response: a missing rating takes the focus, arrows rate', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const api = await apiSession(baseURL as string, 'customeradmin');
    const name = `keys-${Date.now()}`;
    const made = await api.post('/ifmapp/dynamic-form-templates/', {
      name,
      label: `Keyboard check ${name}`,
      description: 'Filled without a pointer',
      views: ['/tickets'],
      metadata: {
        schema: {
          type: 'object',
          properties: { title: { type: 'string', label: 'Title' }, score: { type: 'rating', label: 'Score' } },
          required: ['title', 'score'],
        },
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const form = (await made.json()) as { id: number; label: string };

    await page.goto('/tickets');
    const fab = page.getByTestId('forms-fab');
    await expect(fab).toBeVisible({ timeout: 30_000 });
    await fab.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await pressUntil(page, 'ArrowDown', page.getByRole('menuitem', { name: form.label }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: form.label })).toBeVisible({ timeout: 30_000 });

    const submit = dialog.getByRole('button', { name: 'Submit' });
    await pressUntil(page, 'Tab', dialog.getByRole('textbox', { name: 'Title' }), 10);
    await page.keyboard.type('Checked by keyboard');
    await pressUntil(page, 'Tab', submit);
    await page.keyboard.press('Enter');
    // the rating is missing: its message shows and the focus is on its stars
    await expect(dialog.getByText('Please Fill all the required fields')).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name') ?? '')).toMatch(/score/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('radio', { name: '2 Stars' })).toBeChecked();
    await expect(dialog.getByText('Please Fill all the required fields')).toHaveCount(0);
    await pressUntil(page, 'Tab', submit);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Response submitted successfully!')).toBeVisible({ timeout: 30_000 });
    await expect(dialog).toHaveCount(0);

    const responses = await (await api.get(`/ifmapp/dynamic-form-templates/${form.id}/responses/`)).json();
    expect(responses.contents[0]).toMatchObject({ data: { title: 'Checked by keyboard', score: 2 } });
    await api.dispose();
  });
});
