import { GROUP_MESSAGES } from '@sitewatch/contracts';
import { expect, signInThroughForm, test } from './fixtures.ts';

test('the administrators keep every right, and a system administrator restores their group from /app-admin', async ({
  page,
  signIn,
  browser,
}) => {
  test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 409' });
  await signIn('customeradmin', { next: '/permissions' });
  await page.getByRole('button', { name: /^Administrators/ }).click({ timeout: 30_000 });
  const editor = page.getByTestId('group-editor');
  // the forms and alarm-rule rights are offered like any other
  await expect(editor.getByRole('checkbox', { name: /Can build forms/ })).toBeChecked();
  await expect(editor.getByRole('checkbox', { name: /Can manage alarm rules/ })).toBeChecked();
  await editor.getByRole('checkbox', { name: /Can build forms/ }).uncheck();
  await editor.getByTestId('save-group').click();
  await expect(editor.getByText(GROUP_MESSAGES.lastHolder('Can build forms'))).toBeVisible();
  await editor.getByRole('checkbox', { name: /Can build forms/ }).check();
  await editor.getByRole('checkbox', { name: /Can change group/ }).uncheck();
  await editor.getByTestId('save-group').click();
  await expect(editor.getByText(GROUP_MESSAGES.ownAdministration)).toBeVisible();

  const context = await browser.newContext();
  const sysadmin = await context.newPage();
  await signInThroughForm(sysadmin, 'sysadmin', { next: '/app-admin?tab=rights' });
  const panel = sysadmin.getByTestId('administrator-rights-panel');
  await panel.getByTestId('restore-admin-rights').click();
  await sysadmin.getByTestId('restore-admin-rights-dialog').getByRole('button', { name: 'Restore administrator rights' }).click();
  await expect(sysadmin.getByText(GROUP_MESSAGES.restored)).toBeVisible();
  await expect(panel.getByTestId('restore-admin-rights-result')).toContainText('Administrators');
  await sysadmin.setViewportSize({ width: 390, height: 800 });
  await expect(panel.getByTestId('restore-admin-rights')).toBeInViewport();
  await context.close();
});
