import type { MenuItem } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';
import { withMenuEntries } from './menu.ts';

const menu: MenuItem[] = [
  { label: 'Home', value: '/' },
  { label: 'Helpdesk', value: '', children: [{ label: 'Tickets', value: '/tickets' }] },
];

describe('menu entries for existing tenants', () => {
  it('adds an entry to its group, creates a missing group, and adds top-level entries', () => {
    const next = withMenuEntries(menu, [
      { group: 'Helpdesk', item: { label: 'Forms', value: '/forms' } },
      { group: 'Workforce', groupIcon: 'users', item: { label: 'Shifts', value: '/shifts' } },
      { item: { label: 'Analysis', value: '/analysis' } },
    ]);
    expect(next).toEqual([
      { label: 'Home', value: '/' },
      {
        label: 'Helpdesk',
        value: '',
        children: [
          { label: 'Tickets', value: '/tickets' },
          { label: 'Forms', value: '/forms' },
        ],
      },
      { label: 'Workforce', value: '', icon: 'users', children: [{ label: 'Shifts', value: '/shifts' }] },
      { label: 'Analysis', value: '/analysis' },
    ]);
    expect(menu[1]?.children).toHaveLength(1); // the input is left as it was
  });

  it('leaves out a route the tenant already has anywhere, so running it twice changes nothing', () => {
    const moved: MenuItem[] = [{ label: 'Mine', value: '', children: [{ label: 'Ticket list', value: '/tickets' }] }];
    expect(withMenuEntries(moved, [{ group: 'Helpdesk', item: { label: 'Tickets', value: '/tickets' } }])).toEqual(moved);
    const once = withMenuEntries(menu, [{ group: 'Helpdesk', item: { label: 'Forms', value: '/forms' } }]);
    expect(withMenuEntries(once, [{ group: 'Helpdesk', item: { label: 'Forms', value: '/forms' } }])).toEqual(once);
  });
});
