import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { attendance: { checkIn: 'Check in', management: 'Attendance Management' } }, true, false);

/** Issue 16: the phone check-in screen and SPEC 2.2 attendance-management. */
export const attendanceRoutes: AppRoute[] = [
  { path: '/attendance', layout: 'main', title: 'attendance.checkIn', page: () => import('./CheckInPage.tsx').then((m) => m.CheckInPage) },
  {
    path: '/attendance-management',
    layout: 'main',
    title: 'attendance.management',
    page: () => import('./AttendanceManagementPage.tsx').then((m) => m.AttendanceManagementPage),
  },
];
