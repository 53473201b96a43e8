import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { connection } from '../../lib/offline/connection.ts';
import { discard, type OutboxAction, type OutboxState, resend } from '../../lib/offline/outbox.ts';

const STATE_LABELS: Record<OutboxState, string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  attention: 'Needs attention',
};

/**
 * The outbox: what was done on this phone and whether it has reached the server, with the server's reason for an
 * action it refused and the way out (send again, or discard). A modal dialog: Escape and its Close button close it.
 */
export function OutboxPanel({ items, onClose }: { items: OutboxAction[]; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="sw-outbox" aria-labelledby="outbox-title" onClose={onClose} data-testid="outbox-panel">
      <div className="sw-outbox__head">
        <h2 id="outbox-title" className="sw-outbox__title">
          Outbox
        </h2>
        <button type="button" className="sw-btn" onClick={() => dialog.current?.close()} data-testid="outbox-close">
          Close
        </button>
      </div>
      {items.length === 0 ? (
        <p className="sw-outbox__empty" data-testid="outbox-empty">
          Nothing waiting: everything done on this phone has reached the server.
        </p>
      ) : (
        <ol className="sw-outbox__list">
          {items.map((item) => (
            <li
              key={item.seq}
              className={`sw-outbox__item sw-outbox__item--${item.state}`}
              data-testid="outbox-item"
              data-state={item.state}
            >
              <div className="sw-outbox__label">{item.label}</div>
              <div className="sw-outbox__meta">
                <span className="sw-outbox__state" data-testid="outbox-state">
                  {STATE_LABELS[item.state]}
                </span>
                <span>done {formatDateTime(item.performedAt)}</span>
                {item.sentAt ? <span>sent {formatDateTime(item.sentAt)}</span> : null}
              </div>
              {item.state === 'attention' ? (
                <>
                  <p className="sw-outbox__reason" data-testid="outbox-reason">
                    {item.reason}
                  </p>
                  <div className="sw-outbox__actions">
                    <button
                      type="button"
                      className="sw-btn sw-btn--primary"
                      disabled={!connection.online()}
                      onClick={() => item.seq !== undefined && void resend(item.seq)}
                      data-testid="outbox-resend"
                    >
                      Send again
                    </button>
                    <button
                      type="button"
                      className="sw-btn"
                      onClick={() => item.seq !== undefined && void discard(item.seq)}
                      data-testid="outbox-discard"
                    >
                      Discard
                    </button>
                  </div>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </dialog>
  );
}
