import { sql } from 'kysely';
import type { Seeder } from './seeder.ts';

type Tracking = 'SERIAL' | 'QUANTITY';
interface DemoItem {
  code: string;
  name: string;
  category: string;
  make: string;
  model: string;
  unit: string;
  tracking: Tracking;
  threshold: number;
}

const q = (code: string, name: string, category: string, make: string, model: string, unit: string, threshold: number): DemoItem => ({
  code,
  name,
  category,
  make,
  model,
  unit,
  tracking: 'QUANTITY',
  threshold,
});
const s = (code: string, name: string, category: string, make: string, model: string, threshold: number): DemoItem => ({
  code,
  name,
  category,
  make,
  model,
  unit: 'pcs',
  tracking: 'SERIAL',
  threshold,
});

const ITEMS: DemoItem[] = [
  q('GEN-FLT-OIL', 'Generator oil filter', 'Generator spares', 'Cummins', 'LF9009', 'pcs', 6),
  q('GEN-FLT-AIR', 'Generator air filter', 'Generator spares', 'Cummins', 'AF25139', 'pcs', 4),
  q('GEN-FLT-FUEL', 'Generator fuel filter', 'Generator spares', 'Perkins', '26560201', 'pcs', 6),
  q('GEN-BELT', 'Generator fan belt', 'Generator spares', 'Gates', '13A1450', 'pcs', 2),
  q('GEN-OIL-15W40', 'Engine oil 15W-40', 'Generator spares', 'Shell', 'Rimula R4', 'litre', 40),
  q('GEN-COOLANT', 'Coolant concentrate', 'Generator spares', 'Fleetguard', 'ES Compleat', 'litre', 20),
  q('GEN-SPARK', 'Glow plug', 'Generator spares', 'Bosch', '0250202', 'pcs', 4),
  q('UPS-BAT-12V9', 'UPS battery 12V 9Ah', 'UPS batteries', 'Yuasa', 'NP9-12', 'pcs', 12),
  q('UPS-BAT-12V18', 'UPS battery 12V 18Ah', 'UPS batteries', 'CSB', 'HR1290W', 'pcs', 8),
  q('UPS-BAT-12V100', 'VRLA battery 12V 100Ah', 'UPS batteries', 'Exide', 'Powersafe 12V100', 'pcs', 4),
  s('UPS-MOD-10K', 'UPS power module 10 kVA', 'UPS batteries', 'APC', 'SYPM10K16H', 1),
  s('RECT-MOD-48V', 'Rectifier module 48V 2kW', 'Power', 'Eltek', 'Flatpack2 HE', 2),
  q('PWR-FUSE-63A', 'DC fuse 63A', 'Power', 'Mersen', 'NH00 63A', 'pcs', 10),
  q('PWR-MCB-32A', 'MCB 32A C-curve', 'Power', 'Schneider', 'iC60N', 'pcs', 6),
  q('PWR-SPD', 'Surge protection device', 'Power', 'Phoenix Contact', 'VAL-MS 230', 'pcs', 3),
  s('HDD-4TB', 'Surveillance HDD 4 TB', 'Storage', 'Seagate', 'SkyHawk ST4000VX016', 3),
  s('HDD-8TB', 'Surveillance HDD 8 TB', 'Storage', 'Western Digital', 'Purple WD84PURZ', 2),
  s('SSD-480', 'SSD 480 GB', 'Storage', 'Samsung', 'PM893', 1),
  q('SD-128', 'microSD card 128 GB', 'Storage', 'SanDisk', 'High Endurance', 'pcs', 10),
  s('CAM-DOME-4MP', 'Dome camera 4 MP', 'Cameras', 'Hikvision', 'DS-2CD2143G2-I', 2),
  s('CAM-BULLET-4MP', 'Bullet camera 4 MP', 'Cameras', 'Dahua', 'IPC-HFW2441S', 2),
  s('CAM-PTZ', 'PTZ camera 25x', 'Cameras', 'Axis', 'Q6075-E', 1),
  s('NVR-16', 'NVR 16 channel', 'Cameras', 'Hikvision', 'DS-7616NI-K2', 1),
  q('CAM-MOUNT', 'Camera wall mount', 'Cameras', 'Hikvision', 'DS-1272ZJ-110', 'pcs', 5),
  s('RTR-4G', '4G router', 'Network', 'Teltonika', 'RUT950', 2),
  s('RTR-LTE-IND', 'Industrial LTE router', 'Network', 'Teltonika', 'RUT956', 1),
  s('SW-8P-POE', 'PoE switch 8 port', 'Network', 'Ubiquiti', 'USW-Lite-8-PoE', 2),
  s('SW-24P', 'Managed switch 24 port', 'Network', 'Cisco', 'CBS350-24P', 1),
  q('SFP-1G-LX', 'SFP module 1G LX', 'Network', 'Cisco', 'GLC-LH-SMD', 'pcs', 4),
  q('NET-CAT6', 'Cat6 patch cable 2 m', 'Network', 'Panduit', 'UTP6A2', 'pcs', 20),
  q('NET-RJ45', 'RJ45 connector', 'Network', 'AMP', '5-554720-3', 'pcs', 100),
  s('RTU-MAIN', 'RTU controller', 'Controllers', 'Schneider', 'SCADAPack 474', 1),
  s('IO-MOD-16DI', 'I/O module 16 DI', 'Controllers', 'Advantech', 'ADAM-6050', 2),
  s('METER-3PH', 'Energy meter 3-phase', 'Controllers', 'Schneider', 'PM5560', 1),
  q('SENS-TEMP', 'Temperature sensor', 'Sensors', 'Honeywell', 'T7460', 'pcs', 5),
  q('SENS-DOOR', 'Door contact sensor', 'Sensors', 'Honeywell', '7939WG', 'pcs', 8),
  q('SENS-SMOKE', 'Smoke detector', 'Sensors', 'Apollo', 'XP95', 'pcs', 4),
  q('SENS-FUEL', 'Fuel level sensor', 'Sensors', 'Omnicomm', 'LLS 5', 'pcs', 2),
  q('CONS-TIES', 'Cable ties (100)', 'Consumables', 'HellermannTyton', 'T50R', 'pack', 10),
  q('CONS-TAPE', 'Insulation tape', 'Consumables', '3M', 'Temflex 1500', 'roll', 12),
];

/**
 * Two stores per tenant (a central store and a site store, both held by the store manager), about forty spares and
 * a few months of movements: receipts, transfers to the site store, issues to tickets and the odd write-off, with a
 * couple of items left below their threshold. On hand and the serials' places are derived from those movements.
 */
export const inventorySeeder: Seeder = {
  name: 'inventory',
  async run({ db, tenantId, random, log }) {
    const manager = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`'storemanager' = any(roles)`)
      .executeTakeFirst();
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`'customeradmin' = any(roles)`)
      .executeTakeFirst();
    const site = await db
      .selectFrom('assets')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const tickets = await db.selectFrom('tickets').select('id').where('tenant_id', '=', tenantId).orderBy('id', 'desc').limit(20).execute();
    const managers = manager ? [manager.id] : [];
    const stores = await db
      .insertInto('inventory_stores')
      .values([
        { tenant_id: tenantId, name: 'Central Store', asset_id: null, manager_ids: managers },
        { tenant_id: tenantId, name: site ? `${site.name} Store` : 'Field Store', asset_id: site?.id ?? null, manager_ids: managers },
      ])
      .returning(['id'])
      .execute();
    const [central, field] = stores.map((r) => r.id) as [number, number];
    const items = await db
      .insertInto('inventory_items')
      .values(
        ITEMS.map((i) => ({
          tenant_id: tenantId,
          code: i.code,
          name: i.name,
          category: i.category,
          make: i.make,
          model: i.model,
          unit: i.unit,
          tracking: i.tracking,
          low_threshold: i.threshold,
        })),
      )
      .returning(['id', 'code'])
      .execute();
    const idOf = new Map(items.map((i) => [i.code, i.id]));
    const actors = [manager?.id ?? null, admin?.id ?? null];
    const start = Date.now() - 90 * 86_400_000;
    type Row = {
      tenant_id: number;
      kind: 'RECEIVE' | 'TRANSFER' | 'ISSUE' | 'RETURN' | 'WRITE_OFF';
      item_id: number;
      quantity: number;
      from_store_id: number | null;
      to_store_id: number | null;
      serial_id: number | null;
      ticket_id: number | null;
      note: string;
      actor_id: number | null;
      created_at: Date;
    };
    const rows: Row[] = [];
    let clock = start;
    const at = () => {
      clock += random.int(1, 6) * 3_600_000;
      return new Date(Math.min(clock, Date.now() - 60_000));
    };
    // Items left below their threshold in the site store.
    const low = new Set(['UPS-BAT-12V9', 'GEN-FLT-OIL', 'HDD-4TB']);
    const serialState: Array<{ id: number; store: number | null; status: 'IN_STORE' | 'ISSUED' | 'WRITTEN_OFF'; ticket: number | null }> =
      [];
    for (const item of ITEMS) {
      const itemId = idOf.get(item.code) as number;
      const base = { tenant_id: tenantId, item_id: itemId, ticket_id: null, actor_id: random.pick(actors) };
      if (item.tracking === 'QUANTITY') {
        const received = item.threshold * random.int(3, 5) + random.int(0, 5);
        rows.push({
          ...base,
          kind: 'RECEIVE',
          quantity: received,
          from_store_id: null,
          to_store_id: central,
          serial_id: null,
          note: 'Purchase order',
          created_at: at(),
        });
        const sent = low.has(item.code) ? item.threshold + 1 : Math.max(item.threshold + 2, Math.floor(received / 2));
        rows.push({
          ...base,
          kind: 'TRANSFER',
          quantity: sent,
          from_store_id: central,
          to_store_id: field,
          serial_id: null,
          note: '',
          created_at: at(),
        });
        let fieldOnHand = sent;
        const issues = low.has(item.code) ? 2 : random.int(0, 2);
        for (let k = 0; k < issues && fieldOnHand > 0; k++) {
          const n = low.has(item.code) ? Math.min(fieldOnHand, k === 0 ? 2 : 1) : Math.min(fieldOnHand - item.threshold, random.int(1, 3));
          if (n <= 0) break;
          const ticket = tickets.length ? random.pick(tickets).id : null;
          rows.push({
            ...base,
            kind: ticket ? 'ISSUE' : 'WRITE_OFF',
            ticket_id: ticket,
            quantity: n,
            from_store_id: field,
            to_store_id: null,
            serial_id: null,
            note: ticket ? '' : 'Damaged in transit',
            created_at: at(),
          });
          fieldOnHand -= n;
        }
        if (random.chance(0.15)) {
          rows.push({
            ...base,
            kind: 'WRITE_OFF',
            quantity: 1,
            from_store_id: central,
            to_store_id: null,
            serial_id: null,
            note: 'Damaged',
            created_at: at(),
          });
        }
      } else {
        const count = item.threshold + random.int(2, 4);
        const prefix = item.make.slice(0, 3).toUpperCase();
        const serials = await db
          .insertInto('inventory_serials')
          .values(
            Array.from({ length: count }, (_, k) => ({
              tenant_id: tenantId,
              item_id: itemId,
              serial: `${prefix}${random.int(100000, 999999)}${k}`,
              store_id: null,
              status: 'IN_STORE' as const,
            })),
          )
          .returning('id')
          .execute();
        const toField = low.has(item.code) ? item.threshold : Math.min(count, item.threshold + 1);
        for (const [k, { id }] of serials.entries()) {
          rows.push({
            ...base,
            kind: 'RECEIVE',
            quantity: 1,
            from_store_id: null,
            to_store_id: central,
            serial_id: id,
            note: 'Purchase order',
            created_at: at(),
          });
          let state: (typeof serialState)[number] = { id, store: central, status: 'IN_STORE', ticket: null };
          if (k < toField) {
            rows.push({
              ...base,
              kind: 'TRANSFER',
              quantity: 1,
              from_store_id: central,
              to_store_id: field,
              serial_id: id,
              note: '',
              created_at: at(),
            });
            state = { id, store: field, status: 'IN_STORE', ticket: null };
            if (k === 0 && tickets.length && (low.has(item.code) || random.chance(0.4))) {
              const ticket = random.pick(tickets).id;
              rows.push({
                ...base,
                kind: 'ISSUE',
                quantity: 1,
                from_store_id: field,
                to_store_id: null,
                serial_id: id,
                ticket_id: ticket,
                note: '',
                created_at: at(),
              });
              state = { id, store: null, status: 'ISSUED', ticket };
            }
          }
          serialState.push(state);
        }
      }
    }
    rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('inventory_movements')
        .values(rows.slice(i, i + 500))
        .execute();
    for (const st of serialState) {
      if (st.store === central) continue;
      await db
        .updateTable('inventory_serials')
        .set({ store_id: st.store, status: st.status, ticket_id: st.ticket })
        .where('id', '=', st.id)
        .execute();
    }
    await db
      .updateTable('inventory_serials')
      .set({ store_id: central })
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'IN_STORE')
      .where('store_id', 'is', null)
      .execute();
    await sql`
      insert into inventory_balances (tenant_id, item_id, store_id, on_hand)
      select ${tenantId}, item_id, store_id, sum(q) from (
        select item_id, to_store_id as store_id, quantity as q from inventory_movements where tenant_id = ${tenantId} and to_store_id is not null
        union all
        select item_id, from_store_id, -quantity from inventory_movements where tenant_id = ${tenantId} and from_store_id is not null
      ) x group by item_id, store_id
    `.execute(db);
    log.info(`inventory: 2 stores, ${ITEMS.length} items, ${rows.length} movements`);
  },
};
