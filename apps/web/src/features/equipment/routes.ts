import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  { equipment: { assets: 'Asset Management', list: 'Equipments', view: 'Equipment' } },
  true,
  false,
);

/** SPEC 2.2 /asset-management and /equipments: the physical equipment at each site. */
export const equipmentRoutes: AppRoute[] = [
  {
    path: '/asset-management',
    layout: 'main',
    title: 'equipment.assets',
    page: () => import('./AssetManagementPage.tsx').then((m) => m.AssetManagementPage),
  },
  {
    path: '/equipments',
    layout: 'main',
    title: 'equipment.list',
    page: () => import('./EquipmentsPage.tsx').then((m) => m.EquipmentsPage),
  },
  {
    path: '/equipments/:id',
    layout: 'main',
    title: 'equipment.view',
    crumbs: ({ t }) => [{ label: t('equipment.list'), to: '/equipments' }, { label: t('equipment.view') }],
    page: () => import('./EquipmentViewPage.tsx').then((m) => m.EquipmentViewPage),
  },
];
