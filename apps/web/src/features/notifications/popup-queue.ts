import type { InboxItem } from '@sitewatch/contracts/notifications';

export interface PopupCard {
  item: InboxItem;
  /** Time left before it closes by itself (null: it stays until closed). */
  remainingMs: number | null;
}

/** More than this and the oldest card makes room. */
export const MAX_POPUPS = 20;

/**
 * SPEC 9: popups close after 10 s, staggered by position: a card arriving while others are shown waits its turn
 * (second card 20 s, third 30 s, ...), so a burst does not vanish at once.
 */
export function addPopup(cards: PopupCard[], item: InboxItem, autoCloseMs: number | null): PopupCard[] {
  if (cards.some((c) => c.item.id === item.id)) return cards;
  const next = [...cards, { item, remainingMs: autoCloseMs === null ? null : autoCloseMs * (cards.length + 1) }];
  return next.length > MAX_POPUPS ? next.slice(next.length - MAX_POPUPS) : next;
}

/** Counts down every card by the time that passed; drops those whose time is up. */
export function tickPopups(cards: PopupCard[], elapsedMs: number): PopupCard[] {
  let changed = false;
  const next: PopupCard[] = [];
  for (const card of cards) {
    if (card.remainingMs === null) {
      next.push(card);
      continue;
    }
    changed = true;
    const remainingMs = card.remainingMs - elapsedMs;
    if (remainingMs > 0) next.push({ ...card, remainingMs });
  }
  return changed ? next : cards;
}

export const removePopup = (cards: PopupCard[], id: number) => cards.filter((c) => c.item.id !== id);

/** SPEC 6: live popups need both the customer setting and the user's own flag. */
export const popupsEnabled = (livePopup: boolean | undefined, userPopup: boolean | undefined) => livePopup !== false && userPopup !== false;
