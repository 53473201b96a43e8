/**
 * The four ticket kinds and their labels, kept free of zod (helpdesk-tickets.ts re-exports them with the schemas)
 * because the route table of the main bundle names them in breadcrumbs and the login page must stay small.
 */
export const TICKET_TYPES = ['TICKET', 'WORKORDERTICKET', 'AIAlarmTicket', 'AlarmTicket'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

export const TICKET_TYPE_LABELS: Record<TicketType, string> = {
  TICKET: 'Escalation Tickets',
  WORKORDERTICKET: 'Work Orders',
  AIAlarmTicket: 'AI Audit Tickets',
  AlarmTicket: 'Device Health Tickets',
};
