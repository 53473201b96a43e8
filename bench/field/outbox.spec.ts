import { writeFileSync } from 'node:fs';
import { apiSession, expect, test } from '../../e2e/fixtures.ts';

/**
 * What the phone keeps for the demo field executive's day without a connection, and how large it is (the kept reads,
 * counted as the outbox screen's offlineBytes() counts them, and the browser's whole use of storage with the
 * precached app); then the time from the connection's return to an empty outbox for 50 queued actions.
 */
test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });

const QUEUED = 50;
type Copy = { owner: string; url: string; body: string; savedAt: number };

const kind = (url: string) =>
  url
    .replace(/\?.*$/, '')
    .replace(/\/\d+\//g, '/{id}/')
    .replace(/\/$/, '/');

test(`kept for offline use, and online → outbox empty for ${QUEUED} actions`, async ({ page, context, signIn, baseURL }, testInfo) => {
  test.setTimeout(600_000);
  testInfo.annotations.push({ type: 'allow-console-errors', description: 'ERR_INTERNET_DISCONNECTED|Failed to load resource|WebSocket' });
  const admin = await apiSession(baseURL as string, 'customeradmin');
  const field = await apiSession(baseURL as string, 'fieldexecutive');
  const site = ((await (await field.get('/iotapp/assets/?limit=1&orderBy=name')).json()).contents as { id: number }[])[0];
  const tickets: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await admin.post('/helpdesk/tickets/', {
      title: `Outbox bench ${Date.now().toString(36)}-${i}`,
      event: 'Power Failure',
      locationId: site?.id,
      assignedTo: field.user.id,
    });
    expect(res.status()).toBe(201);
    tickets.push((await res.json()).id);
  }

  // (a) What the phone keeps: signed in, the app reads the day's work in the background; the screens add theirs.
  await signIn('fieldexecutive', { next: '/attendance' });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.goto('/calendar');
  await page.waitForLoadState('networkidle');
  await page.goto(`/tickets/all/view/?ticketId=${tickets[0]}`);
  await expect(page.getByTestId('ticket-heading')).toBeVisible({ timeout: 30_000 });
  const readCopies = () =>
    page.evaluate(
      () =>
        new Promise<Copy[]>((resolve, reject) => {
          const open = indexedDB.open('sitewatch-offline');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction('reads').objectStore('reads').getAll();
            all.onsuccess = () => resolve(all.result as Copy[]);
          };
        }),
    );
  let copies: Copy[] = [];
  await expect
    .poll(
      async () => {
        const before = copies.length;
        copies = await readCopies();
        return copies.length > 0 && copies.length === before;
      },
      { timeout: 120_000, intervals: [3_000] },
    )
    .toBe(true);
  const owner = `user:${field.user.id}`;
  const mine = copies.filter((c) => c.owner === owner);
  const byKind = new Map<string, { copies: number; bytes: number }>();
  for (const c of mine) {
    const k = kind(c.url);
    const row = byKind.get(k) ?? { copies: 0, bytes: 0 };
    row.copies++;
    row.bytes += c.url.length + c.body.length;
    byKind.set(k, row);
  }
  const copyBytes = mine.reduce((n, c) => n + c.url.length + c.body.length, 0);
  const storage = await page.evaluate(async () => {
    let precache = 0;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) precache += (await (await cache.match(request))?.blob())?.size ?? 0;
    }
    const estimate = await navigator.storage.estimate();
    return { precacheBytes: precache, usage: estimate.usage ?? 0 };
  });
  const kept = {
    copies: mine.length,
    copyBytes,
    byKind: Object.fromEntries([...byKind.entries()].sort((a, b) => b[1].bytes - a[1].bytes)),
    ...storage,
  };
  console.log(`kept for offline use: ${JSON.stringify(kept, null, 1)}`);

  // (b) 50 actions queued offline (comments on five tickets, as the ticket screen queues them), then online.
  await context.setOffline(true);
  await page.evaluate(
    ({ owner, tickets, count }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('sitewatch-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          for (let i = 0; i < count; i++) {
            const id = tickets[i % tickets.length];
            store.add({
              owner,
              key: `outbox-${crypto.randomUUID()}`,
              label: `comment ${i + 1}`,
              kind: 'ticket.comment',
              method: 'POST',
              path: `/helpdesk/tickets/${id}/comments/`,
              body: { text: `Queued note ${i + 1}` },
              subject: `ticket:${id}`,
              performedAt: new Date().toISOString(),
              state: 'waiting',
              reason: null,
              sentAt: null,
            });
          }
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    { owner, tickets, count: QUEUED },
  );
  const emptied = page.evaluate(
    ({ owner }) =>
      new Promise<number>((resolve) => {
        let started = 0;
        window.addEventListener('online', () => {
          started = performance.now();
          const poll = () => {
            const open = indexedDB.open('sitewatch-offline');
            open.onsuccess = () => {
              const all = open.result.transaction('outbox').objectStore('outbox').getAll();
              all.onsuccess = () => {
                const left = (all.result as { owner: string; state: string }[]).filter((r) => r.owner === owner && r.state !== 'sent');
                open.result.close();
                if (left.length === 0) resolve(performance.now() - started);
                else setTimeout(poll, 25);
              };
            };
          };
          poll();
        });
      }),
    { owner },
  );
  await page.waitForTimeout(500);
  await context.setOffline(false);
  const ms = Math.round(await emptied);
  let sent = 0;
  for (const id of tickets) {
    const comments = (await (await admin.get(`/helpdesk/tickets/${id}/comments/?limit=100`)).json()).contents as { text: string }[];
    sent += comments.filter((c) => c.text.startsWith('Queued note')).length;
  }
  const line = { queued: QUEUED, onlineToEmptyMs: ms, perActionMs: Math.round(ms / QUEUED), reachedServer: sent };
  console.log(`online → outbox empty: ${JSON.stringify(line)}`);
  writeFileSync(testInfo.outputPath('outbox-bench.json'), JSON.stringify({ kept, flush: line }, null, 1));
  expect(sent).toBe(QUEUED);
  await admin.dispose();
  await field.dispose();
});
