import type { MovementInput } from '@sitewatch/contracts/inventory';
import type { ResponseOf } from '../../lib/api.ts';
import { QUEUED_MESSAGE, sendOrQueue } from '../../lib/offline/send-or-queue.ts';

type MoveResult = ResponseOf<'/iotapp/inventory/movements/', 'post'>;

/**
 * Issuing a spare to a ticket works without a connection: the issue waits in the outbox with the time it was done
 * and is refused when it arrives if the store no longer has the stock (it then needs attention, with the reason).
 * Other moves (receiving, transfers, write-offs) are store work, done online.
 */
export async function issueOrQueue(
  input: MovementInput,
  what: { item: string; ticket: string },
): Promise<MoveResult & { queued: boolean }> {
  const amount = input.serials?.length ? input.serials.join(', ') : `${input.quantity ?? 1} ×`;
  const result = await sendOrQueue<MoveResult>({
    kind: 'stock.issue',
    label: `Issue ${amount} ${what.item} to ${what.ticket}`,
    method: 'POST',
    path: '/iotapp/inventory/movements/',
    body: input,
    subject: `stock:${input.itemId}:${input.storeId}`,
  });
  return 'answer' in result ? { ...result.answer, queued: false } : { movements: [], message: QUEUED_MESSAGE, queued: true };
}
