import { useEffect, useState } from 'react';
import { keepOpenTicketsForOffline } from '../../features/helpdesk/tickets/offline-reads.ts';
import { connection } from '../../lib/offline/connection.ts';
import { flushOutbox, listOutbox, type OutboxAction, subscribeOutbox } from '../../lib/offline/outbox.ts';
import { getUser, hasRole, permissionsOf, subscribeSession } from '../../lib/session.ts';

/** The signed-in user's outbox, read again whenever it changes (in this tab or another) or the user changes. */
export function useOutbox(): OutboxAction[] {
  const [items, setItems] = useState<OutboxAction[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      void listOutbox()
        .then((rows) => {
          if (live) setItems(rows);
        })
        .catch(() => undefined);
    read();
    const stopOutbox = subscribeOutbox(read);
    const stopSession = subscribeSession(read);
    return () => {
      live = false;
      stopOutbox();
      stopSession();
    };
  }, []);
  return items;
}

/**
 * Sends the outbox when the app opens, when the server can be reached again, after a sign-in and when the service worker asks;
 * then refreshes what a field executive keeps for offline use.
 */
export function useOutboxSender() {
  useEffect(() => {
    const send = () =>
      void flushOutbox()
        .catch(() => undefined)
        .then(() => {
          // A field executive's day is kept on the phone, read again now and then while online: with the stock of
          // their stores when they may see the inventory.
          const user = getUser();
          if (!connection.online() || !hasRole(user, 'fieldexecutive')) return;
          // (loaded here, not with the app shell: the inventory's contracts would weigh on the sign-in page)
          return keepOpenTicketsForOffline()
            .then(() => import('../../features/inventory/offline-reads.ts'))
            .then(({ keepStockForOfflineIfAllowed }) => keepStockForOfflineIfAllowed(permissionsOf(user)));
        });
    send();
    const fromWorker = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'OUTBOX_SYNC') send();
    };
    const stopReturn = connection.onReturn(send);
    const stopSession = subscribeSession(send);
    navigator.serviceWorker?.addEventListener('message', fromWorker);
    // A change left waiting by a failed send (the server was down) is tried again now and then.
    const timer = setInterval(send, 60_000);
    return () => {
      stopReturn();
      stopSession();
      navigator.serviceWorker?.removeEventListener('message', fromWorker);
      clearInterval(timer);
    };
  }, []);
}
