import type { Page } from '@playwright/test';
import { apiSession, appKeptOnDevice, expect, signInThroughForm, test } from './fixtures.ts';

/**
 * A field executive's day without a connection: a check-in with a photo, a ticket moved to In Progress and Resolved with a
 * comment, a checklist tick and the cost incurred, and a form with a photo are done offline, kept on the phone
 * through a closed tab, and reach the server once each, in order, with the time they were done. A stock issue kept offline survives an ended session: another
 * user signing in on the phone neither sees nor sends it, and it is sent once its user signs in again.
 */
test.describe.configure({ mode: 'default', timeout: 300_000 });
test.use({
  serviceWorkers: 'allow',
  viewport: { width: 390, height: 844 },
  permissions: ['geolocation'],
  geolocation: { latitude: 0, longitude: 0 },
});

type Site = { id: number; name: string; latitude: number | null; longitude: number | null };
type Session = Awaited<ReturnType<typeof apiSession>>;
type HistoryEntry = { action: string; updatedAt: string; performedAt: string | null; changes: { field: string; to: unknown }[] };
type LogEntry = { objectId: string; performedAt: string | null; createdAt?: string; timestamp?: string };

const QUEUED = 'Saved on this phone: it is sent when the connection returns.';
const T = '/ifmapp/dynamic-form-templates';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 5)]);
const OFFLINE_NOISE = 'ERR_INTERNET_DISCONNECTED|Failed to load resource|WebSocket';

async function checkOutWherever(session: Session) {
  const { record } = await (await session.get('/api/attendance/current/')).json();
  if (record) await session.post('/api/attendance/check-out/', { latitude: record.checkIn.latitude, longitude: record.checkIn.longitude });
}

const within = (iso: string | null | undefined, from: number, to: number) => {
  const at = Date.parse(iso ?? '');
  return at >= from && at <= to;
};

async function toastShown(page: Page, text: string) {
  await expect(page.getByText(text).first()).toBeVisible({ timeout: 15_000 });
}

test('a check-in, ticket work (moves, a comment, a checklist tick, a cost) and a form with a photo done offline reach the server once each, in order, with their times', async ({
  page,
  context,
  signIn,
  baseURL,
}, testInfo) => {
  testInfo.annotations.push({ type: 'allow-console-errors', description: OFFLINE_NOISE });
  const admin = await apiSession(baseURL as string, 'customeradmin');
  const field = await apiSession(baseURL as string, 'fieldexecutive');
  await checkOutWherever(field);
  const sites = (await (await field.get('/iotapp/assets/?limit=50&orderBy=name')).json()).contents as Site[];
  const located = sites.filter((s) => s.latitude !== null && s.longitude !== null && !(s.latitude === 0 && s.longitude === 0));
  const checkInSite = located[0] as Site & { latitude: number; longitude: number };
  // The ticket is at another site: a check-in starts the field executive's tickets at its own site.
  const ticketSite = sites.find((s) => s.id !== checkInSite?.id);
  expect(checkInSite && ticketSite, 'two sites of the field executive, one with coordinates').toBeTruthy();
  await context.setGeolocation({ latitude: checkInSite.latitude, longitude: checkInSite.longitude, accuracy: 12 });

  const stamp = Date.now().toString(36);
  const raised = await admin.post('/helpdesk/tickets/', {
    title: `Offline chiller ${stamp}`,
    event: 'Power Failure',
    locationId: ticketSite?.id,
    assignedTo: field.user.id,
    checklist: [{ id: 'valve', text: 'Close the chilled water valve', done: false }],
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const ticket = (await raised.json()) as { id: number; ticketId: string };
  const made = await admin.post(`${T}/`, {
    name: `offline-visit-${stamp}`,
    label: `Site visit ${stamp}`,
    views: ['/tickets'],
    metadata: {
      schema: {
        type: 'object',
        properties: { title: { type: 'string', label: 'Title' }, photos: { type: 'filerenderer', label: 'Photos' } },
        required: ['title'],
      },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const form = (await made.json()) as { id: number };

  // Online: the screens of the day are opened once; the phone keeps what they read.
  await signIn('fieldexecutive', { next: '/attendance' });
  await expect(page.getByTestId('attendance-closed')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Site' }).click();
  await expect(page.getByRole('option', { name: checkInSite.name, exact: true })).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  await page.goto(`/tickets/all/view/?ticketId=${ticket.id}`);
  await expect(page.getByTestId('ticket-heading')).toHaveText(`Offline chiller ${stamp}`, { timeout: 30_000 });
  await page.getByTestId('tab-comments').click();
  await expect(page.getByText('No comments yet.')).toBeVisible();
  await page.goto(`/form/${form.id}/create`);
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeVisible({ timeout: 30_000 });
  await appKeptOnDevice(page);

  const before = Date.now();
  await context.setOffline(true);

  // Check-in at the site, without a connection: the position is read from the phone now.
  await page.goto('/attendance');
  await expect(page.getByTestId('network-offline')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('attendance-closed')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Site' }).click();
  await page.getByRole('option', { name: checkInSite.name, exact: true }).click();
  // with a photo taken on the phone, kept with the check-in until it is sent
  await page.getByTestId('check-in-photo').setInputFiles({ name: 'gate.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('check-in-photo-name')).toHaveText('gate.png');
  await page.getByTestId('check-in').click();
  await toastShown(page, QUEUED);
  await expect(page.getByTestId('attendance-waiting')).toBeVisible();

  // The ticket: In Progress, a comment, Resolved.
  await page.goto(`/tickets/all/view/?ticketId=${ticket.id}`);
  await expect(page.getByTestId('ticket-heading')).toHaveText(`Offline chiller ${stamp}`, { timeout: 30_000 });
  await page.getByTestId('move-INPROGRESS').click();
  await page.getByTestId('status-confirm').click();
  await expect(page.getByTestId('status-dialog')).toBeHidden();
  await page.getByTestId('tab-comments').click();
  await page.getByTestId('comment-input').fill('Compressor restarted, no signal here');
  await page.getByTestId('comment-submit').click();
  await expect(page.getByTestId('comment-input')).toHaveValue('');
  // A checklist tick and the cost incurred, then Resolved.
  // the box shows ticked once the tick is kept on the phone
  await page.getByRole('checkbox', { name: 'Close the chilled water valve' }).click();
  await expect(page.getByRole('checkbox', { name: 'Close the chilled water valve' })).toBeChecked();
  await expect(page.getByTestId('checklist-section')).toContainText('Checklist (1/1)');
  const cost = page.getByTestId('cost-section');
  await cost.getByRole('button', { name: 'Add' }).click();
  await cost.getByTestId('cost-amount').fill('1250');
  await cost.getByTestId('cost-save').click();
  await expect(cost.getByTestId('cost-value')).toContainText('1,250');
  await page.getByTestId('move-RESOLVED').click();
  await page.getByTestId('status-confirm').click();
  await expect(page.getByTestId('status-dialog')).toBeHidden();

  // The visit's form, with a photo kept on the phone.
  await page.goto(`/form/${form.id}/create`);
  await page.getByRole('textbox', { name: 'Title' }).fill('Chiller plant visit', { timeout: 30_000 });
  await page.locator('input[type=file]').setInputFiles({ name: 'chiller.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('chiller.png')).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await toastShown(page, QUEUED);

  // The tab is closed and opened again, still offline: the outbox is all there, in the order the work was done.
  await page.close();
  const reopened = await context.newPage();
  await reopened.goto('/attendance');
  await expect(reopened.getByTestId('attendance-waiting')).toBeVisible({ timeout: 30_000 });
  await reopened.getByTestId('outbox-open').click();
  const panel = reopened.getByTestId('outbox-panel');
  await expect(panel.getByTestId('outbox-item')).toHaveCount(7);
  await expect(panel.getByTestId('outbox-item')).toContainText([
    `Check in at ${checkInSite.name} with a photo`,
    'move to In Progress',
    'comment',
    'checklist (1/1 done)',
    'cost incurred 1250',
    'move to Resolved',
    `Form “Site visit ${stamp}” with 1 attachment`,
  ]);
  await expect(panel.getByTestId('outbox-state')).toHaveText(Array(7).fill('Waiting'));
  await panel.getByTestId('outbox-close').click();
  const after = Date.now();

  await context.setOffline(false);
  const responses = async () => (await (await admin.get(`${T}/${form.id}/responses/`)).json()).contents as Record<string, unknown>[];
  await expect.poll(async () => (await responses()).length, { timeout: 60_000 }).toBe(1);
  await expect(reopened.getByTestId('outbox-notice')).toBeHidden({ timeout: 30_000 });

  // Each reached the server once, with the time it was done; the arrivals follow the order of the work.
  const { record } = await (await field.get('/api/attendance/current/')).json();
  expect(record).toMatchObject({ assetId: checkInSite.id, checkIn: { accuracy: 12 }, photo: true });
  const photo = await admin.get(`/api/attendance/${record.id}/photo/`);
  expect(photo.status()).toBe(200);
  expect((await photo.body()).equals(PNG)).toBe(true);
  expect(within(record.checkInAt, before, after)).toBe(true);
  expect(Date.parse(record.receivedAt.checkIn)).toBeGreaterThan(after);
  const visits = (
    await (
      await field.get(`/api/attendance/?userId=${field.user.id}&assetId=${checkInSite.id}&from=${new Date(before).toISOString()}`)
    ).json()
  ).contents as unknown[];
  expect(visits).toHaveLength(1);

  const history = (
    (await (await admin.get(`/helpdesk/tickets/${ticket.id}/history/?orderBy=updatedAt`)).json()).contents as HistoryEntry[]
  ).filter((h) => h.action !== 'created' && h.changes.some((c) => c.field === 'status'));
  expect(history.map((h) => h.changes.find((c) => c.field === 'status')?.to)).toEqual(['INPROGRESS', 'RESOLVED']);
  for (const entry of history) {
    expect(within(entry.performedAt, before, after)).toBe(true);
    expect(Date.parse(entry.updatedAt)).toBeGreaterThan(after);
  }
  expect(Date.parse(record.receivedAt.checkIn)).toBeLessThanOrEqual(Date.parse(history[0]?.updatedAt ?? ''));
  const comments = (await (await admin.get(`/helpdesk/tickets/${ticket.id}/comments/`)).json()).contents as {
    text: string;
    performedAt: string | null;
  }[];
  expect(comments.map((c) => c.text)).toEqual(['Compressor restarted, no signal here']);
  const done = (await (await admin.get(`/helpdesk/tickets/${ticket.id}/`)).json()) as {
    checklist: { done: boolean; doneAt: string | null }[];
    costIncurred: { amount: number } | null;
  };
  expect(done.checklist[0]?.done).toBe(true);
  expect(within(done.checklist[0]?.doneAt, before, after)).toBe(true);
  expect(done.costIncurred?.amount).toBe(1250);
  expect(within(comments[0]?.performedAt, before, after)).toBe(true);

  const [response] = await responses();
  expect(response).toMatchObject({ data: { title: 'Chiller plant visit' } });
  expect(response?.attachments).toHaveLength(1);
  expect(within(response?.performedAt as string, before, after)).toBe(true);
  expect(Date.parse(response?.createdAt as string)).toBeGreaterThan(Date.parse(history[1]?.updatedAt ?? ''));
  const log = (await (await admin.get('/iotapp/user-activity-logs/?objectType=form-response&action=form-response.create')).json())
    .contents as LogEntry[];
  const submitted = log.find((e) => e.objectId === String(response?.id));
  expect(within(submitted?.performedAt, before, after)).toBe(true);

  await checkOutWherever(field);
  await admin.dispose();
  await field.dispose();
});

test('a stock issue kept offline outlives an ended session, is never seen or sent by another user, and is sent once its user signs in again', async ({
  page,
  context,
  signIn,
  baseURL,
}, testInfo) => {
  testInfo.annotations.push({ type: 'allow-console-errors', description: `${OFFLINE_NOISE}|status of 401` });
  const store = await apiSession(baseURL as string, 'storemanager');
  const stamp = Date.now().toString(36).toUpperCase();
  const stores = (await (await store.get('/iotapp/inventory/stores/')).json()).contents as { id: number; name: string }[];
  const from = stores.find((s) => s.name === 'Central Store') ?? stores[0];
  expect(from, 'a demo store').toBeTruthy();
  const item = await (
    await store.post('/iotapp/inventory/items/', {
      code: `E2E-OFF-${stamp}`,
      name: `Offline fuse ${stamp}`,
      tracking: 'QUANTITY',
      unit: 'pcs',
    })
  ).json();
  expect(
    (await store.post('/iotapp/inventory/movements/', { kind: 'RECEIVE', itemId: item.id, storeId: from?.id, quantity: 4 })).ok(),
  ).toBe(true);
  const ticket = await (await store.post('/helpdesk/tickets/', { title: `Fuse blown ${stamp}`, event: 'Power Failure' })).json();
  const issues = async () =>
    (await (await store.get(`/iotapp/inventory/movements/?ticketId=${ticket.id}&kind=ISSUE`)).json()).contents as {
      quantity: number;
      performedAt: string | null;
      createdAt: string;
    }[];

  const openIssue = async () => {
    await page.getByTestId('item-move').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'What happens' }).click();
    await page.getByTestId('move-kind-ISSUE').click();
    await dialog.getByLabel('From store').click();
    await page.getByRole('option', { name: from?.name, exact: true }).click();
    await dialog.getByTestId('move-ticket').fill(ticket.ticketId);
    await page.getByRole('option', { name: new RegExp(ticket.ticketId) }).click();
    return dialog;
  };

  // Online: the item and the ticket are looked up once (the phone keeps what it read).
  await signIn('storemanager', { next: `/inventory-management/${item.id}/view` });
  await expect(page.getByRole('heading', { name: item.name })).toBeVisible({ timeout: 30_000 });
  await (await openIssue()).getByRole('button', { name: 'Cancel' }).click();
  await appKeptOnDevice(page);

  const before = Date.now();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: item.name })).toBeVisible({ timeout: 30_000 });
  const dialog = await openIssue();
  await dialog.getByTestId('move-quantity').fill('3');
  await dialog.getByTestId('move-note').fill('Fuses for the pump panel');
  await dialog.getByTestId('move-note').press('Enter');
  await toastShown(page, QUEUED);

  // The session ends while offline (the sign-in expired): the outbox stays on the phone.
  await page.evaluate(() => {
    localStorage.setItem('access', 'expired');
    localStorage.setItem('refresh', 'expired');
  });
  await context.clearCookies();
  // Some time passes offline: the app reads its tokens again and finds them ended.
  await page.waitForTimeout(2_000);
  const after = Date.now();
  await context.setOffline(false);
  await page.waitForURL(/\/login/, { timeout: 30_000 });
  expect(await issues()).toHaveLength(0);

  // Another user signs in on the phone: they see no outbox, and nothing of the first user's is sent.
  await signInThroughForm(page, 'fieldexecutive');
  await expect(page.getByTestId('outbox-notice')).toHaveCount(0);
  // The first user's issue is on the phone, and this user's outbox is empty: offline, there is nothing to open.
  const kept = await page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('sitewatch-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () => resolve((all.result as { owner: string }[]).map((r) => r.owner));
        };
      }),
  );
  expect(kept).toEqual([`user:${store.user.id}`]);
  await context.setOffline(true);
  await expect(page.getByTestId('network-offline')).toBeVisible();
  await expect(page.getByTestId('outbox-open')).toHaveCount(0);
  await context.setOffline(false);
  await page.waitForTimeout(3_000);
  expect(await issues()).toHaveLength(0);

  // The first user signs in again: their issue is sent, once, with the time it was done.
  await page.evaluate(() => localStorage.clear());
  await context.clearCookies();
  await signInThroughForm(page, 'storemanager', { next: `/inventory-management/${item.id}/view` });
  await expect.poll(async () => (await issues()).length, { timeout: 60_000 }).toBe(1);
  const [issued] = await issues();
  expect(issued?.quantity).toBe(3);
  expect(within(issued?.performedAt, before, after)).toBe(true);
  expect(Date.parse(issued?.createdAt ?? '')).toBeGreaterThan(after);
  await page.waitForTimeout(2_000);
  expect(await issues()).toHaveLength(1);
  await store.dispose();
});
