import { expect, test } from './fixtures.ts';

test('results are verified by keyboard, one after another, and counted in the statistics', async ({ page, signIn }) => {
  await signIn('customeradmin', { next: '/result-verification' });
  const item = page.getByTestId('verification-item');
  await expect(item).toBeVisible({ timeout: 30_000 });
  const waiting = async () => Number((await item.getByText(/\d+ waiting/).textContent())?.match(/\d+/)?.[0]);
  const before = await waiting();
  expect(before).toBeGreaterThanOrEqual(3);

  const verdicts: string[] = [];
  for (const keys of [
    ['t', 'Enter'],
    ['f', '2'],
    ['t', 'Enter'],
  ]) {
    const id = await item.getAttribute('data-result-id');
    for (const key of keys) await page.keyboard.press(key);
    // the next result replaces the answered one at once
    await expect(item).not.toHaveAttribute('data-result-id', id ?? '', { timeout: 10_000 });
    verdicts.push(id ?? '');
  }
  await expect.poll(waiting).toBe(before - 3);

  await page.goto('/image-analysis');
  await page.getByRole('combobox', { name: 'Verdict' }).click();
  await page.getByRole('option', { name: 'False positives' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'False positive' }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: /Frame of/ }).first()).toBeVisible();

  await page.goto('/result-analysis');
  await expect(page.getByRole('columnheader', { name: 'False-positive rate' })).toBeVisible();
  await expect(page.getByText(/Often wrong/).first()).toBeVisible();
});

test('a user who may not change tickets is not offered the verification queue', async ({ page, signIn }) => {
  await signIn('customer', { next: '/result-verification' });
  await expect(page).toHaveURL(/access-denied/, { timeout: 30_000 });
});

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the queue and its buttons fit the screen', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/result-verification' });
    const item = page.getByTestId('verification-item');
    await expect(item).toBeVisible({ timeout: 30_000 });
    const truthy = page.getByRole('button', { name: /True positive/ });
    await expect(truthy).toBeVisible();
    const box = await truthy.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});

test('the live panel shows alarms and the verification queue without navigation', async ({ page, signIn }) => {
  await signIn('customeradmin', { next: '/extension' });
  const panel = page.getByTestId('extension-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('region', { name: /Active alarms/ })).toBeVisible();
  await expect(panel.getByRole('region', { name: /Verification queue/ })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
});
