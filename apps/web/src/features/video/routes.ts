import { lazyPage as page } from '../../app/lazy-page.ts';
import type { AppRoute } from '../../app/route-types.ts';
import { canAdministerVideo } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    video: {
      camview: 'Cameras',
      live: 'Live view',
      record: 'Recordings',
      popups: 'Live popups',
      configs: 'Camera configs',
      storages: 'Storages',
      storageCreate: 'Create storage',
      storageEdit: 'Edit storage',
      tours: 'Camera tours',
      tourView: 'Tour view',
      tourConfig: 'Tour config',
      tourPlay: 'Tour',
      incidents: 'Incident reports',
      incident: 'Incident',
      evidence: 'Incident evidence',
      cctv: 'CCTV dashboard',
      cctvView: 'Camera',
    },
  },
  true,
  false,
);

/** SPEC 2.2 camera, storage, tour and incident routes; SPEC 2.4 CCTV dashboard and view. */
export const videoRoutes: AppRoute[] = [
  { path: '/camview', layout: 'main', title: 'video.camview', page: page(() => import('./CamviewPage.tsx'), 'CamviewPage') },
  { path: '/camview/live', layout: 'main', title: 'video.live', page: page(() => import('./LivePage.tsx'), 'LivePage') },
  { path: '/camview/record', layout: 'main', title: 'video.record', page: page(() => import('./RecordPage.tsx'), 'RecordPage') },
  { path: '/camview/popups', layout: 'main', title: 'video.popups', page: page(() => import('./PopupsPage.tsx'), 'PopupsPage') },
  {
    path: '/cameras/:id/configs',
    layout: 'main',
    allow: canAdministerVideo,
    title: 'video.configs',
    page: page(() => import('./CameraConfigPage.tsx'), 'CameraConfigPage'),
  },
  {
    path: '/storages',
    layout: 'main',
    title: 'video.storages',
    allow: canAdministerVideo,
    page: page(() => import('./StoragesPage.tsx'), 'StoragesPage'),
  },
  {
    path: '/storages/create',
    layout: 'main',
    allow: canAdministerVideo,
    title: 'video.storageCreate',
    page: page(() => import('./StorageFormPage.tsx'), 'StorageFormPage'),
  },
  {
    path: '/storages/:id/edit',
    layout: 'main',
    allow: canAdministerVideo,
    title: 'video.storageEdit',
    page: page(() => import('./StorageFormPage.tsx'), 'StorageFormPage'),
  },
  { path: '/camera-tour', layout: 'main', title: 'video.tours', page: page(() => import('./ToursPage.tsx'), 'ToursPage') },
  { path: '/tour-view', layout: 'main', title: 'video.tourView', page: page(() => import('./ToursPage.tsx'), 'TourPickPage') },
  {
    path: '/tour/config/:id',
    layout: 'main',
    allow: canAdministerVideo,
    title: 'video.tourConfig',
    page: page(() => import('./TourConfigPage.tsx'), 'TourConfigPage'),
  },
  { path: '/tours/view/:id', layout: 'main', title: 'video.tourPlay', page: page(() => import('./TourViewPage.tsx'), 'TourViewPage') },
  { path: '/incident-report', layout: 'main', title: 'video.incidents', page: page(() => import('./IncidentsPage.tsx'), 'IncidentsPage') },
  {
    path: '/incident-report/view/:IncidentId',
    layout: 'main',
    title: 'video.incident',
    page: page(() => import('./IncidentViewPage.tsx'), 'IncidentViewPage'),
  },
  {
    path: '/evidence/:token',
    layout: 'bare',
    access: 'public',
    title: 'video.evidence',
    crumbs: () => [],
    page: page(() => import('./EvidencePage.tsx'), 'EvidencePage'),
  },
  { path: '/cctv/dashboard', layout: 'deviceTree', title: 'video.cctv', page: page(() => import('./CctvPages.tsx'), 'CctvDashboardPage') },
  { path: '/cctv/view/:id', layout: 'deviceTree', title: 'video.cctvView', page: page(() => import('./CctvPages.tsx'), 'CctvViewPage') },
];
