import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-client.ts';
import { createMemoryStore, getLoginRole, setLoginRole } from '../../lib/storage.ts';
import { svgDataUrl } from '../../lib/svg.ts';
import { loginErrorMessage, loginFailure } from './login-errors.ts';

const err = (status: number, data: unknown = null) => new HttpError(status, '', data, '/api/auth/login/');

describe('loginErrorMessage', () => {
  it.each([
    'Invalid credentials',
    'Invalid UserName',
    'Invalid Captcha',
    'Captcha Verification Failed!',
    'Account Locked! Please try again later',
    'This mobile number is not registered!',
    'The OTP you entered is incorrect. Please try again.',
    'Unauthorized',
  ])('shows the server text "%s"', (detail) => {
    expect(loginErrorMessage(err(400, { detail }))).toBe(detail);
  });
  it('falls back by status', () => {
    expect(loginErrorMessage(err(404))).toBe('Not Found');
    expect(loginErrorMessage(err(503, { detail: 'down' }))).toBe('Service Unavailable');
    expect(loginErrorMessage(err(500, { detail: 'Internal Server Error' }))).toBe('Login Failed');
    expect(loginErrorMessage(err(400))).toBe('Login Failed');
    expect(loginErrorMessage(err(0))).toBe('Unknown Error');
    expect(loginErrorMessage(new Error('boom'))).toBe('Unknown Error');
  });
});

describe('svgDataUrl', () => {
  it('encodes an SVG (also non-ASCII) as a base64 data URL', () => {
    const url = svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><text>é</text></svg>');
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1] as string, 'base64').toString('utf8')).toContain('é');
  });
});

describe('loginFailure', () => {
  it('puts the stored login role back to auth after a sign-in refused for the role (SPEC 5), and keeps it otherwise', () => {
    const store = createMemoryStore();
    setLoginRole('vendor', store);
    expect(loginFailure(err(400, { detail: 'Invalid credentials', code: 'invalid_credentials' }), store)).toBe('Invalid credentials');
    expect(getLoginRole(store)).toBe('vendor');
    expect(loginFailure(err(403, { detail: 'Unauthorized', code: 'role_mismatch' }), store)).toBe('Unauthorized');
    expect(getLoginRole(store)).toBe('auth');
  });
});
