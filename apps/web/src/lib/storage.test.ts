import { KEPT_ACROSS_LOGOUT } from '@sitewatch/contracts/constants';
import { describe, expect, it } from 'vitest';
import { clearStorageExceptKept, createMemoryStore, getLoginRole, setLoginRole } from './storage.ts';

describe('storage', () => {
  it('keeps only cookie-consent, x-log-role, fab-state and config-theme across logout', () => {
    expect([...KEPT_ACROSS_LOGOUT].sort()).toEqual(['config-theme', 'cookie-consent', 'fab-state', 'x-log-role']);
    const store = createMemoryStore({
      user: '{}',
      access: 'a',
      refresh: 'r',
      'cookie-consent': 'accepted',
      'x-log-role': 'vendor',
      'fab-state': 'undocked',
      'config-theme': 'dark',
      other: '1',
    });
    clearStorageExceptKept(store);
    const left: Record<string, string | null> = {};
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i) as string;
      left[key] = store.getItem(key);
    }
    expect(left).toEqual({ 'cookie-consent': 'accepted', 'x-log-role': 'vendor', 'fab-state': 'undocked', 'config-theme': 'dark' });
  });

  it('defaults the login role to auth', () => {
    const store = createMemoryStore();
    expect(getLoginRole(store)).toBe('auth');
    setLoginRole('vendor', store);
    expect(getLoginRole(store)).toBe('vendor');
    store.setItem('x-log-role', '../x');
    expect(getLoginRole(store)).toBe('auth');
  });
});
