import type { CurrentLogin } from '@sitewatch/contracts/auth';
import { http } from '../../lib/http.ts';

export interface Captcha {
  captchaId: string;
  /** An SVG document. */
  image: string;
}
export type SignedIn = CurrentLogin & { message?: string };
export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  setupRequired: boolean;
}
export type LoginResult = SignedIn | MfaChallenge;
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
}

export const isMfaChallenge = (result: LoginResult): result is MfaChallenge => 'mfaRequired' in result && result.mfaRequired === true;

/** The sign-in screens show their own messages, so none of these calls raises the generic toast. */
const quiet = { toast: false } as const;

export const authApi = {
  captcha: () => http.get<Captcha>('/api/auth/captcha/', quiet),
  passwordLogin: (body: { username: string; password: string; captchaId: string; captcha: string; role: string }) =>
    http.post<LoginResult>('/api/auth/login/', body, quiet),
  sendOtp: (body: { mobile: string; role: string }) => http.post<{ message: string }>('/api/auth/otp/send/', body, quiet),
  verifyOtp: (body: { mobile: string; otp: string; role: string }) => http.post<LoginResult>('/api/auth/otp/verify/', body, quiet),
  verifyTotp: (body: { mfaToken: string; code: string }) => http.post<LoginResult>('/api/auth/totp/verify/', body, quiet),
  startEnrolment: (mfaToken: string) => http.post<TotpSetup>('/api/auth/totp/enrol/start/', { mfaToken }, quiet),
  finishEnrolment: (body: { mfaToken: string; code: string }) => http.post<LoginResult>('/api/auth/totp/enrol/', body, quiet),
};
