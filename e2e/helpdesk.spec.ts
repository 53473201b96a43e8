import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiSession, expect, signInThroughForm, test } from './fixtures.ts';

/** A real PNG header with some pixels' worth of bytes: the server decides the type from the content. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 3)]);

/** The cookie banner answered before the app starts, so that it covers no button of these tests. */
async function acceptCookies(page: Page) {
  await page.evaluate(() => localStorage.setItem('cookie-consent', 'accepted'));
  await page.reload();
}

/** Signs in through the form; a server that has just started may fail its first captcha, so try once more. */
async function signIn(page: Page, username: string) {
  try {
    await Promise.race([
      signInThroughForm(page, username),
      page.waitForTimeout(20_000).then(() => Promise.reject(new Error('slow sign-in'))),
    ]);
  } catch {
    await signInThroughForm(page, username);
  }
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('helpdesk', () => {
  // These walk whole flows (sign-in, several pages, uploads, downloads): more than the default minute on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('raise a ticket with an attachment, resolve it and rate it', async ({ page }) => {
    await signIn(page, 'customeradmin');
    await page.goto('/escalation-tickets/create');
    await acceptCookies(page);
    await page.getByTestId('ticket-title').fill('Entrance camera shows no video');
    await chooseOption(page, 'Issue Type', 'Camera Fault');
    await chooseOption(page, 'Priority', 'MAJOR');
    await page.getByTestId('ticket-description').fill('Black screen since the storm last night.');
    // A file over 1 MB is refused in the form with the spec's message; the small one is kept.
    await page.getByTestId('ticket-files').setInputFiles([
      { name: 'too-big.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) },
      { name: 'camera.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(page.getByTestId('file-error')).toContainText('Please Select Attatchment Size less Than 1 MB');
    await page.getByTestId('ticket-submit').click();

    await expect(page).toHaveURL(/\/escalation-tickets\/view\/\?ticketId=\d+/);
    await expect(page.getByText('Ticket created successfully')).toBeVisible();
    await expect(page.getByTestId('ticket-heading')).toHaveText('Entrance camera shows no video');
    const attachment = page.getByTestId('attachment');
    await expect(attachment).toHaveCount(1);
    await expect(attachment).toContainText('camera.png');
    await expect(page.getByTestId('status-chip').first()).toHaveAttribute('data-status', 'OPEN');

    await page.getByTestId('move-RESOLVED').click();
    await page.getByLabel('Note for the history (optional)').fill('Power cycled the NVR');
    await page.getByTestId('status-confirm').click();
    await expect(page.getByTestId('status-chip').first()).toHaveAttribute('data-status', 'RESOLVED');
    await expect(page.getByTestId('ageing-section')).toContainText('Resolved');
    await expect(page.getByTestId('history-list')).toContainText('Power cycled the NVR');

    // Two stars is under the threshold of 3: the rating is saved and raises a follow-up ticket.
    await page.getByTestId('rating-input').locator('label').nth(1).click();
    await page.getByTestId('rating-submit').click();
    await expect(page.getByText('Your rating has been saved')).toBeVisible();
    await expect(page.getByText(/Follow-up ticket TKT-\d+ raised for the low rating/)).toBeVisible();
    await expect(page.getByTestId('rating-value')).toContainText('Follow-up');
  });

  test('export the list as CSV through a background job of the downloads centre', async ({ page, baseURL }) => {
    const admin = await apiSession(baseURL as string, 'customeradmin');
    for (const title of ['Export check one', 'Export check two']) {
      expect((await admin.post('/helpdesk/tickets/', { title, event: 'HVAC' })).status()).toBe(201);
    }
    await admin.dispose();
    await signIn(page, 'customeradmin');
    await page.goto('/tickets/all');
    await acceptCookies(page);
    await expect(page.getByTestId('ticket-table')).toContainText('Export check two', { timeout: 30_000 });
    await page.getByTestId('open-export').click();
    await expect(page.getByText('Export started. Follow it in Downloads.')).toBeVisible();
    await page.goto('/downloads');
    const row = page
      .getByTestId('download-row')
      .filter({ hasText: /^Tickets_\d{4}-\d{2}-\d{2}/ })
      .first();
    await expect(row).toHaveAttribute('data-status', 'ready-to-download', { timeout: 30_000 });
    const download = page.waitForEvent('download');
    await row.getByTestId('download-file').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Tickets_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Ticket ID,Location,Summary,Issue Type,Issue Sub Type,Due Date,Created Date,Priority,Status,City,Asset Type,Entity,Description,Resolved Date,Assigned Date,Acknowledge,Assigned To,Updated Date',
    );
    expect(csv).toContain('Export check one');
    expect(lines.length).toBeGreaterThan(2);
  });

  test('import tickets from a CSV file with a preview first', async ({ page }) => {
    await signIn(page, 'customeradmin');
    await page.goto('/import');
    await acceptCookies(page);
    const csv = [
      'Summary,Issue Type,Priority,Due Date,metadata',
      '  Freezer alarm at store 12 ,HVAC, major ,2031-05-01 09:30,"{""zone"": 3}"',
      'Shutter sensor faulty,Intrusion Alarm,NOPE,,',
    ].join('\n');
    await page.getByTestId('import-file').setInputFiles({ name: 'tickets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const result = page.getByTestId('import-result');
    await expect(result).toContainText('2 row(s) read: 1 valid, 1 with errors.');
    await expect(result).toContainText('Unknown priority: NOPE');
    await expect(result).toContainText('Freezer alarm at store 12');
    await page.getByTestId('import-confirm').click();
    await expect(result).toContainText('1 ticket(s) created from 2 row(s).');
    await result.getByRole('link', { name: /^TKT-\d+$/ }).click();
    await expect(page.getByTestId('ticket-heading')).toHaveText('Freezer alarm at store 12');
    await expect(page.getByTestId('ticket-number')).toContainText('Escalation Tickets');
  });

  test('the list offers its views, filters and remembered columns', async ({ page }) => {
    await signIn(page, 'customeradmin');
    await page.goto('/tickets/all');
    await acceptCookies(page);
    await expect(page.getByTestId('status-card-OPEN')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('status-card-OPEN').click();
    await expect(page).toHaveURL(/status=OPEN/);
    await page.getByTestId('view-compact').click();
    await expect(page.getByTestId('ticket-compact')).toBeVisible();
    await page.getByTestId('view-thumbnail').click();
    await expect(page.getByTestId('ticket-thumbnails')).toBeVisible();
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.getByTestId('open-columns').click();
    await page.getByTestId('columns-dialog').getByLabel('City').check();
    await page.getByTestId('columns-save').click();
    await expect(page.getByRole('columnheader', { name: 'City' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'City' })).toBeVisible();
  });

  test('group by day heads each day with its count over the whole list, while rows stay paged', async ({ page, baseURL }) => {
    // Another user than the other tests', whose remembered list preferences this one changes.
    const word = `grouping${Date.now()}`;
    const user = await apiSession(baseURL as string, 'areahead');
    for (let i = 0; i < 12; i++) {
      expect((await user.post('/helpdesk/tickets/', { title: `${word} check ${i}`, event: 'HVAC' })).status()).toBe(201);
    }
    await user.dispose();
    await signIn(page, 'areahead');
    await page.goto(`/tickets/all?search=${word}&limit=10`);
    await acceptCookies(page);
    await expect(page.getByTestId('ticket-table')).toContainText(`${word} check`, { timeout: 30_000 });
    const groupByDay = page.getByRole('button', { name: 'Group by day' });
    await groupByDay.click();
    const groups = page.getByTestId('ticket-groups');
    await expect(groups.getByTestId('day-group-heading')).toHaveText('Today · 12');
    await expect(groups.getByRole('row')).toHaveCount(11);
    await groupByDay.click();
    await expect(page.getByTestId('ticket-table')).toBeVisible();
  });
});
