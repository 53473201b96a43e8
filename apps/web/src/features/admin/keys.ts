/** Query keys of the administration screens. */
export const adminKeys = {
  outbox: ['admin', 'outbox'] as const,
  backups: ['admin', 'backups'] as const,
  outboundNetworks: ['admin', 'outbound-networks'] as const,
};
