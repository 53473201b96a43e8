import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { readJson, SESSION_KEYS } from '../storage.ts';

/**
 * The phone's own store for field work without a connection (IndexedDB, which outlives a closed tab, a reload and a
 * restarted phone): the outbox of actions waiting to be sent and the copies of the answers read while online. Every
 * record belongs to one signed-in user (`owner`): another user signing in on the same phone neither sees nor sends
 * it, and an ended session leaves it in place for the same user's next sign-in.
 */

export type OutboxState = 'waiting' | 'sending' | 'sent' | 'attention';

/**
 * A file of an action (a photo), kept as a Blob until the action is sent: as multipart form data with the action,
 * or, for an action with `uploadPath`, uploaded on its own first and then named in the action by what the upload
 * answered (`ref`, the file's place in the answers, becomes the uploaded file's id).
 */
export interface OutboxFile {
  field: string;
  name: string;
  type: string;
  blob: Blob;
  ref?: string;
}

export type OutboxKind =
  | 'ticket.update'
  | 'ticket.comment'
  | 'ticket.rating'
  | 'attendance.check-in'
  | 'attendance.check-out'
  | 'stock.issue'
  | 'form.submit';

export interface OutboxAction {
  seq?: number;
  owner: string;
  /** Sent as Idempotency-Key: a repeat after a lost answer changes nothing. */
  key: string;
  /** What it is, for the outbox list (e.g. "TK-12: move to In Progress"). */
  label: string;
  kind: OutboxKind;
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  files?: OutboxFile[];
  /** Where each file is uploaded before the action is sent (a form's attachments). */
  uploadPath?: string;
  /** The ticket (or other object) it changes: later actions on it wait for this one. */
  subject: string;
  /** When it was done at the site (ISO), sent as X-Action-Time. */
  performedAt: string;
  state: OutboxState;
  /** The server's reason when it needs attention. */
  reason: string | null;
  sentAt: string | null;
}

export interface ReadCopy {
  owner: string;
  url: string;
  body: string;
  savedAt: number;
}

interface OfflineSchema extends DBSchema {
  outbox: { key: number; value: OutboxAction; indexes: { owner: string } };
  reads: { key: [string, string]; value: ReadCopy; indexes: { owner: string } };
}

export const DB_NAME = 'sitewatch-offline';
let opened: Promise<IDBPDatabase<OfflineSchema>> | null = null;

export function offlineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  opened ??= openDB<OfflineSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true }).createIndex('owner', 'owner');
      db.createObjectStore('reads', { keyPath: ['owner', 'url'] }).createIndex('owner', 'owner');
    },
  });
  return opened;
}

export const hasIndexedDb = () => typeof indexedDB !== 'undefined';

/** The signed-in user the phone's records belong to, or null when nobody is signed in. */
export function currentOwner(): string | null {
  const user = readJson<{ id?: number }>(SESSION_KEYS.user);
  return typeof user?.id === 'number' ? `user:${user.id}` : null;
}
