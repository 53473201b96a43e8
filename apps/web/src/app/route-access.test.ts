import type { User } from '@sitewatch/contracts/auth';
import { describe, expect, it } from 'vitest';
import { mayOpen } from './screens.ts';

const VIEW = ['view_device', 'view_asset', 'view_ticket', 'view_camera'];
const OPERATE = [...VIEW, 'add_ticket', 'change_ticket', 'edit_alarm_config'];
const MANAGE = [...OPERATE, 'add_asset', 'change_asset', 'add_device', 'change_device', 'delete_device'];

const user = (role: string, codenames: string[]) =>
  ({
    userRole: [role],
    groups: [{ id: 1, name: 'g', permissions: codenames.map((codename) => ({ codename, name: codename })) }],
  }) as unknown as User;

const customer = user('customer', VIEW);
const fieldExecutive = user('fieldexecutive', OPERATE);
const customerAdmin = user('customeradmin', MANAGE);

/** Screens whose only purpose the server refuses to a customer user (view permissions only). */
const REFUSED_TO_VIEWERS = [
  '/import',
  '/bulk-import',
  '/assign-ticket',
  '/assets/create',
  '/assets/edit/3',
  '/device/create',
  '/devices/4/edit',
  '/devices/assign',
  '/device-template/create',
  '/view-device-template/edit/2',
  '/storages',
  '/storages/create',
  '/storages/1/edit',
  '/cameras/7/configs',
  '/tour/config/new',
  '/tickets/WORKORDERTICKET/create',
];

describe('route access follows what the server allows', () => {
  it('keeps a customer user out of every form the server would refuse', () => {
    for (const path of REFUSED_TO_VIEWERS) expect(mayOpen(path, customer), path).toBe(false);
  });

  it('lets a customer user raise a ticket and see what they may see', () => {
    for (const path of [
      '/tickets/TICKET/create',
      '/tickets/all/create',
      '/tickets/all',
      '/devices',
      '/assets',
      '/camview',
      '/ticket/dashboard',
    ]) {
      expect(mayOpen(path, customer), path).toBe(true);
    }
  });

  it('opens the ticket tools to operators and every form to administrators', () => {
    for (const path of ['/import', '/assign-ticket', '/tickets/WORKORDERTICKET/create'])
      expect(mayOpen(path, fieldExecutive), path).toBe(true);
    expect(mayOpen('/device/create', fieldExecutive)).toBe(false);
    expect(mayOpen('/storages/create', fieldExecutive)).toBe(false);
    for (const path of REFUSED_TO_VIEWERS) expect(mayOpen(path, customerAdmin), path).toBe(true);
  });

  it('opens nothing without a user or a screen', () => {
    expect(mayOpen('/devices', null)).toBe(false);
    expect(mayOpen('/no-such-screen', customerAdmin)).toBe(false);
  });
});
