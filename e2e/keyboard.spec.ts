import type { Page } from '@playwright/test';
import { CAPTCHA, expect, PASSWORD, test } from './fixtures.ts';

/** Presses Tab until `target` has the focus, at most `max` times; fails when it never gets it. */
async function tabTo(page: Page, testId: string, max = 5) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.closest(`[data-testid="${id}"]`) !== null, testId)) return;
  }
  throw new Error(`Tab never reached ${testId}`);
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
});
