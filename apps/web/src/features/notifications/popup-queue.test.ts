import type { InboxItem } from '@sitewatch/contracts/notifications';
import { describe, expect, it } from 'vitest';
import { addPopup, MAX_POPUPS, popupsEnabled, removePopup, tickPopups } from './popup-queue.ts';

const item = (id: number): InboxItem => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  isRead: false,
  createdAt: new Date(0).toISOString(),
  notification: {
    verb: 'ticket.assigned',
    message: `m${id}`,
    actor: null,
    metadata: {
      url: '/x',
      urlMask: '/x',
      data: {
        id,
        priority: null,
        event: null,
        status: null,
        type: null,
        additionalInformation: { assetLabel: null },
        entityId: null,
        locationId: null,
      },
    },
  },
});

describe('live popup queue', () => {
  it('staggers the auto-close by position and closes each in turn', () => {
    let cards = [1, 2, 3].reduce((acc, id) => addPopup(acc, item(id), 10_000), [] as ReturnType<typeof addPopup>);
    expect(cards.map((c) => c.remainingMs)).toEqual([10_000, 20_000, 30_000]);
    cards = tickPopups(cards, 10_000);
    expect(cards.map((c) => c.item.id)).toEqual([2, 3]);
    cards = tickPopups(cards, 10_000);
    expect(cards.map((c) => c.item.id)).toEqual([3]);
    expect(tickPopups(cards, 10_000)).toEqual([]);
  });

  it('keeps cards without auto-close, ignores duplicates and caps the stack', () => {
    let cards = addPopup([], item(1), null);
    cards = addPopup(cards, item(1), null);
    expect(tickPopups(cards, 60_000)).toHaveLength(1);
    for (let i = 2; i < 40; i++) cards = addPopup(cards, item(i), null);
    expect(cards).toHaveLength(MAX_POPUPS);
    expect(removePopup(cards, 39).some((c) => c.item.id === 39)).toBe(false);
  });

  it('needs both the customer setting and the user flag', () => {
    expect(popupsEnabled(true, true)).toBe(true);
    expect(popupsEnabled(false, true)).toBe(false);
    expect(popupsEnabled(true, false)).toBe(false);
  });
});
