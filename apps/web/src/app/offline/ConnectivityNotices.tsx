import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { connection } from '../../lib/offline/connection.ts';
import { offlineAsOf } from '../../lib/offline/offline-as-of.ts';
import { OutboxPanel } from './OutboxPanel.tsx';
import { registerServiceWorker } from './service-worker.ts';
import { useOutbox, useOutboxSender } from './use-outbox.ts';

/** How long "Back online" stays after the connection returns. */
const BACK_ONLINE_MS = 4000;

/**
 * The network banner ("You are offline", or that the server answers nobody while the phone says it is online; then
 * "Back online"; the realtime connection reconnects on its own when the server can be reached again) and the "new
 * version available" notice of the service worker. Plain HTML, loaded apart from the login page's bundle.
 */
export default function ConnectivityNotices() {
  const { t } = useTranslation();
  const offline = useSyncExternalStore(connection.subscribe, connection.reason);
  const [back, setBack] = useState(false);
  const [update, setUpdate] = useState<(() => void) | null>(null);
  const [outboxOpen, setOutboxOpen] = useState(false);
  /**
   * The oldest kept copy shown since the connection went: what the screens show is "as of" then. Read from the
   * record, not from events: a page opened offline serves its copies before this lazily loaded banner mounts.
   */
  const asOf = useSyncExternalStore(offlineAsOf.subscribe, offlineAsOf.get);
  const outbox = useOutbox();
  useOutboxSender();
  const unsent = outbox.filter((item) => item.state === 'waiting' || item.state === 'sending').length;
  const attention = outbox.filter((item) => item.state === 'attention').length;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopReturn = connection.onReturn(() => {
      setBack(true);
      clearTimeout(timer);
      timer = setTimeout(() => setBack(false), BACK_ONLINE_MS);
    });
    return () => {
      clearTimeout(timer);
      stopReturn();
    };
  }, []);

  useEffect(() => registerServiceWorker((apply) => setUpdate(() => apply)), []);

  return (
    <div className="sw-notices">
      {offline ? (
        <div className="sw-notice sw-notice--offline" role="status" data-testid="network-offline">
          <span className="sw-notice__text">
            {t(offline === 'unreachable' ? 'connectivity.unreachable' : 'connectivity.offline')}
            {asOf !== null ? (
              <span className="sw-notice__asof" data-testid="offline-as-of">
                {' '}
                {t('connectivity.asOf', { time: new Date(asOf).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) })}
              </span>
            ) : null}
          </span>
          {outbox.length > 0 ? (
            <button type="button" className="sw-btn" onClick={() => setOutboxOpen(true)} data-testid="outbox-open">
              {t('connectivity.outboxWaiting', { count: unsent })}
            </button>
          ) : null}
        </div>
      ) : null}
      {!offline && (unsent > 0 || attention > 0) ? (
        <div className={attention > 0 ? 'sw-notice sw-notice--attention' : 'sw-notice'} role="status" data-testid="outbox-notice">
          <span className="sw-notice__text">
            {attention > 0 ? t('connectivity.outboxAttention', { count: attention }) : t('connectivity.outboxSending', { count: unsent })}
          </span>
          <button type="button" className="sw-btn" onClick={() => setOutboxOpen(true)} data-testid="outbox-open">
            {t('connectivity.outbox')}
          </button>
        </div>
      ) : null}
      {outboxOpen ? <OutboxPanel items={outbox} onClose={() => setOutboxOpen(false)} /> : null}
      {back && !offline ? (
        <div className="sw-notice sw-notice--online" role="status" data-testid="network-back">
          <span className="sw-notice__text">{t('connectivity.backOnline')}</span>
        </div>
      ) : null}
      {update ? (
        <div className="sw-notice" role="alert" data-testid="new-version">
          <span className="sw-notice__text">{t('connectivity.newVersion')}</span>
          <button type="button" className="sw-btn sw-btn--primary" onClick={update} data-testid="new-version-reload">
            {t('connectivity.reload')}
          </button>
          <button type="button" className="sw-btn" onClick={() => setUpdate(null)}>
            {t('connectivity.later')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
