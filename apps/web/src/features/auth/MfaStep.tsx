import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../components/QrCode.tsx';
import { authApi, type LoginResult, type MfaChallenge, type TotpSetup } from './api.ts';
import { loginErrorMessage, loginFailure } from './login-errors.ts';
import { ErrorBox, Field, focusFirstInvalid } from './ui.tsx';

interface Props {
  challenge: MfaChallenge;
  onResult(result: LoginResult): Promise<string | null>;
  onCancel(): void;
}

/** The second factor: a TOTP code, or first its enrolment when the role requires it and the user has none. */
export function MfaStep({ challenge, onResult, onCancel }: Props) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (!challenge.setupRequired || started.current === challenge.mfaToken) return;
    started.current = challenge.mfaToken;
    authApi.startEnrolment(challenge.mfaToken).then(setSetup, (failure: unknown) => setError(loginErrorMessage(failure)));
  }, [challenge]);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(t('login.mfaCodeInvalid'));
      focusFirstInvalid(event.currentTarget as HTMLFormElement);
      return;
    }
    setCodeError(undefined);
    setBusy(true);
    setError(null);
    try {
      const body = { mfaToken: challenge.mfaToken, code };
      const result = challenge.setupRequired ? await authApi.finishEnrolment(body) : await authApi.verifyTotp(body);
      const message = await onResult(result);
      if (message) setError(message);
    } catch (failure) {
      setError(loginFailure(failure));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="login__form" noValidate onSubmit={handleSubmit} data-testid="mfa-step" aria-labelledby="mfa-title">
      <h2 id="mfa-title" className="login__h2">
        {challenge.setupRequired ? t('login.mfaSetupTitle') : t('login.mfaTitle')}
      </h2>
      <p className="login__text">{challenge.setupRequired ? t('login.mfaSetupPrompt') : t('login.mfaPrompt')}</p>
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      {challenge.setupRequired && setup ? (
        <div className="mfa-setup">
          <QrCode value={setup.otpauthUrl} label={t('login.mfaQr')} />
          <div className="mfa-setup__details">
            <span className="mfa-setup__label">{t('login.mfaSecret')}</span>
            <p className="mfa-setup__secret" data-testid="mfa-secret">
              {setup.secret}
            </p>
            <span className="mfa-setup__label">{t('login.mfaOtpauth')}</span>
            <a className="sw-link mfa-setup__url" href={setup.otpauthUrl} data-testid="mfa-otpauth">
              {setup.otpauthUrl}
            </a>
          </div>
        </div>
      ) : null}
      <Field
        label={t('login.mfaCode')}
        name="code"
        inputMode="numeric"
        value={code}
        onValueChange={(value) => setCode(value.replace(/\D/g, '').slice(0, 6))}
        error={codeError}
        autoComplete="one-time-code"
        required
        autoFocus
        disabled={busy}
        maxLength={6}
        testId="mfa-code"
      />
      <button
        type="submit"
        className="sw-btn sw-btn--primary sw-btn--block"
        disabled={busy || (challenge.setupRequired && !setup)}
        data-testid="mfa-submit"
      >
        {busy ? t('login.signingIn') : challenge.setupRequired ? t('login.mfaEnrol') : t('login.mfaVerify')}
      </button>
      <button type="button" className="sw-btn sw-btn--text" onClick={onCancel} disabled={busy}>
        {t('login.startOver')}
      </button>
    </form>
  );
}
