import { LOGIN_MESSAGES } from '@sitewatch/contracts/messages';
import type { LoginRole } from '@sitewatch/contracts/roles';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { svgDataUrl } from '../../lib/svg.ts';
import { authApi, type LoginResult } from './api.ts';
import { CaptchaField, type CaptchaState } from './CaptchaField.tsx';
import { loginFailure } from './login-errors.ts';
import { ErrorBox, Field, focusFirstInvalid, PasswordField } from './ui.tsx';

interface Props {
  role: LoginRole;
  onResult(result: LoginResult): Promise<string | null>;
}

const CAPTCHA_ATTEMPTS = 3;
const CAPTCHA_RETRY_MS = 1000;

/** Username, password and captcha (SPEC 2.1). Every failure fetches a new captcha. */
export function PasswordLoginForm({ role, onResult }: Props) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captcha, setCaptcha] = useState<CaptchaState | null>(null);
  const [captchaLoading, setCaptchaLoading] = useState(true);
  const [answer, setAnswer] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string; captcha?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const captchaRequest = useRef(0);
  const form = useRef<HTMLFormElement>(null);
  // After a refused sign-in the focus goes back to the password (the fields were disabled while it was sent, which
  // would leave the focus on the page itself), so the next Tab reaches the new captcha.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0 || busy) return;
    const field = form.current?.querySelector<HTMLInputElement>('input[name="password"]');
    field?.focus();
    field?.select();
  }, [refusals, busy]);

  const loadCaptcha = useCallback(async () => {
    const request = ++captchaRequest.current;
    setCaptchaLoading(true);
    setAnswer('');
    try {
      // A busy or restarting server gets a few more tries before the user is told.
      for (let attempt = 1; ; attempt++) {
        try {
          const next = await authApi.captcha();
          if (request === captchaRequest.current) {
            setCaptcha({ id: next.captchaId, src: svgDataUrl(next.image) });
            setError((shown) => (shown === LOGIN_MESSAGES.captchaGenerationFailed ? null : shown));
          }
          return;
        } catch (failure) {
          if (attempt >= CAPTCHA_ATTEMPTS || request !== captchaRequest.current) throw failure;
          await new Promise((resolve) => setTimeout(resolve, CAPTCHA_RETRY_MS));
        }
      }
    } catch {
      if (request === captchaRequest.current) {
        setCaptcha(null);
        setError(LOGIN_MESSAGES.captchaGenerationFailed);
      }
    } finally {
      if (request === captchaRequest.current) setCaptchaLoading(false);
    }
  }, []);

  useEffect(() => {
    void loadCaptcha();
  }, [loadCaptcha]);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      username: username.trim() ? undefined : t('login.usernameRequired'),
      password: password ? undefined : t('login.passwordRequired'),
      captcha: answer.trim() ? undefined : t('login.captchaRequired'),
    };
    setFieldErrors(errors);
    if (errors.username || errors.password || errors.captcha) {
      focusFirstInvalid(event.currentTarget as HTMLFormElement);
      return;
    }
    if (!captcha) {
      setError(LOGIN_MESSAGES.captchaGenerationFailed);
      void loadCaptcha();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await authApi.passwordLogin({
        username: username.trim(),
        password,
        captchaId: captcha.id,
        captcha: answer.trim(),
        role,
      });
      const message = await onResult(result);
      if (message) {
        setError(message);
        setRefusals((n) => n + 1);
        void loadCaptcha();
      }
    } catch (failure) {
      setError(loginFailure(failure));
      setRefusals((n) => n + 1);
      void loadCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} className="login__form" noValidate onSubmit={handleSubmit} data-testid="password-login-form">
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      <Field
        label={t('login.username')}
        name="username"
        value={username}
        onValueChange={setUsername}
        error={fieldErrors.username}
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        required
        autoFocus
        disabled={busy}
        maxLength={150}
        testId="login-username"
      />
      <PasswordField
        label={t('login.password')}
        name="password"
        value={password}
        onValueChange={setPassword}
        error={fieldErrors.password}
        autoComplete="current-password"
        required
        disabled={busy}
        maxLength={128}
        testId="login-password"
        showLabel={t('login.showPassword')}
        hideLabel={t('login.hidePassword')}
      />
      <CaptchaField
        captcha={captcha}
        loading={captchaLoading}
        value={answer}
        error={fieldErrors.captcha}
        disabled={busy}
        onChange={setAnswer}
        onRefresh={() => {
          setError(null);
          void loadCaptcha();
        }}
      />
      <button type="submit" className="sw-btn sw-btn--primary sw-btn--block" disabled={busy} data-testid="login-submit">
        {busy ? t('login.signingIn') : t('login.submit')}
      </button>
    </form>
  );
}
