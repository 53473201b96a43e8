/** Fired on `window` when a send of the outbox changed something on the server: the screens read it again. */
export const OUTBOX_SENT_EVENT = 'sitewatch:outbox-sent';
