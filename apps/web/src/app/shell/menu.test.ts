import type { MenuItem } from '@sitewatch/contracts/tenant-settings';
import { describe, expect, it } from 'vitest';
import { isItemActive, leafItems, visibleMenu } from './menu.ts';

const MENU: MenuItem[] = [
  { label: 'Home', value: '/', icon: 'home' },
  { label: 'Tickets', value: '/tickets', icon: 'tickets', childUrls: ['/tickets/', '/ticket/'] },
  { label: 'Sites', value: '/assets', permission: 'view_asset' },
  { label: 'Users', value: '/users', roles: ['sysadmin', 'customeradmin'] },
  { label: 'SMS Outbox', value: '/app-admin', roles: ['sysadmin'] },
  {
    label: 'Admin',
    value: '',
    children: [
      { label: 'Settings', value: '/settings', roles: ['customeradmin'] },
      { label: 'Nope', value: '/nope' },
    ],
  },
];

const screens = new Set(['/', '/assets', '/users', '/app-admin', '/settings']);
const ctx = (roles: string[], permissions: string[]) => ({
  roles,
  permissions: new Set(permissions),
  hasScreen: (to: string) => screens.has(to),
});

describe('visibleMenu', () => {
  it('keeps entries with a screen, the permission and one of the roles', () => {
    const labels = (items: MenuItem[]) => items.map((i) => i.label);
    expect(labels(visibleMenu(MENU, ctx(['customer'], ['view_asset'])))).toEqual(['Home', 'Sites']);
    expect(labels(visibleMenu(MENU, ctx(['sysadmin'], [])))).toEqual(['Home', 'Users', 'SMS Outbox']);
    const admin = visibleMenu(MENU, ctx(['customeradmin'], ['view_asset']));
    expect(labels(admin)).toEqual(['Home', 'Sites', 'Users', 'Admin']);
    expect(labels(admin.at(-1)?.children ?? [])).toEqual(['Settings']);
    expect(labels(leafItems(admin))).toEqual(['Home', 'Sites', 'Users', 'Settings']);
  });
});

describe('isItemActive', () => {
  it('matches the address, addresses below it and childUrls; Home only exactly', () => {
    const [home, tickets] = MENU as [MenuItem, MenuItem];
    expect(isItemActive(home, '/')).toBe(true);
    expect(isItemActive(home, '/assets')).toBe(false);
    expect(isItemActive(tickets, '/tickets')).toBe(true);
    expect(isItemActive(tickets, '/tickets/all')).toBe(true);
    expect(isItemActive(tickets, '/ticket/dashboard')).toBe(true);
    expect(isItemActive(tickets, '/ticketsx')).toBe(false);
  });
});
