import { describe, expect, it } from 'vitest';
import { en } from '../lib/i18n/en.ts';
import { i18n } from '../lib/i18n/index.ts';
import { APP_ROUTES } from './route-registry.ts';
import { hasScreen } from './screens.ts';

describe('route registry', () => {
  it('has one route per path', () => {
    const paths = APP_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives every route a title that exists in the English resources', () => {
    for (const route of APP_ROUTES) {
      if (route.title) expect(i18n.exists(route.title, { lng: 'en' }), route.title).toBe(true);
    }
  });

  it('follows the login-check table of SPEC 2.1', () => {
    const access = (path: string) => APP_ROUTES.find((r) => r.path === path)?.access ?? 'login';
    expect(access('/settings')).toBe('public');
    expect(access('/sessions')).toBe('public');
    expect(access('/cookie-policy')).toBe('public');
    expect(access('/tenant-not-found')).toBe('public');
    expect(access('/:role/login')).toBe('guest');
    expect(access('/')).toBe('login');
    expect(access('/myprofile')).toBe('login');
    expect(access('/account/change-password')).toBe('login');
    expect(access('/app-admin')).toBe('login');
    expect(APP_ROUTES.find((r) => r.path === '/cookie-policy')?.hideNavigation).toBe(true);
    expect(APP_ROUTES.find((r) => r.path === '/app-admin')?.roles).toEqual(['sysadmin']);
  });

  it('keeps the login page out of MUI (its JavaScript budget)', () => {
    expect(APP_ROUTES.find((r) => r.path === '/:role/login')?.layout).toBe('plain');
  });
});

describe('hasScreen', () => {
  it('knows which menu addresses have a screen', () => {
    expect(hasScreen('/')).toBe(true);
    expect(hasScreen('/app-admin')).toBe(true);
    expect(hasScreen('/account/change-password/')).toBe(true);
    expect(hasScreen('/myprofile?tab=x')).toBe(true);
    expect(hasScreen('/tickets/all?status=OPEN')).toBe(true);
    expect(hasScreen('/no-such-screen')).toBe(false);
    expect(hasScreen('/redirect')).toBe(false);
    expect(hasScreen('/login')).toBe(false);
    expect(hasScreen('https://example.com/')).toBe(false);
  });
});

describe('English resources', () => {
  it('use the specification’s words for the profile menu and the About dialog', () => {
    expect(en.profileMenu).toMatchObject({
      changePassword: 'Change Password',
      myProfile: 'My Profile',
      settings: 'Settings',
      theme: 'Theme',
      about: 'About',
      logout: 'Logout',
    });
    expect(en.about).toMatchObject({
      version: 'Version',
      iotFramework: 'IOT Framework',
      iotGatewayFramework: 'IOT Gateway Framework',
      aiFramework: 'AI Framework',
      analyticsFramework: 'Analytics Framework',
    });
    expect(en.footer.poweredBy).toBe('Powered by');
  });
});
