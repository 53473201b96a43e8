import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Portal from '@mui/material/Portal';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PushEnvelope } from '@sitewatch/contracts/notifications';
import { type InboxItem, NOTIFICATION_EVENTS, NOTIFICATION_MESSAGES } from '@sitewatch/contracts/notifications';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useRealtimeHandler } from '../../lib/realtime.ts';
import { PopupCard } from './PopupCard.tsx';
import { addPopup, type PopupCard as Card, removePopup, tickPopups } from './popup-queue.ts';
import { useDialogOpen } from './use-dialog-open.ts';

const TICK_MS = 250;

interface Props {
  enabled: boolean;
  /** null: popups stay until closed. */
  autoCloseMs: number | null;
  /** New unread items found by polling while the socket was down. */
  polled: InboxItem[];
  onView(item: InboxItem): void;
}

/**
 * Live popup cards for new notifications (SPEC 2.7, 4): newest on top, closing by themselves after their time
 * (staggered by position) unless the pointer is over them or a live or recording dialog is open. With more than
 * one, Expand/Collapse and Close All appear.
 */
export function LivePopups({ enabled, autoCloseMs, polled, onView }: Props) {
  const [cards, setCards] = useState<Card[]>([]);
  const [expanded, setExpanded] = useState(false);
  const [hovered, setHovered] = useState(false);
  const dialogOpen = useDialogOpen();
  const seen = useRef(new Set<number>());

  const show = useCallback(
    (item: InboxItem) => {
      if (!enabled || item.isRead || seen.current.has(item.id)) return;
      seen.current.add(item.id);
      setCards((current) => addPopup(current, item, autoCloseMs));
    },
    [enabled, autoCloseMs],
  );
  useRealtimeHandler(
    NOTIFICATION_EVENTS.created,
    useCallback((envelope: PushEnvelope) => show(envelope.data as InboxItem), [show]),
  );
  useEffect(() => {
    for (const item of polled) show(item);
  }, [polled, show]);
  useEffect(() => {
    if (!enabled) setCards([]);
  }, [enabled]);

  const paused = hovered || dialogOpen;
  useEffect(() => {
    if (paused || cards.length === 0) return;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      // Measured here, not inside the updater: React may run the updater after `last` has moved on.
      const elapsed = now - last;
      last = now;
      setCards((current) => tickPopups(current, elapsed));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [paused, cards.length]);
  useEffect(() => {
    if (cards.length <= 1) setExpanded(false);
  }, [cards.length]);
  // A card that closes under the pointer can take the whole region away without a mouseleave: ask the browser
  // whether the pointer is still over what remains, so the countdown does not stay paused for good.
  const region = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (cards.length === 0) setHovered(false);
    else if (region.current && !region.current.matches(':hover')) setHovered(false);
  }, [cards.length]);

  if (cards.length === 0) return null;
  const newestFirst = [...cards].reverse();
  const visible = expanded ? newestFirst : newestFirst.slice(0, 1);
  const close = (item: InboxItem) => setCards((current) => removePopup(current, item.id));
  // In a portal: the top bar's stacking context would otherwise keep the cards under page overlays.
  return (
    <Portal>
      <Box
        ref={region}
        role="region"
        aria-label="Live notifications"
        aria-live="polite"
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        data-testid="live-popups"
        data-paused={paused ? 'true' : 'false'}
        sx={(theme) => ({
          position: 'fixed',
          right: 16,
          bottom: 16,
          zIndex: theme.zIndex.snackbar + 1,
          maxHeight: 'calc(100vh - 96px)',
          overflowY: 'auto',
          // A phone's dialogs fill the screen: the cards wait under them instead of covering their actions.
          [theme.breakpoints.down('sm')]: { zIndex: theme.zIndex.modal - 1 },
        })}
      >
        <Stack spacing={1} sx={{ alignItems: 'flex-end' }}>
          {cards.length > 1 ? (
            <Paper
              elevation={4}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 0.5, width: 340, maxWidth: 'calc(100vw - 32px)' }}
            >
              <Typography variant="caption" sx={{ flex: 1 }} data-testid="live-popups-count">
                {cards.length} new
              </Typography>
              <Button size="small" onClick={() => setExpanded((v) => !v)} data-testid="live-popups-expand">
                {expanded ? NOTIFICATION_MESSAGES.collapse : NOTIFICATION_MESSAGES.expand}
              </Button>
              <Button size="small" color="inherit" onClick={() => setCards([])} data-testid="live-popups-close-all">
                {NOTIFICATION_MESSAGES.closeAll}
              </Button>
            </Paper>
          ) : null}
          {visible.map((card) => (
            <PopupCard
              key={card.item.id}
              item={card.item}
              onClose={close}
              onView={(item) => {
                close(item);
                onView(item);
              }}
            />
          ))}
        </Stack>
      </Box>
    </Portal>
  );
}
