/** What other features may use from reports: the purchase requests of a ticket, on the ticket screen. */

export { TicketPurchaseRequests } from './TicketPurchaseRequests.tsx';
