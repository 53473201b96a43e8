import { STORAGE_KEYS } from '@sitewatch/contracts/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { readString, writeString } from '../../lib/storage.ts';

export const COOKIE_CONSENT_ACCEPTED = 'accepted';

/** SPEC 2.17: shown until accepted; the answer is kept under cookie-consent, also across logout. Plain HTML. */
export function CookieConsentBanner() {
  const { t } = useTranslation();
  const [accepted, setAccepted] = useState(() => readString(STORAGE_KEYS.cookieConsent) === COOKIE_CONSENT_ACCEPTED);
  if (accepted) return null;
  const handleAccept = () => {
    writeString(STORAGE_KEYS.cookieConsent, COOKIE_CONSENT_ACCEPTED);
    setAccepted(true);
  };
  return (
    <section className="sw-cookie" aria-label={t('banners.cookiePolicy')} data-testid="cookie-consent">
      <div className="sw-cookie__inner">
        <p className="sw-cookie__text">
          {t('banners.cookieText')}{' '}
          <Link className="sw-link" to="/cookie-policy">
            {t('banners.cookiePolicy')}
          </Link>
        </p>
        <button type="button" className="sw-btn sw-btn--primary" onClick={handleAccept} data-testid="cookie-consent-accept">
          {t('banners.cookieAccept')}
        </button>
      </div>
    </section>
  );
}
