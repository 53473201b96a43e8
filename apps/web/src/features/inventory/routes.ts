import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';

i18n.addResourceBundle('en', 'translation', { inventory: { list: 'Inventory Management', item: 'Inventory item' } }, true, false);

/** SPEC 2.2 /inventory-management and inventory-management/{id}/view. */
export const inventoryRoutes: AppRoute[] = [
  {
    path: '/inventory-management',
    layout: 'main',
    title: 'inventory.list',
    allow: (user) => permissionsOf(user).has('view_inventory'),
    page: () => import('./InventoryPage.tsx').then((m) => m.InventoryPage),
  },
  {
    path: '/inventory-management/:id/view',
    layout: 'main',
    title: 'inventory.item',
    allow: (user) => permissionsOf(user).has('view_inventory'),
    crumbs: ({ t }) => [{ label: t('inventory.list'), to: '/inventory-management' }, { label: t('inventory.item') }],
    page: () => import('./ItemPage.tsx').then((m) => m.ItemPage),
  },
];
