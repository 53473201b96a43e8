import { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/ticket-types';
import type { ComponentType } from 'react';
import type { AppRoute, CrumbContext } from '../../app/route-types.ts';
import { canChangeTickets, canImportTickets, canRaiseTicket, canViewTicketReports } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    tickets: {
      list: 'Tickets',
      escalation: 'Escalation Tickets',
      workOrders: 'Work Orders',
      create: 'New ticket',
      view: 'Ticket',
      edit: 'Edit ticket',
      dashboard: 'Ticket dashboard',
      report: 'Ticket report',
      assign: 'Assign tickets',
      import: 'Import tickets',
      bulkImport: 'Bulk import',
      issueTypes: 'Issue types',
      issueTypeCreate: 'New issue type',
      issueTypeEdit: 'Edit issue type',
      escalations: 'Escalation policies',
      escalationCreate: 'New escalation policy',
      escalationEdit: 'Edit escalation policy',
      escalationView: 'Escalation policy',
    },
  },
  true,
  false,
);

const page =
  <K extends string>(load: () => Promise<Record<K, unknown>>, name: K) =>
  () =>
    load().then((m) => m[name] as ComponentType);

const list = () => import('./tickets/TicketListPage.tsx');
const create = () => import('./tickets/TicketCreatePage.tsx');
const view = () => import('./tickets/TicketViewPage.tsx');
const escalations = () => import('./escalations/EscalationPages.tsx');
const issueTypes = () => import('./issue-types/IssueTypePages.tsx');

/** Customer admins see ticket pages in the breadcrumb (SPEC 2.5, 6); others see the page alone. */
const ticketCrumbs =
  (base: { label: string; to: string }, here: string) =>
  ({ user, t }: CrumbContext) =>
    user?.userRole.some((r) => r.includes('customeradmin'))
      ? [{ label: t(base.label), to: base.to }, { label: t(here) }]
      : [{ label: t(here) }];

/** Under /tickets/{type}/...: the type's own list is the page above (Device Health Tickets, not "Tickets"). */
const typedTicketCrumbs = (here: string) => (ctx: CrumbContext) => {
  const type = ctx.params.type ?? '';
  const known = (TICKET_TYPES as readonly string[]).includes(type);
  const base = known
    ? { label: TICKET_TYPE_LABELS[type as TicketType], to: `/tickets/${type}` }
    : { label: ctx.t('tickets.list'), to: '/tickets' };
  return ticketCrumbs(base, here)({ ...ctx, t: (key, options) => (key === base.label ? key : ctx.t(key, options)) });
};

const ADMINS = ['sysadmin', 'customeradmin', 'localadmin'] as const;

/** SPEC 2.2 ticket, escalation, work-order, issue-type, escalation-policy, assign, import and report routes. */
export const helpdeskRoutes: AppRoute[] = [
  { path: '/tickets', layout: 'main', title: 'tickets.list', page: page(list, 'TicketListPage') },
  { path: '/tickets/:type', layout: 'main', title: 'tickets.list', page: page(list, 'TicketListPage') },
  {
    path: '/tickets/:type/create',
    layout: 'main',
    title: 'tickets.create',
    allow: (user, params) => canRaiseTicket(user, params.type ?? 'all'),
    crumbs: typedTicketCrumbs('tickets.create'),
    page: page(create, 'TicketCreatePage'),
  },
  {
    path: '/tickets/:type/view',
    layout: 'main',
    title: 'tickets.view',
    crumbs: typedTicketCrumbs('tickets.view'),
    page: page(view, 'TicketViewPage'),
  },
  {
    path: '/tickets/:type/edit',
    layout: 'main',
    title: 'tickets.edit',
    crumbs: typedTicketCrumbs('tickets.edit'),
    page: page(view, 'TicketEditPage'),
  },
  {
    path: '/tickets/:type/:id',
    layout: 'main',
    title: 'tickets.view',
    crumbs: typedTicketCrumbs('tickets.view'),
    page: page(view, 'TicketViewPage'),
  },
  { path: '/escalation-tickets', layout: 'main', title: 'tickets.escalation', page: page(list, 'EscalationTicketsPage') },
  {
    path: '/escalation-tickets/create',
    layout: 'main',
    title: 'tickets.create',
    allow: (user) => canRaiseTicket(user, 'ESCALATION'),
    crumbs: ticketCrumbs({ label: 'tickets.escalation', to: '/escalation-tickets' }, 'tickets.create'),
    page: page(create, 'EscalationTicketCreatePage'),
  },
  {
    path: '/escalation-tickets/:id/edit',
    layout: 'main',
    title: 'tickets.edit',
    crumbs: ticketCrumbs({ label: 'tickets.escalation', to: '/escalation-tickets' }, 'tickets.edit'),
    page: page(view, 'EscalationTicketEditPage'),
  },
  {
    path: '/escalation-tickets/edit',
    layout: 'main',
    title: 'tickets.edit',
    crumbs: ticketCrumbs({ label: 'tickets.escalation', to: '/escalation-tickets' }, 'tickets.edit'),
    page: page(view, 'EscalationTicketEditPage'),
  },
  {
    path: '/escalation-tickets/view',
    layout: 'main',
    title: 'tickets.view',
    crumbs: ticketCrumbs({ label: 'tickets.escalation', to: '/escalation-tickets' }, 'tickets.view'),
    page: page(view, 'EscalationTicketViewPage'),
  },
  { path: '/work-orders', layout: 'main', title: 'tickets.workOrders', page: page(list, 'WorkOrdersPage') },
  {
    path: '/work-orders/:id/view',
    layout: 'main',
    title: 'tickets.view',
    crumbs: ticketCrumbs({ label: 'tickets.workOrders', to: '/work-orders' }, 'tickets.view'),
    page: page(view, 'WorkOrderViewPage'),
  },
  {
    path: '/work-orders/view',
    layout: 'main',
    title: 'tickets.view',
    crumbs: ticketCrumbs({ label: 'tickets.workOrders', to: '/work-orders' }, 'tickets.view'),
    page: page(view, 'WorkOrderViewPage'),
  },
  {
    path: '/work-orders/edit',
    layout: 'main',
    title: 'tickets.edit',
    crumbs: ticketCrumbs({ label: 'tickets.workOrders', to: '/work-orders' }, 'tickets.edit'),
    page: page(view, 'WorkOrderEditPage'),
  },
  {
    path: '/work-orders/create',
    layout: 'main',
    title: 'tickets.create',
    allow: (user) => canRaiseTicket(user, 'WORKORDERTICKET'),
    crumbs: ticketCrumbs({ label: 'tickets.workOrders', to: '/work-orders' }, 'tickets.create'),
    page: page(create, 'WorkOrderCreatePage'),
  },
  {
    path: '/ticket/dashboard',
    layout: 'main',
    title: 'tickets.dashboard',
    allow: canViewTicketReports,
    page: page(() => import('./tickets/TicketDashboardPage.tsx'), 'TicketDashboardPage'),
  },
  {
    path: '/ticket-report/:id',
    layout: 'main',
    title: 'tickets.report',
    allow: canViewTicketReports,
    crumbs: ticketCrumbs({ label: 'tickets.dashboard', to: '/ticket/dashboard' }, 'tickets.report'),
    page: page(() => import('./tickets/TicketReportPage.tsx'), 'TicketReportPage'),
  },
  {
    path: '/assign-ticket',
    layout: 'main',
    title: 'tickets.assign',
    allow: canChangeTickets,
    page: page(() => import('./tickets/AssignTicketsPage.tsx'), 'AssignTicketsPage'),
  },
  {
    path: '/import',
    layout: 'main',
    title: 'tickets.import',
    allow: canImportTickets,
    page: page(() => import('./tickets/ImportPage.tsx'), 'ImportPage'),
  },
  {
    path: '/bulk-import',
    layout: 'main',
    title: 'tickets.bulkImport',
    allow: canImportTickets,
    page: page(() => import('./tickets/ImportPage.tsx'), 'BulkImportPage'),
  },
  { path: '/issue-types', layout: 'main', title: 'tickets.issueTypes', roles: ADMINS, page: page(issueTypes, 'IssueTypesPage') },
  {
    path: '/issue-types/create',
    layout: 'main',
    title: 'tickets.issueTypeCreate',
    roles: ADMINS,
    page: page(issueTypes, 'IssueTypeCreatePage'),
  },
  {
    path: '/issue-types/edit/:id',
    layout: 'main',
    title: 'tickets.issueTypeEdit',
    roles: ADMINS,
    page: page(issueTypes, 'IssueTypeEditPage'),
  },
  { path: '/escalations', layout: 'main', title: 'tickets.escalations', roles: ADMINS, page: page(escalations, 'EscalationPoliciesPage') },
  {
    path: '/escalations/create',
    layout: 'main',
    title: 'tickets.escalationCreate',
    roles: ADMINS,
    page: page(escalations, 'EscalationPolicyCreatePage'),
  },
  {
    path: '/escalations/:id/edit',
    layout: 'main',
    title: 'tickets.escalationEdit',
    roles: ADMINS,
    page: page(escalations, 'EscalationPolicyEditPage'),
  },
  {
    path: '/escalations/:id/view',
    layout: 'main',
    title: 'tickets.escalationView',
    roles: ADMINS,
    page: page(escalations, 'EscalationPolicyViewPage'),
  },
];
