import { DEFAULT_LOGIN_ROLE } from '@sitewatch/contracts/constants';
import { LOGIN_MESSAGES } from '@sitewatch/contracts/messages';
import { isHttpError } from '../../lib/http-client.ts';
import { type KeyValueStore, setLoginRole } from '../../lib/storage.ts';

/**
 * SPEC 8.3 login messages: the server's `detail` ('Invalid credentials', 'Invalid Captcha', 'Account Locked! ...',
 * 'This mobile number is not registered!', ...) when it gives one; otherwise Not Found (404), Service Unavailable
 * (503), Login Failed for any other answer, Unknown Error when there was no answer at all.
 */
export function loginErrorMessage(error: unknown): string {
  if (!isHttpError(error)) return LOGIN_MESSAGES.unknownError;
  const { status } = error;
  if (status > 0 && status < 500 && error.detail) return error.detail;
  if (status === 404) return LOGIN_MESSAGES.notFound;
  if (status === 503) return LOGIN_MESSAGES.serviceUnavailable;
  if (status === 0) return LOGIN_MESSAGES.unknownError;
  return LOGIN_MESSAGES.loginFailed;
}

/**
 * A refused sign-in, as the form shows it. SPEC 5: a sign-in refused because the user does not hold the page's role
 * (`role_mismatch` at /vendor/login/ for a customer admin) puts the stored login role back to `auth`, so the next
 * sign-in page is the plain one.
 */
export function loginFailure(error: unknown, store?: KeyValueStore): string {
  if (isHttpError(error) && (error.data as { code?: string } | null)?.code === 'role_mismatch') setLoginRole(DEFAULT_LOGIN_ROLE, store);
  return loginErrorMessage(error);
}
