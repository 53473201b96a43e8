import { TRAP_OIDS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { createSealer } from '../modules/snmp/secrets.ts';
import { installSecret } from '../platform/secrets.ts';
import type { Seeder } from './seeder.ts';

/** The demo's address plan for SNMP-capable devices: 10.40.x.y in the demo tenant, 10.41.x.y in acme, 10.42+ others. */
export const demoTrapNetwork = (slug: string, tenantId: number) => (slug === 'demo' ? 40 : slug === 'acme' ? 41 : 42 + (tenantId % 200));

/** The address the demo gives the n-th (0-based) UPS or generator of a tenant. */
export const demoTrapAddress = (slug: string, tenantId: number, n: number) =>
  `10.${demoTrapNetwork(slug, tenantId)}.${Math.floor(n / 250)}.${(n % 250) + 1}`;

const IF_INDEX = '1.3.6.1.2.1.2.2.1.1';

/**
 * SNMP traps in the demo: OID → alarm mappings (link down/up per port, cold start, UPS on battery and back),
 * every UPS and generator declares an address (the trap receiver finds devices by it), a forwarding destination on
 * a documentation address (192.0.2.10, TEST-NET-1: nothing answers), disabled, and a filter sending major and
 * critical traps to it.
 */
export const snmpSeeder: Seeder = {
  name: 'snmp-traps',
  async run({ db, tenantId, slug }) {
    await db
      .insertInto('trap_mappings')
      .values([
        {
          tenant_id: tenantId,
          name: 'Link down',
          trap_oid: TRAP_OIDS.linkDown,
          action: 'raise',
          alarm_key: 'link',
          instance_oid: IF_INDEX,
          severity: 'MAJOR',
        },
        {
          tenant_id: tenantId,
          name: 'Link down',
          trap_oid: TRAP_OIDS.linkUp,
          action: 'clear',
          alarm_key: 'link',
          instance_oid: IF_INDEX,
          severity: 'MAJOR',
        },
        {
          tenant_id: tenantId,
          name: 'Device restarted',
          trap_oid: TRAP_OIDS.coldStart,
          action: 'raise',
          alarm_key: 'restart',
          severity: 'WARNING',
        },
        {
          tenant_id: tenantId,
          name: 'Device restarted',
          trap_oid: TRAP_OIDS.warmStart,
          action: 'clear',
          alarm_key: 'restart',
          severity: 'WARNING',
        },
        {
          tenant_id: tenantId,
          name: 'UPS on battery',
          trap_oid: TRAP_OIDS.upsTrapOnBattery,
          action: 'raise',
          alarm_key: 'ups-battery',
          severity: 'CRITICAL',
          create_ticket: true,
          device_type: 'UPS',
        },
        {
          tenant_id: tenantId,
          name: 'UPS on battery',
          trap_oid: TRAP_OIDS.upsTrapAlarmEntryRemoved,
          action: 'clear',
          alarm_key: 'ups-battery',
          severity: 'CRITICAL',
          device_type: 'UPS',
        },
      ])
      .execute();

    const devices = await db
      .selectFrom('devices')
      .select(['id'])
      .where('tenant_id', '=', tenantId)
      .where('type', 'in', ['UPS', 'GENERATOR'])
      .where(sql<boolean>`not (metadata ? 'ipAddress')`)
      .orderBy('id')
      .execute();
    if (devices.length > 0) {
      await sql`
        update devices d set metadata = d.metadata || jsonb_build_object('ipAddress', a.ip, 'snmpCommunity', 'public')
        from unnest(${devices.map((d) => d.id)}::int[], ${devices.map((_, n) => demoTrapAddress(slug, tenantId, n))}::text[]) as a(id, ip)
        where d.id = a.id`.execute(db);
    }

    const sealer = createSealer(await installSecret(db, 'trap-forwarding'));
    const destination = await db
      .insertInto('trap_destinations')
      .values({
        tenant_id: tenantId,
        name: 'NOC collector (example)',
        host: '192.0.2.10',
        port: 162,
        version: 'v2c',
        mode: 'trap',
        community: sealer.seal('public'),
        enabled: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('trap_filters')
      .values({
        tenant_id: tenantId,
        name: 'Major and critical to the NOC',
        oid_prefix: '',
        min_severity: 'MAJOR',
        destination_ids: sql<number[]>`${[destination.id]}::int[]`,
        enabled: true,
      })
      .execute();
  },
};

/**
 * The demo's trap simulator sends on behalf of the demo devices from loopback, naming them in snmpTrapAddress.0:
 * it is a relay the demo tenants list (a tenant trusts that varbind only from relays it lists). The community each
 * tenant got at random when it was created stays as it is.
 */
export const snmpTrapRelaySeeder: Seeder = {
  name: 'snmp-trap-relay',
  async run({ db, tenantId }) {
    await db
      .updateTable('tenants')
      .set({ trap_relays: ['127.0.0.1'] })
      .where('id', '=', tenantId)
      .execute();
  },
};

/** The demo tenants' devices live on a simulated network: nothing is dialled at the addresses they declare. */
export const simulatedNetworkSeeder: Seeder = {
  name: 'simulated-network',
  async run({ db, tenantId }) {
    // loopback only: the simulator answers for the demo's devices and nothing meant for them leaves the machine
    await db
      .updateTable('tenants')
      .set({ simulated_network: true, outbound_networks: ['127.0.0.0/8', '::1'] })
      .where('id', '=', tenantId)
      .execute();
  },
};
