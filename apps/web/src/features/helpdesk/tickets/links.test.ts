import type { User } from '@sitewatch/contracts/auth';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../../app/route-registry.ts';
import { canonicalTicketPath, createPath, editPath, viewPath } from './model.ts';

const routes = APP_ROUTES.map((route) => ({ path: route.path, route }));
const routeOf = (url: string) => matchRoutes(routes, url.split('?')[0] as string)?.[0];

/** The page component a URL opens, by the export name its route loads. */
async function pageName(url: string) {
  const match = routeOf(url);
  if (!match) return null;
  const component = await match.route.route.page();
  return component.name;
}

const customerAdmin = { userRole: ['customeradmin'], groups: [] } as unknown as User;
const crumbsOf = (url: string) => {
  const match = routeOf(url);
  return match?.route.route.crumbs?.({ params: match.params, user: customerAdmin, settings: undefined, t: (k) => k });
};

describe('ticket links of SPEC 2.2', () => {
  it('opens every {base}/view/, /create and /edit/ form on a ticket page', async () => {
    const expected: Record<string, string> = {
      '/tickets/all/view/?ticketId=5': 'TicketViewPage',
      '/tickets/AlarmTicket/view/?ticketId=5&historyId=9': 'TicketViewPage',
      '/tickets/AlarmTicket/edit/?ticketId=5': 'TicketEditPage',
      '/tickets/AlarmTicket/create': 'TicketCreatePage',
      '/work-orders/view/?ticketId=5': 'WorkOrderViewPage',
      '/work-orders/5/view': 'WorkOrderViewPage',
      '/work-orders/create': 'WorkOrderCreatePage',
      '/work-orders/edit/?ticketId=5': 'WorkOrderEditPage',
      '/escalation-tickets/view/?ticketId=5': 'EscalationTicketViewPage',
      '/escalation-tickets/edit/?ticketId=5': 'EscalationTicketEditPage',
      '/escalation-tickets/5/edit': 'EscalationTicketEditPage',
      '/escalation-tickets/create': 'EscalationTicketCreatePage',
    };
    for (const [url, name] of Object.entries(expected)) expect(await pageName(url), url).toBe(name);
  });

  it('builds only links that open a ticket page', async () => {
    for (const type of ['TICKET', 'WORKORDERTICKET', 'AIAlarmTicket', 'AlarmTicket'] as const) {
      for (const url of [viewPath(type, 3, 4), editPath(type, 3), createPath(type)]) {
        expect(routeOf(url)?.route.route.path, url).not.toBe('*');
        expect(await pageName(url), url).toMatch(/Ticket|WorkOrder/);
      }
    }
  });

  it('moves a ticket opened under another type to its own pages, so the breadcrumb is its own', () => {
    expect(canonicalTicketPath('WORKORDERTICKET', { id: 7, type: 'TICKET' })).toBe('/escalation-tickets/view/?ticketId=7');
    expect(canonicalTicketPath('TICKET', { id: 7, type: 'WORKORDERTICKET' }, { edit: true })).toBe('/work-orders/edit/?ticketId=7');
    expect(canonicalTicketPath('AlarmTicket', { id: 7, type: 'AlarmTicket' })).toBeNull();
    expect(canonicalTicketPath('all', { id: 7, type: 'TICKET' })).toBeNull();
  });

  it('gives each ticket type its own breadcrumb', () => {
    expect(crumbsOf('/work-orders/view/')?.[0]).toEqual({ label: 'tickets.workOrders', to: '/work-orders' });
    expect(crumbsOf('/escalation-tickets/view/')?.[0]).toEqual({ label: 'tickets.escalation', to: '/escalation-tickets' });
    expect(crumbsOf('/tickets/AlarmTicket/view/')?.[0]).toEqual({ label: 'Device Health Tickets', to: '/tickets/AlarmTicket' });
  });
});
