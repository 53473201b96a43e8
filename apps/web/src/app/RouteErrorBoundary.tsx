import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

const isChunkError = (error: unknown) =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|Failed to fetch|ChunkLoadError/i.test(error.message);

/** The 404 message of the plain pages (an unknown /{role}/login, a route that throws 404). */
export function PlainNotFound() {
  const { t } = useTranslation();
  return (
    <main className="sw-error-page" id="main-content" data-testid="not-found-page">
      <h1>{t('errors.notFoundTitle')}</h1>
      <p>{t('errors.notFoundText')}</p>
      <div className="sw-error-page__actions">
        <Link className="sw-btn sw-btn--primary" to="/">
          {t('app.goHome')}
        </Link>
      </div>
    </main>
  );
}

/** A page that failed: a 404 response, a missing chunk after a deploy, or a bug. Plain HTML: MUI may not be there. */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <PlainNotFound />;
  const chunk = isChunkError(error);
  if (!chunk) console.error(error);
  return (
    <div className="sw-error-page" role="alert" data-testid="route-error">
      <h1>{t('errors.crashTitle')}</h1>
      <p>{chunk ? t('errors.chunkText') : t('errors.crashText')}</p>
      <div className="sw-error-page__actions">
        <button type="button" className="sw-btn sw-btn--primary" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </button>
        <Link className="sw-btn sw-btn--outlined" to="/">
          {t('app.goHome')}
        </Link>
      </div>
    </div>
  );
}
