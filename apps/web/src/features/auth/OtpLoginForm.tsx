import { LOGIN_MESSAGES } from '@sitewatch/contracts/messages';
import type { LoginRole } from '@sitewatch/contracts/roles';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cleanMobile, isMobileNumber, mobileHint } from '../../lib/mobile.ts';
import { toast } from '../../lib/toasts.ts';
import { authApi, type LoginResult } from './api.ts';
import { loginFailure } from './login-errors.ts';
import { ErrorBox, Field, focusFirstInvalid } from './ui.tsx';

const OTP = /^\d{6}$/;
const RESEND_AFTER_S = 30;

interface Props {
  role: LoginRole;
  onResult(result: LoginResult): Promise<string | null>;
}

/** Mobile number and a one-time code sent by SMS (SPEC 2.1). */
export function OtpLoginForm({ role, onResult }: Props) {
  const { t } = useTranslation();
  const [mobile, setMobile] = useState('');
  const [otp, setOtp] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ mobile?: string; otp?: string }>({});
  const [cooldown, setCooldown] = useState(0);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const send = async () => {
    const number = cleanMobile(mobile);
    if (!isMobileNumber(number)) {
      setFieldError({ mobile: mobileHint() });
      return;
    }
    setFieldError({});
    setBusy(true);
    setError(null);
    try {
      const result = await authApi.sendOtp({ mobile: number, role });
      toast.success(result?.message || LOGIN_MESSAGES.otpSent);
      setSent(true);
      setOtp('');
      setCooldown(RESEND_AFTER_S);
    } catch (failure) {
      setError(loginFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  const verify = async () => {
    if (!OTP.test(otp.trim())) {
      setFieldError({ otp: t('login.otpInvalid') });
      return;
    }
    setFieldError({});
    setBusy(true);
    setError(null);
    try {
      const message = await onResult(await authApi.verifyOtp({ mobile: cleanMobile(mobile), otp: otp.trim(), role }));
      if (message) setError(message);
    } catch (failure) {
      setError(loginFailure(failure));
      setOtp('');
    } finally {
      setBusy(false);
    }
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    void (sent ? verify() : send()).then(() => focusFirstInvalid(form));
  };

  return (
    <form className="login__form" noValidate onSubmit={handleSubmit} data-testid="otp-login-form">
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      <Field
        label={t('login.mobile')}
        name="mobile"
        type="tel"
        inputMode="tel"
        value={mobile}
        onValueChange={setMobile}
        error={fieldError.mobile}
        autoComplete="tel"
        required
        autoFocus={!sent}
        disabled={busy || sent}
        maxLength={20}
        testId="login-mobile"
      />
      {sent ? (
        <>
          <Field
            label={t('login.otp')}
            name="otp"
            inputMode="numeric"
            value={otp}
            onValueChange={(value) => setOtp(value.replace(/\D/g, '').slice(0, 6))}
            error={fieldError.otp}
            help={t('login.otpHint')}
            autoComplete="one-time-code"
            required
            autoFocus
            disabled={busy}
            maxLength={6}
            testId="login-otp"
          />
          <button type="submit" className="sw-btn sw-btn--primary sw-btn--block" disabled={busy} data-testid="otp-verify">
            {busy ? t('login.signingIn') : t('login.verifyOtp')}
          </button>
          <div className="login__row">
            <button
              type="button"
              className="sw-btn sw-btn--text"
              onClick={() => {
                setSent(false);
                setOtp('');
                setError(null);
              }}
              disabled={busy}
            >
              {t('login.changeMobile')}
            </button>
            <button
              type="button"
              className="sw-btn sw-btn--text"
              onClick={() => void send()}
              disabled={busy || cooldown > 0}
              data-testid="otp-resend"
            >
              {cooldown > 0 ? `${t('login.resendOtp')} (${cooldown})` : t('login.resendOtp')}
            </button>
          </div>
        </>
      ) : (
        <button type="submit" className="sw-btn sw-btn--primary sw-btn--block" disabled={busy} data-testid="otp-send">
          {busy ? t('login.sendingOtp') : t('login.sendOtp')}
        </button>
      )}
    </form>
  );
}
