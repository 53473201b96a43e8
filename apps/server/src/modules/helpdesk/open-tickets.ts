import type { Db } from '../../platform/db.ts';

/** Of these tickets of the tenant, the ones still open (neither resolved nor closed): what other domains keep for them. */
export async function openTicketIds(db: Db, tenantId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids.slice(0, 1000))
    .where('status', 'not in', ['RESOLVED', 'CLOSED'])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Of these tickets of the tenant: their number and whether they are still open. */
export async function ticketStates(db: Db, tenantId: number, ids: number[]): Promise<Map<number, { ticketNo: string; open: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('tickets')
    .select(['id', 'ticket_no', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids.slice(0, 1000))
    .execute();
  return new Map(rows.map((r) => [r.id, { ticketNo: r.ticket_no, open: r.status !== 'RESOLVED' && r.status !== 'CLOSED' }]));
}
