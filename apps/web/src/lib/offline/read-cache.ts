import { currentOwner, hasIndexedDb, offlineDb } from './db.ts';
import { offlineAsOf } from './offline-as-of.ts';

/**
 * Copies of the answers a field executive needs at a site without a connection: while online each answer of these
 * reads is kept (per user, replacing the older copy); without a connection the kept copy answers instead, and the
 * app shows how old it is ("as of 09:12").
 */
const KEPT_READS = [
  /^\/helpdesk\/tickets\/\d+\/(comments\/|history\/|attachments\/)?(\?|$)/,
  /^\/helpdesk\/tickets\/(\?|$)/,
  /^\/helpdesk\/config\/$/,
  /^\/helpdesk\/users\//,
  /^\/api\/calendar\//,
  /^\/api\/attendance\/current\/$/,
  /^\/iotapp\/assets\/\?/,
  /^\/ifmapp\/dynamic-form-templates\/(\d+\/(draft\/)?)?(\?|$)/,
  /^\/iotapp\/inventory\/(stores|items|stock)\/(\d+\/)?(\?|$)/,
  /^\/api\/forms\//,
  /^\/iotapp\/forms\//,
];
/** The most copies kept per user; the oldest go first. */
const MAX_COPIES = 400;
export const OFFLINE_COPY_HEADER = 'x-offline-copy';

export const isKeptRead = (url: string) => KEPT_READS.some((pattern) => pattern.test(url));

let writes = 0;

export async function keepCopy(url: string, body: string, owner = currentOwner()) {
  if (!owner || !hasIndexedDb()) return;
  const db = await offlineDb();
  await db.put('reads', { owner, url, body, savedAt: Date.now() });
  if (++writes % 50 === 0) await trim(owner);
}

async function trim(owner: string) {
  const db = await offlineDb();
  const copies = await db.getAllFromIndex('reads', 'owner', owner);
  if (copies.length <= MAX_COPIES) return;
  copies.sort((a, b) => a.savedAt - b.savedAt);
  for (const old of copies.slice(0, copies.length - MAX_COPIES)) await db.delete('reads', [owner, old.url]);
}

export async function readCopy(url: string, owner = currentOwner()) {
  if (!owner || !hasIndexedDb()) return undefined;
  return (await offlineDb()).get('reads', [owner, url]);
}

/** Changes a kept copy in place (an action queued offline shows at once in what the phone reads). */
export async function updateCopy<T>(url: string, change: (value: T) => T) {
  const copy = await readCopy(url);
  if (!copy) return;
  const db = await offlineDb();
  await db.put('reads', { ...copy, body: JSON.stringify(change(JSON.parse(copy.body) as T)) });
}

/** The size of the signed-in user's kept copies and outbox in bytes (text and files), for the outbox screen. */
export async function offlineBytes(owner = currentOwner()) {
  if (!owner || !hasIndexedDb()) return { copies: 0, copyBytes: 0, outboxBytes: 0 };
  const db = await offlineDb();
  const copies = await db.getAllFromIndex('reads', 'owner', owner);
  const actions = await db.getAllFromIndex('outbox', 'owner', owner);
  const copyBytes = copies.reduce((sum, c) => sum + c.url.length + c.body.length, 0);
  const outboxBytes = actions.reduce(
    (sum, a) => sum + JSON.stringify(a.body).length + (a.files ?? []).reduce((n, f) => n + f.blob.size, 0),
    0,
  );
  return { copies: copies.length, copyBytes, outboxBytes };
}

const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** `fetch` that keeps the answers of the kept reads and answers from them when the network fails. */
export function withOfflineCopies(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = urlOf(input);
    if (method !== 'GET' || !isKeptRead(url) || !hasIndexedDb()) return base(input, init);
    const owner = currentOwner();
    try {
      const response = await base(input, init);
      if (response.ok && owner && response.headers.get('content-type')?.includes('application/json')) {
        void response
          .clone()
          .text()
          .then((body) => keepCopy(url, body, owner))
          .catch(() => undefined);
      }
      return response;
    } catch (error) {
      if ((error as { name?: string })?.name === 'AbortError') throw error;
      const copy = await readCopy(url, owner).catch(() => undefined);
      if (!copy) throw error;
      offlineAsOf.served(copy.savedAt);
      return new Response(copy.body, {
        status: 200,
        headers: { 'content-type': 'application/json', [OFFLINE_COPY_HEADER]: new Date(copy.savedAt).toISOString() },
      });
    }
  };
}
