import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { calendar: { title: 'Calendar', create: 'Add event', edit: 'Edit event' } }, true, false);

const crumb = (label: string, to: string) => ({ label, to });

/** SPEC 2.2: calendar, calendar/create, calendar/{eventId}/edit (pages load lazily with FullCalendar). */
export const calendarRoutes: AppRoute[] = [
  { path: '/calendar', layout: 'main', title: 'calendar.title', page: () => import('./CalendarPage.tsx').then((m) => m.CalendarPage) },
  {
    path: '/calendar/create',
    layout: 'main',
    title: 'calendar.create',
    crumbs: ({ t }) => [crumb(t('calendar.title'), '/calendar'), { label: t('calendar.create') }],
    page: () => import('./EventFormPage.tsx').then((m) => m.EventFormPage),
  },
  {
    path: '/calendar/:eventId/edit',
    layout: 'main',
    title: 'calendar.edit',
    crumbs: ({ t }) => [crumb(t('calendar.title'), '/calendar'), { label: t('calendar.edit') }],
    page: () => import('./EventFormPage.tsx').then((m) => m.EventFormPage),
  },
];
