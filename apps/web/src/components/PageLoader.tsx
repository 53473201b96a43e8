import { useTranslation } from 'react-i18next';

/** Shown while a page's code or first data loads (plain CSS, so it costs nothing before MUI loads). */
export function PageLoader({ label, fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className={fullScreen ? 'sw-loader sw-loader--full' : 'sw-loader'}
      role="status"
      aria-label={label ?? t('app.loading')}
      data-testid="page-loader"
    >
      <div className="sw-spinner" aria-hidden="true" />
    </div>
  );
}
