/** Query keys of the notification inbox. */
export const inboxKeys = {
  all: ['notifications'] as const,
  inbox: ['notifications', 'inbox'] as const,
};
