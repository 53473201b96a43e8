import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-client.ts';
import type { OutboxAction } from './db.ts';
import { decide, rebaseVersions } from './outbox-rules.ts';

const action = (seq: number, body: Record<string, unknown>, extra: Partial<OutboxAction> = {}): OutboxAction => ({
  seq,
  owner: 'user:7',
  key: `outbox-${seq}-key`,
  label: `action ${seq}`,
  kind: 'ticket.update',
  method: 'PUT',
  path: '/helpdesk/tickets/5/',
  body,
  subject: 'ticket:5',
  performedAt: '2026-03-01T09:12:00.000Z',
  state: 'waiting',
  reason: null,
  sentAt: null,
  ...extra,
});

describe('decide', () => {
  it('tries again later when the send reached nobody, the server failed, the session ended or the first send still runs', () => {
    expect(decide(new HttpError(0, 'No connection', null, '/x'))).toEqual({ next: 'retry' });
    expect(decide(new HttpError(503, 'Unavailable', null, '/x'))).toEqual({ next: 'retry' });
    expect(decide(new HttpError(401, 'Unauthorized', { detail: 'Session ended' }, '/x'))).toEqual({ next: 'retry' });
    expect(decide(new HttpError(409, 'Conflict', { detail: 'wait', code: 'idempotency_in_progress' }, '/x'))).toEqual({ next: 'retry' });
    expect(decide(new TypeError('Failed to fetch'))).toEqual({ next: 'retry' });
  });

  it('keeps a refusal for the user with the server’s reason', () => {
    const closed = new HttpError(
      409,
      'Conflict',
      { detail: 'This ticket was changed by someone else meanwhile.', code: 'stale_version' },
      '/x',
    );
    expect(decide(closed)).toEqual({ next: 'attention', reason: 'This ticket was changed by someone else meanwhile.' });
    expect(decide(new HttpError(403, 'Forbidden', null, '/x'))).toEqual({ next: 'attention', reason: 'Forbidden' });
  });
});

describe('rebaseVersions', () => {
  it('leaves later changes alone when the ticket reached the predicted version', () => {
    expect(rebaseVersions(action(1, { version: 3, status: 'INPROGRESS' }), { version: 4 }, [action(2, { version: 4 })])).toEqual([]);
  });

  it('moves later changes of the same ticket by the step the server took beyond the prediction', () => {
    const later = [
      action(2, { version: 4, status: 'RESOLVED' }),
      action(3, { version: 4 }, { subject: 'ticket:6' }),
      action(4, { text: 'comment' }, { kind: 'ticket.comment' }),
      action(5, { version: 5, status: 'CLOSED' }, { state: 'attention' }),
    ];
    const moved = rebaseVersions(action(1, { version: 3, status: 'INPROGRESS' }), { version: 6 }, later);
    expect(moved.map((r) => [r.seq, r.body.version])).toEqual([[2, 6]]);
  });
});
