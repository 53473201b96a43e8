/** Helpdesk contracts: tickets (tickets.ts) and their administration (admin.ts). */

export * from './admin.ts';
export * from './tickets.ts';
