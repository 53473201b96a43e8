import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { adminKeys } from './keys.ts';

export interface OutboxMessage {
  id: number;
  to: string;
  body: string;
  createdAt: string;
}

const OUTBOX_REFRESH_MS = 10_000;

/** GET /api/auth/outbox/ (system admin): the SMS the platform sent, newest first. */
export function useOutbox() {
  return useQuery({
    queryKey: adminKeys.outbox,
    queryFn: () => api.get('/api/auth/outbox/'),
    refetchInterval: OUTBOX_REFRESH_MS,
  });
}
