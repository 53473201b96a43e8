import { http, isHttpError } from '../http.ts';
import { connection } from './connection.ts';
import { currentOwner, hasIndexedDb, type OutboxAction, offlineDb } from './db.ts';
import { OUTBOX_SENT_EVENT } from './events.ts';
import { decide, rebaseVersions } from './outbox-rules.ts';
import { ACTION_TIME_HEADER, IDEMPOTENCY_HEADER, type Sendable } from './wire.ts';

export type { OutboxAction, OutboxState } from './db.ts';

/**
 * The outbox: actions done without a connection, kept on the phone and sent in the order they were done when the
 * connection returns (the browser's `online` event, the next app open, a sign-in). Each carries its idempotency key
 * and the time it was done; an action the server refuses stays as "needs attention" with the server's reason until
 * it is resent or discarded.
 */

export { ACTION_TIME_HEADER, IDEMPOTENCY_HEADER, type Sendable } from './wire.ts';

/** Sent actions stay listed this long, so the user sees them go. */
const KEEP_SENT_MS = 24 * 3600_000;

type Listener = () => void;
const listeners = new Set<Listener>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('sitewatch-outbox');
channel?.addEventListener('message', () => notifyHere());

function notifyHere() {
  for (const fn of listeners) fn();
}
function changed() {
  notifyHere();
  channel?.postMessage('changed');
}

export function subscribeOutbox(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const newActionKey = () => `outbox-${crypto.randomUUID()}`;

/** The signed-in user's actions, oldest first. */
export async function listOutbox(owner = currentOwner()): Promise<OutboxAction[]> {
  if (!owner || !hasIndexedDb()) return [];
  const db = await offlineDb();
  const rows = await db.getAllFromIndex('outbox', 'owner', owner);
  return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

export type NewAction = Omit<OutboxAction, 'seq' | 'owner' | 'state' | 'reason' | 'sentAt' | 'key' | 'performedAt'> &
  Partial<Pick<OutboxAction, 'key' | 'performedAt'>>;

/** Keeps an action for later; false when nobody is signed in or the phone has no IndexedDB. */
export async function enqueue(action: NewAction): Promise<OutboxAction | null> {
  const owner = currentOwner();
  if (!owner || !hasIndexedDb()) return null;
  const row: OutboxAction = {
    ...action,
    key: action.key ?? newActionKey(),
    performedAt: action.performedAt ?? new Date().toISOString(),
    owner,
    state: 'waiting',
    reason: null,
    sentAt: null,
  };
  const db = await offlineDb();
  row.seq = await db.add('outbox', row);
  changed();
  void requestBackgroundSync();
  return row;
}

async function put(row: OutboxAction) {
  await (await offlineDb()).put('outbox', row);
  changed();
}

export async function discard(seq: number) {
  const db = await offlineDb();
  const row = await db.get('outbox', seq);
  if (row && row.owner === currentOwner()) await db.delete('outbox', seq);
  changed();
}

/**
 * Sends an action that needs attention again, as a new request (a new key): a ticket change is based on the
 * ticket as it is now, read first, so a change made meanwhile by someone else is not overwritten unseen.
 */
export async function resend(seq: number) {
  const db = await offlineDb();
  const row = await db.get('outbox', seq);
  if (!row || row.owner !== currentOwner() || row.state !== 'attention') return;
  const body = { ...row.body };
  if (row.kind === 'ticket.update') {
    try {
      const current = await http.get<{ version: number }>(row.path, { toast: false });
      body.version = current.version;
    } catch (error) {
      await put({ ...row, reason: isHttpError(error) && error.detail ? error.detail : 'The ticket could not be read: try again online.' });
      return;
    }
  }
  await put({ ...row, body, key: newActionKey(), state: 'waiting', reason: null });
  await flushOutbox();
}

function requestOf(action: OutboxAction): FormData | Record<string, unknown> {
  if (!action.files?.length) return action.body;
  const form = new FormData();
  for (const [name, value] of Object.entries(action.body)) {
    if (value !== undefined && value !== null) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  for (const file of action.files) form.append(file.field, new File([file.blob], file.name, { type: file.type }));
  return form;
}

/** One send of an action (also used for the first, online try of a change, with the same key and time). */
export async function sendAction<T>(action: Sendable) {
  // Only a form response uploads its files first: that code loads when one is sent.
  const uploaded =
    action.uploadPath && action.files?.length
      ? { ...action, body: await (await import('./upload-files.ts')).uploadFiles({ ...action, uploadPath: action.uploadPath }), files: [] }
      : action;
  return http.request<T>(uploaded.path, {
    method: uploaded.method,
    body: requestOf(uploaded as OutboxAction),
    headers: { [IDEMPOTENCY_HEADER]: uploaded.key, [ACTION_TIME_HEADER]: uploaded.performedAt },
    toast: false,
  });
}

let running: Promise<number> | null = null;

/** Sends the signed-in user's waiting actions in order; one run at a time across the app's tabs. Answers how many were sent. */
export function flushOutbox(): Promise<number> {
  if (running) return running;
  const run = async () => {
    const owner = currentOwner();
    if (!owner || !hasIndexedDb() || !connection.online()) return 0;
    const sent = await sendWaiting(owner);
    if (sent > 0 && typeof window !== 'undefined') window.dispatchEvent(new Event(OUTBOX_SENT_EVENT));
    return sent;
  };
  const locked: Promise<number> =
    typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request('sitewatch-outbox', run) : run();
  running = locked.finally(() => {
    running = null;
  });
  return running;
}

async function sendWaiting(owner: string): Promise<number> {
  let sent = 0;
  const rows = await listOutbox(owner);
  const blocked = new Set(rows.filter((r) => r.state === 'attention').map((r) => r.subject));
  for (const [index, row] of rows.entries()) {
    // 'sending' is an action whose tab closed mid-send: its key makes the repeat safe.
    if (row.state !== 'waiting' && row.state !== 'sending') continue;
    if (currentOwner() !== owner) return sent;
    if (blocked.has(row.subject)) {
      await put({ ...row, state: 'attention', reason: 'An earlier change of the same item needs attention first.' });
      continue;
    }
    await put({ ...row, state: 'sending' });
    let outcome: ReturnType<typeof decide> | { next: 'sent' };
    let answer: unknown = null;
    try {
      answer = await sendAction(row);
      outcome = { next: 'sent' };
    } catch (error) {
      outcome = decide(error);
    }
    if (outcome.next === 'retry') {
      await put({ ...row, state: 'waiting' });
      return sent;
    }
    if (outcome.next === 'attention') {
      blocked.add(row.subject);
      await put({ ...row, state: 'attention', reason: outcome.reason });
      continue;
    }
    await put({ ...row, state: 'sent', sentAt: new Date().toISOString() });
    sent++;
    for (const later of rebaseVersions(row, answer, rows.slice(index + 1))) {
      rows[rows.findIndex((r) => r.seq === later.seq)] = later;
      await put(later);
    }
  }
  await pruneSent(owner);
  return sent;
}

async function pruneSent(owner: string) {
  const db = await offlineDb();
  const old = Date.now() - KEEP_SENT_MS;
  for (const row of await db.getAllFromIndex('outbox', 'owner', owner)) {
    if (row.state === 'sent' && row.sentAt && Date.parse(row.sentAt) < old && row.seq !== undefined) await db.delete('outbox', row.seq);
  }
}

/** Asks the service worker to wake the app when the connection returns (Background Sync, where the browser has it). */
async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register('sitewatch-outbox');
  } catch {
    // no service worker or no Background Sync: the online event and the next app open send the outbox
  }
}
