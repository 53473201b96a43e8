import { describe, expect, it } from 'vitest';
import { loginUrl } from './navigation.ts';
import { isSafeInAppPath, safeInAppPath } from './safe-redirect.ts';

describe('isSafeInAppPath (login next)', () => {
  it.each(['/', '/tickets', '/tickets/all?status=OPEN', '/a/b#c', '/assets/view/12'])('accepts %s', (value) => {
    expect(isSafeInAppPath(value)).toBe(true);
  });
  it.each([
    '',
    'tickets',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    '/\t/evil.example',
    ' /x',
    null,
    undefined,
  ])('refuses %s', (value) => {
    expect(isSafeInAppPath(value as string)).toBe(false);
  });
  it('falls back', () => {
    expect(safeInAppPath('//x', '/')).toBe('/');
  });
});

describe('loginUrl', () => {
  it('builds /{role}/login/ with an encoded next', () => {
    expect(loginUrl('auth', '/tickets?status=OPEN')).toBe('/auth/login/?next=%2Ftickets%3Fstatus%3DOPEN');
    expect(loginUrl('vendor')).toBe('/vendor/login/');
    expect(loginUrl('auth', 'https://evil.example')).toBe('/auth/login/');
    expect(loginUrl('auth', '/auth/login')).toBe('/auth/login/');
  });
});
