import { useTranslation } from 'react-i18next';
import { Field, RefreshIcon } from './ui.tsx';

export interface CaptchaState {
  id: string;
  /** data: URL of the SVG image. */
  src: string;
}

interface Props {
  captcha: CaptchaState | null;
  loading: boolean;
  value: string;
  error?: string;
  disabled?: boolean;
  onChange(value: string): void;
  onRefresh(): void;
}

/** The captcha image (an SVG shown as a data: image, as the CSP allows) with a refresh button and the answer field. */
export function CaptchaField({ captcha, loading, value, error, disabled, onChange, onRefresh }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <div className="captcha">
        <div className="captcha__image" aria-busy={loading}>
          {captcha && !loading ? (
            <img src={captcha.src} alt={t('login.captchaImage')} data-testid="captcha-image" />
          ) : (
            <div className="skeleton" />
          )}
        </div>
        <button
          type="button"
          className="icon-btn"
          onClick={onRefresh}
          disabled={loading || disabled}
          aria-label={t('login.captchaRefresh')}
          title={t('login.captchaRefresh')}
          data-testid="captcha-refresh"
        >
          <RefreshIcon />
        </button>
      </div>
      <Field
        label={t('login.captcha')}
        name="captcha"
        value={value}
        onValueChange={onChange}
        error={error}
        disabled={disabled}
        required
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={12}
        testId="login-captcha"
      />
    </>
  );
}
