/** Helpdesk contracts: tickets (helpdesk-tickets.ts) and their administration (helpdesk-admin.ts). */

export * from './helpdesk-admin.ts';
export * from './helpdesk-tickets.ts';
