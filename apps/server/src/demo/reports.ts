import { sql } from 'kysely';
import type { Seeder } from './seeder.ts';

type State = 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED' | 'ORDERED' | 'RECEIVED' | 'CANCELLED';
const PLAN: Array<{ state: State; daysAgo: number; source: 'MANUAL' | 'LOW_STOCK' | 'TICKET' }> = [
  { state: 'RECEIVED', daysAgo: 48, source: 'LOW_STOCK' },
  { state: 'RECEIVED', daysAgo: 33, source: 'MANUAL' },
  { state: 'REJECTED', daysAgo: 26, source: 'MANUAL' },
  { state: 'ORDERED', daysAgo: 12, source: 'LOW_STOCK' },
  { state: 'APPROVED', daysAgo: 6, source: 'TICKET' },
  { state: 'SUBMITTED', daysAgo: 3, source: 'TICKET' },
  { state: 'SUBMITTED', daysAgo: 1, source: 'LOW_STOCK' },
  { state: 'DRAFT', daysAgo: 0, source: 'MANUAL' },
  { state: 'CANCELLED', daysAgo: 19, source: 'MANUAL' },
];

/**
 * Purchase requests for the demo's spares (unit costs on every item, requests in each state over the last weeks,
 * some raised from tickets) and a daily stock report for the customer admin. Runs once per tenant, also on data
 * folders seeded before reports existed: it reads the stores, items and tickets already there.
 */
export const reportsSeeder: Seeder = {
  name: 'reports',
  async run({ db, tenantId, random }) {
    const items = await db.selectFrom('inventory_items').select(['id', 'code']).where('tenant_id', '=', tenantId).orderBy('id').execute();
    const stores = await db
      .selectFrom('inventory_stores')
      .select(['id', 'name', 'asset_id'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute();
    if (items.length === 0 || stores.length === 0) return;
    const costs = new Map<number, number>();
    for (const item of items) {
      const cost =
        Math.round((5 + random.next() * (item.code.startsWith('CAM') || item.code.startsWith('UPS-MOD') ? 900 : 120)) * 100) / 100;
      costs.set(item.id, cost);
      await db
        .updateTable('inventory_items')
        .set({ unit_cost: cost })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', item.id)
        .execute();
    }
    const people = await db
      .selectFrom('users')
      .select(['id', 'roles'])
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([sql<boolean>`'storemanager' = any(roles)`, sql<boolean>`'customeradmin' = any(roles)`]))
      .execute();
    const requester = people.find((u) => u.roles.includes('storemanager'))?.id ?? people[0]?.id ?? null;
    const approver = people.find((u) => u.roles.includes('customeradmin'))?.id ?? requester;
    const tickets = await db
      .selectFrom('tickets')
      .select(['id', 'ticket_no'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id', 'desc')
      .limit(5)
      .execute();
    const now = Date.now();
    for (const [i, p] of PLAN.entries()) {
      const store = stores[i % stores.length] as (typeof stores)[number];
      const created = new Date(now - p.daysAgo * 86_400_000 - random.int(1, 8) * 3_600_000);
      const picked = new Set<number>();
      while (picked.size < Math.min(items.length, random.int(1, 4))) picked.add((random.pick(items) as (typeof items)[number]).id);
      const lines = [...picked].map((itemId) => ({ itemId, quantity: random.int(1, 12), unitCost: costs.get(itemId) ?? 0 }));
      const total = Math.round(lines.reduce((n, l) => n + l.quantity * l.unitCost, 0) * 100) / 100;
      const ticket = p.source === 'TICKET' ? (tickets[i % Math.max(tickets.length, 1)] ?? null) : null;
      const decided = ['APPROVED', 'REJECTED', 'ORDERED', 'RECEIVED'].includes(p.state);
      const row = await db
        .insertInto('purchase_requests')
        .values({
          tenant_id: tenantId,
          title:
            p.source === 'LOW_STOCK' ? `Restock ${store.name}` : ticket ? `Spares for ${ticket.ticket_no}` : `Spares for ${store.name}`,
          state: p.state,
          source: ticket ? 'TICKET' : p.source === 'TICKET' ? 'MANUAL' : p.source,
          store_id: store.id,
          asset_id: store.asset_id,
          ticket_id: ticket?.id ?? null,
          ticket_ref: ticket?.ticket_no ?? null,
          requester_id: requester,
          decided_by: decided ? approver : null,
          note: '',
          reason: p.state === 'REJECTED' ? 'Use stock from the central store' : p.state === 'CANCELLED' ? 'No longer needed' : '',
          total,
          created_at: created,
          updated_at: created,
          submitted_at: p.state === 'DRAFT' ? null : created,
          decided_at: decided ? new Date(created.getTime() + 7_200_000) : null,
          received_at: p.state === 'RECEIVED' ? new Date(created.getTime() + 3 * 86_400_000) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('purchase_request_lines')
        .values(
          lines.map((l) => ({ tenant_id: tenantId, request_id: row.id, item_id: l.itemId, quantity: l.quantity, unit_cost: l.unitCost })),
        )
        .execute();
    }
    if (approver !== null) {
      const tomorrow = new Date(now + 86_400_000);
      await db
        .insertInto('report_schedules')
        .values({
          tenant_id: tenantId,
          user_id: approver,
          kind: 'inventory-stock',
          name: 'Daily low stock',
          frequency: 'DAILY',
          time_of_day: '06:00',
          format: 'xlsx',
          params: JSON.stringify({ low: 'true' }),
          next_run_at: new Date(Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 6, 0)),
        })
        .execute();
    }
  },
};
