/** Query keys of the administration screens. */
export const adminKeys = {
  outbox: ['admin', 'outbox'] as const,
};
