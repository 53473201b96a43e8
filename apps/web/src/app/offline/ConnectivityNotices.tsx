import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { registerServiceWorker } from './service-worker.ts';

/** How long "Back online" stays after the connection returns. */
const BACK_ONLINE_MS = 4000;

type Network = 'online' | 'offline' | 'back';

/**
 * The network banner (browser online/offline events: "You are offline", then "Back online"; the realtime
 * connection reconnects on its own when the browser is back online) and the "new version available" notice of
 * the service worker. Plain HTML, loaded apart from the login page's bundle.
 */
export default function ConnectivityNotices() {
  const { t } = useTranslation();
  const [network, setNetwork] = useState<Network>(() => (navigator.onLine ? 'online' : 'offline'));
  const [update, setUpdate] = useState<(() => void) | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offline = () => {
      clearTimeout(timer);
      setNetwork('offline');
    };
    const online = () => {
      setNetwork((was) => (was === 'offline' ? 'back' : was));
      clearTimeout(timer);
      timer = setTimeout(() => setNetwork('online'), BACK_ONLINE_MS);
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);

  useEffect(() => registerServiceWorker((apply) => setUpdate(() => apply)), []);

  return (
    <div className="sw-notices">
      {network === 'offline' ? (
        <div className="sw-notice sw-notice--offline" role="status" data-testid="network-offline">
          <span className="sw-notice__text">{t('connectivity.offline')}</span>
        </div>
      ) : null}
      {network === 'back' ? (
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
