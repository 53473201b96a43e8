import { LOGIN_MESSAGES } from '@sitewatch/contracts/messages';
import { isHttpError } from '../../lib/http-client.ts';

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
