import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { apiSession, expect, signInThroughForm, test } from './fixtures.ts';

/** Waits until the page's push socket said hello, so that an event sent now reaches it. */
async function socketReady(page: Page, open: () => Promise<unknown>) {
  const hello = page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/ws'))
    .then((ws) => ws.waitForEvent('framereceived', (frame) => String(frame.payload).includes('"hello"')));
  await open();
  await hello;
}

/** Calls the API from a browser context with its own session: its cookies and its CSRF token. */
async function contextApi(context: BrowserContext) {
  const page = context.pages()[0] as Page;
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  return {
    post: (url: string, data: unknown) => page.request.post(url, { data, headers: { 'x-csrftoken': csrf } }),
  };
}

const userIdOf = async (baseURL: string, username: string) => {
  const session = await apiSession(baseURL, username);
  const id = session.user.id as number;
  await session.dispose();
  return id;
};

/** The demo starts hundreds of simulated devices with the server: wait until sign-in answers before the first test. */
test.beforeAll(async ({ request }) => {
  await expect.poll(async () => (await request.get('/api/auth/captcha/')).status(), { timeout: 30_000 }).toBe(200);
});

test.describe('notifications', () => {
  test('a ticket assigned in one browser context pops up in another within a second', async ({ page, browser, baseURL }) => {
    const assignee = await userIdOf(baseURL as string, 'infraadmin');
    await socketReady(page, () => signInThroughForm(page, 'infraadmin'));
    // the popup is timed on a page at rest, as a person has it open: the home page has drawn its sections
    await expect(page.getByTestId('home-sections')).toBeVisible();

    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    await signInThroughForm(otherPage, 'sysadmin');
    const api = await contextApi(other);
    // the other context sends with its session alone: its home page is not drawn while the popup is timed
    await otherPage.goto('about:blank');

    // The page notes the moment the card appears (same clock as this process), so the measure does not
    // depend on how often the test polls.
    await page.evaluate(() => {
      const w = window as unknown as { popupShownAt?: Promise<number> };
      w.popupShownAt = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="live-popup"]')) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    });
    const res = await api.post('/helpdesk/tickets/', { title: 'Generator did not start', event: 'Power Failure', assignedTo: assignee });
    // The ticket is assigned once the call returns (the event is sent before the answer).
    const assigned = Date.now();
    expect(res.status()).toBe(201);
    const ticket = await res.json();
    const popup = page.getByTestId('live-popup').filter({ hasText: ticket.ticketId });
    await expect(popup).toBeVisible({ timeout: 1000 });
    const shownAt = await page.evaluate(() => (window as unknown as { popupShownAt: Promise<number> }).popupShownAt);
    expect(shownAt - assigned).toBeLessThan(1000);
    await expect(popup).toContainText(`Ticket ${ticket.ticketId} has been assigned to you: Generator did not start`);

    // Change to Inprogress moves the ticket, then the button says it is done.
    await popup.getByTestId('live-popup-inprogress').click();
    await expect(popup.getByTestId('live-popup-inprogress')).toHaveText('Already In Progress');
    await expect(popup.getByTestId('live-popup-inprogress')).toBeDisabled();
    await expect(page.getByText('Ticket updated successfully')).toBeVisible();

    // Two more (the live demo may add its own alarms meanwhile): collapsed, one card shows; Expand shows all,
    // Close All removes them.
    const more: string[] = [];
    for (const title of ['UPS on battery', 'Door forced open']) {
      const created = await api.post('/helpdesk/tickets/', { title, event: 'Power Failure', assignedTo: assignee });
      expect(created.status()).toBe(201);
      more.push((await created.json()).ticketId);
    }
    const cards = page.getByTestId('live-popup');
    await expect(page.getByTestId('live-popups-count')).toHaveText(/^\d+ new$/);
    await expect(cards).toHaveCount(1);
    await page.getByTestId('live-popups-expand').click();
    for (const id of [ticket.ticketId, ...more]) await expect(cards.filter({ hasText: id })).toHaveCount(1);
    await expect(page.getByTestId('live-popups-expand')).toHaveText('Collapse');
    await page.getByTestId('live-popups-close-all').click();
    await expect(cards).toHaveCount(0);
    await other.close();
  });

  test('the bell counts unread items, marks one read and unread, and marks all as read', async ({ page, baseURL }) => {
    const assignee = await userIdOf(baseURL as string, 'vendor');
    const sysadmin = await apiSession(baseURL as string, 'sysadmin');
    for (const title of ['Fuel below 20%', 'Battery bank low', 'Rectifier alarm']) {
      expect((await sysadmin.post('/helpdesk/tickets/', { title, event: 'Power Failure', assignedTo: assignee })).status()).toBe(201);
    }
    await sysadmin.dispose();

    await signInThroughForm(page, 'vendor');
    // The demo simulator keeps raising alarms on the vendor's sites meanwhile, so counts are compared with the
    // server's at the same moment rather than with fixed numbers.
    const unreadNow = async () => (await (await page.request.get('/notification/inbox/')).json()).unreadCount as number;
    const badge = page.getByTestId('notification-badge');
    const badgeMatchesServer = async () => {
      const count = await unreadNow();
      const invisible = /MuiBadge-invisible/.test((await badge.locator('.MuiBadge-badge').getAttribute('class')) ?? '');
      return count === 0 ? invisible : (await badge.textContent())?.includes(count > 99 ? '99+' : String(count)) === true;
    };
    expect(await unreadNow()).toBeGreaterThanOrEqual(3);
    await expect.poll(badgeMatchesServer).toBe(true);

    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification-item').filter({ hasText: 'Rectifier alarm' }).first();
    await expect(item).toHaveAttribute('data-read', 'false');
    const before = await unreadNow();
    await item.getByTestId('notification-toggle-read').click();
    await expect(item).toHaveAttribute('data-read', 'true');
    await expect.poll(badgeMatchesServer).toBe(true);
    await item.getByTestId('notification-toggle-read').click();
    await expect(item).toHaveAttribute('data-read', 'false');
    await expect.poll(badgeMatchesServer).toBe(true);

    await page.getByTestId('notification-mark-all').click();
    for (const title of ['Fuel below 20%', 'Battery bank low', 'Rectifier alarm']) {
      await expect(page.getByTestId('notification-item').filter({ hasText: title }).first()).toHaveAttribute('data-read', 'true');
    }
    await page.keyboard.press('Escape');
    await expect.poll(badgeMatchesServer).toBe(true);
    expect(await unreadNow()).toBeLessThan(before);
  });
});

test.describe('downloads', () => {
  test('an export runs to completion, is found by search and downloads from /downloads', async ({ page }) => {
    await signInThroughForm(page, 'localadmin');
    await page.goto('/downloads');
    await expect(page.getByTestId('download-button')).toHaveCount(0);
    await page.getByTestId('export-new').click();
    await page.getByTestId('export-source-users').click();
    const row = page
      .getByTestId('download-row')
      .filter({ hasText: /^Users / })
      .first();
    await expect(row).toHaveAttribute('data-status', 'ready-to-download', { timeout: 15_000 });
    await expect(row.getByTestId('download-progress')).toHaveText('100%');
    await expect(row.getByTestId('download-expires')).toContainText('Expires In 2 days 23 hours');
    await expect(page.getByTestId('download-group').first()).toContainText('Today');

    await page.getByTestId('downloads-search').fill('user');
    await expect(row.getByTestId('search-highlight').first()).toHaveText('User');
    await page.getByTestId('downloads-search').fill('no such file');
    await expect(page.getByTestId('downloads-not-found')).toContainText('No downloads found for "no such file".');
    await page.getByTestId('downloads-search').fill('');

    const download = page.waitForEvent('download');
    await row.getByTestId('download-file').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Users .*\.csv$/);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.startsWith('\uFEFFID,Username,First Name,Last Name,Email,Mobile,Roles,Active,Created At\r\n')).toBe(true);
    expect(text).toContain('localadmin@demo.example.com');
    await expect(row).toHaveAttribute('data-status', 'completed');
    await expect(row.getByTestId('download-status')).toHaveText('Downloaded');

    // Elsewhere the top bar shows the download button, whose menu leads back here.
    await page.goto('/');
    await page.getByTestId('download-button').click();
    await page.getByTestId('download-view-all').click();
    await expect(page).toHaveURL(/\/downloads$/);
  });

  test('stops a running export and deletes a finished one, each after a confirmation', async ({ page }) => {
    await signInThroughForm(page, 'sysadmin');
    await page.goto('/downloads');

    // The ticket export reads 100 tickets a page, 500 ms apart (SPEC 9): long enough to be stopped.
    await page.getByTestId('export-new').click();
    await page.getByTestId('export-source-tickets').click();
    // other tests may export tickets in the same minute (same file name): this one is the row that can be stopped
    const running = page
      .getByTestId('download-row')
      .filter({ hasText: /^Tickets / })
      .filter({ has: page.getByTestId('download-stop') })
      .first();
    const name = (await running.getByTestId('download-name').textContent()) as string;
    const sameName = page.getByTestId('download-row').filter({ hasText: name });
    const rowsBefore = await sameName.count();
    await running.getByTestId('download-stop').click();
    const dialog = page.getByTestId('download-confirm');
    await expect(dialog).toContainText(`Stop downloading '${name}'?`);
    await expect(dialog).toContainText('This stops the download and removes the file from the list.');
    await dialog.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByText('Download cancelled')).toBeVisible();
    await expect(sameName).toHaveCount(rowsBefore - 1);

    await page.getByTestId('export-new').click();
    await page.getByTestId('export-source-sign-ins').click();
    const finished = page
      .getByTestId('download-row')
      .filter({ hasText: /^Sign-in log / })
      .first();
    await expect(finished).toHaveAttribute('data-status', 'ready-to-download', { timeout: 15_000 });
    const finishedName = (await finished.getByTestId('download-name').textContent()) as string;
    await finished.getByTestId('download-delete').click();
    await expect(dialog).toContainText(`Delete '${finishedName}'?`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(finished).toBeVisible();
    await finished.getByTestId('download-delete').click();
    await dialog.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('download-row').filter({ hasText: finishedName })).toHaveCount(0);
  });
});
