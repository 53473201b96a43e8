import type { LoginRole } from '@sitewatch/contracts/roles';
import './login.css';
import { DEFAULT_LOGIN_ROLE } from '@sitewatch/contracts/constants';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PlainNotFound } from '../../app/RouteErrorBoundary.tsx';
import { setLoginRole } from '../../lib/storage.ts';
import { type CustomerLogo, fetchCustomerLogo } from '../tenant-settings/requests.ts';
import { isMfaChallenge, type LoginResult, type MfaChallenge } from './api.ts';
import { MfaStep } from './MfaStep.tsx';
import { OtpLoginForm } from './OtpLoginForm.tsx';
import { PasswordLoginForm } from './PasswordLoginForm.tsx';
import { isLoginRole, roleLabel } from './roles.ts';
import { Tabs } from './ui.tsx';
import { useCompleteLogin } from './useCompleteLogin.ts';

type Method = 'password' | 'otp';

/** /auth/login and /{role}/login with ?next= (SPEC 2.1). Plain HTML and CSS: this page has a size budget. */
export function LoginPage() {
  const { role: roleParam } = useParams();
  const role = roleParam ?? DEFAULT_LOGIN_ROLE;
  if (!isLoginRole(role)) return <PlainNotFound />;
  return <LoginScreen key={role} role={role} />;
}

function LoginScreen({ role }: { role: LoginRole }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const next = params.get('next');
  const [method, setMethod] = useState<Method>('password');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [logo, setLogo] = useState<CustomerLogo | null>(null);
  const complete = useCompleteLogin(role, next);

  useEffect(() => {
    setLoginRole(role);
  }, [role]);
  useEffect(() => {
    let live = true;
    fetchCustomerLogo().then(
      (value) => live && setLogo(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const handleResult = useCallback(
    async (result: LoginResult): Promise<string | null> => {
      if (isMfaChallenge(result)) {
        setChallenge(result);
        return null;
      }
      return complete(result);
    },
    [complete],
  );

  const name = logo?.name;
  return (
    <main className="login" id="main-content">
      <div className="login__card" data-testid="login-card">
        <div className="login__logo">
          <img src={logo?.logo || '/images/logo.svg'} alt={name ? t('topBar.logoAlt', { name }) : t('topBar.defaultLogoAlt')} />
        </div>
        <h1 className="login__title">{t('login.title')}</h1>
        <p className="login__subtitle" data-testid="login-subtitle">
          {role === DEFAULT_LOGIN_ROLE ? (name ?? t('login.subtitle')) : t('login.roleSubtitle', { role: roleLabel(role) })}
        </p>
        {challenge ? (
          <MfaStep
            challenge={challenge}
            onResult={handleResult}
            onCancel={() => {
              setChallenge(null);
              setAttempt((n) => n + 1);
            }}
          />
        ) : (
          <>
            <Tabs<Method>
              idPrefix="login"
              label={t('login.methods')}
              value={method}
              onChange={setMethod}
              items={[
                { value: 'password', label: t('login.tabPassword'), testId: 'tab-password' },
                { value: 'otp', label: t('login.tabMobile'), testId: 'tab-otp' },
              ]}
            />
            <div role="tabpanel" id={`login-panel-${method}`}>
              {method === 'password' ? (
                <PasswordLoginForm key={`p${attempt}`} role={role} onResult={handleResult} />
              ) : (
                <OtpLoginForm key={`o${attempt}`} role={role} onResult={handleResult} />
              )}
            </div>
          </>
        )}
        <p className="login__note">{t('login.cookieNote')}</p>
        <p className="login__note">
          <Link to="/register">Request an account</Link>
        </p>
      </div>
    </main>
  );
}
