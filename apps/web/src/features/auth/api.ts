import type { CurrentLogin } from '@sitewatch/contracts/auth';
import { api, type BodyOf } from '../../lib/api.ts';

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
  captcha: () => api.get('/api/auth/captcha/', quiet),
  passwordLogin: (body: BodyOf<'/api/auth/login/', 'post'>) => api.post('/api/auth/login/', body, quiet),
  sendOtp: (body: BodyOf<'/api/auth/otp/send/', 'post'>) => api.post('/api/auth/otp/send/', body, quiet),
  verifyOtp: (body: BodyOf<'/api/auth/otp/verify/', 'post'>) => api.post('/api/auth/otp/verify/', body, quiet),
  verifyTotp: (body: { mfaToken: string; code: string }) => api.post('/api/auth/totp/verify/', body, quiet),
  startEnrolment: (mfaToken: string) => api.post('/api/auth/totp/enrol/start/', { mfaToken }, quiet),
  finishEnrolment: (body: { mfaToken: string; code: string }) => api.post('/api/auth/totp/enrol/', body, quiet),
};
