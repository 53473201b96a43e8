import { isHttpError } from '../http.ts';
import { enqueue, type NewAction, newActionKey, sendAction } from './outbox.ts';

export const QUEUED_MESSAGE = 'Saved on this phone: it is sent when the connection returns.';

/**
 * Sends an action now when there is a connection; without one (or when the send reaches nobody) keeps it in the
 * outbox, with the key and the time it was done, for a later send that changes the same thing once.
 */
export async function sendOrQueue<T>(action: NewAction): Promise<{ answer: T } | { queued: true }> {
  const keyed = { ...action, key: action.key ?? newActionKey(), performedAt: action.performedAt ?? new Date().toISOString() };
  if (navigator.onLine) {
    try {
      return { answer: await sendAction<T>(keyed) };
    } catch (error) {
      if (!isHttpError(error) || error.status !== 0) throw error;
    }
  }
  if (!(await enqueue(keyed))) throw new Error('This phone cannot keep changes while offline.');
  return { queued: true };
}
