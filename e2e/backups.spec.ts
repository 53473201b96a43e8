import { expect, signInThroughForm, submitSignInForm, test } from './fixtures.ts';

test.describe('backups on /app-admin', () => {
  test('a system administrator sees the schedule, starts a backup and sees it made and verified', async ({ page }) => {
    test.setTimeout(240_000);
    await signInThroughForm(page, 'sysadmin');
    await page.goto('/app-admin');
    await page.getByTestId('tab-backups').click();
    await expect(page).toHaveURL(/tab=backups/);
    const panel = page.getByTestId('backups-panel');
    await expect(panel.getByTestId('backup-schedule')).toContainText(/backups go into .*backups|A backup is made every/i);
    await expect(panel.getByText('No backups have been made yet')).toBeVisible();

    await panel.getByTestId('backup-start').click();
    await expect(page.getByText('A backup was started. It appears in the list when it is finished.')).toBeVisible();
    const row = panel.getByTestId('backup-row').first();
    await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 200_000 });
    await expect(row).toContainText('Started by hand');
    await expect(row).toContainText('Verified');
    await expect(row).toContainText(/\d+(\.\d+)? (KiB|MiB|GiB)/);
    await expect(row).toContainText(/sitewatch-backup-\d{4}-\d{2}-\d{2}T/);

    // usable at 390 px: the button stays reachable, the table scrolls within its frame
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(panel.getByTestId('backup-start')).toBeInViewport();
    await panel.getByTestId('backup-start').focus();
    await expect(panel.getByTestId('backup-start')).toBeFocused();
  });

  test("another tenant's system administrator is not offered the installation's backups", async ({ page, baseURL }) => {
    const url = new URL(baseURL as string);
    url.hostname = 'acme.localhost';
    await page.goto(`${url.origin}/auth/login/`);
    await submitSignInForm(page, 'sysadmin');
    await page.waitForURL((u) => !u.pathname.includes('/login'));
    await page.goto(`${url.origin}/app-admin?tab=backups`);
    await expect(page.getByTestId('tab-outbox')).toBeVisible();
    await expect(page.getByTestId('outbox-panel')).toBeVisible();
    await expect(page.getByTestId('tab-backups')).toHaveCount(0);
  });
});
