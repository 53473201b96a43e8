import { TRAP_OIDS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import snmp from 'net-snmp';
import type { Db } from '../../platform/db.ts';

const IF_INDEX = '1.3.6.1.2.1.2.2.1.1';

/**
 * Now and then one demo UPS or generator "sends" an SNMP trap to the built-in receiver (on its behalf, with
 * snmpTrapAddress naming it, with the tenant's community, from loopback: a relay the demo tenant lists): a link goes down and comes back, a UPS goes on battery and back, a restart, or a
 * vendor trap no mapping knows. The trap screens and the alarms then have living data.
 */
export async function startTrapSimulator(options: {
  db: Db;
  tenantSlug: string;
  port: number;
  intervalSeconds: number;
  log: { info(obj: object, msg?: string): void };
}) {
  // the demo tenant's own community (made at random with the tenant)
  const tenant = await options.db.selectFrom('tenants').select('trap_community').where('slug', '=', options.tenantSlug).executeTakeFirst();
  const session = snmp.createSession('127.0.0.1', tenant?.trap_community ?? '', { trapPort: options.port, version: snmp.Version2c });
  session.on('error', () => undefined);
  let devices: Array<{ type: string; address: string }> = [];
  const open = new Map<string, string>();
  let n = 0;

  async function load() {
    const { rows } = await sql<{ type: string; address: string }>`
      select d.type, d.metadata->>'ipAddress' as address from devices d join tenants t on t.id = d.tenant_id
      where t.slug = ${options.tenantSlug} and d.type in ('UPS', 'GENERATOR') and d.metadata ? 'ipAddress'
      order by d.id limit 50`.execute(options.db);
    devices = rows;
  }

  function send(oid: string, address: string, extra: Array<{ oid: string; type: number; value: unknown }> = []) {
    session.trap(
      oid,
      [{ oid: TRAP_OIDS.snmpTrapAddress, type: snmp.ObjectType.IpAddress, value: address }, ...extra] as snmp.Varbind[],
      () => undefined,
    );
  }

  function tick() {
    if (devices.length === 0) return;
    n++;
    const device = devices[(n * 7) % devices.length] as { type: string; address: string };
    const pending = open.get(device.address);
    if (pending) {
      open.delete(device.address);
      if (pending === 'battery') send(TRAP_OIDS.upsTrapAlarmEntryRemoved, device.address);
      else send(TRAP_OIDS.linkUp, device.address, [{ oid: `${IF_INDEX}.1`, type: snmp.ObjectType.Integer, value: 1 }]);
      return;
    }
    const pick = n % 4;
    if (pick === 0 && device.type === 'UPS') {
      open.set(device.address, 'battery');
      send(TRAP_OIDS.upsTrapOnBattery, device.address);
    } else if (pick === 1) {
      open.set(device.address, 'link');
      send(TRAP_OIDS.linkDown, device.address, [{ oid: `${IF_INDEX}.1`, type: snmp.ObjectType.Integer, value: 1 }]);
    } else if (pick === 2) {
      send('1.3.6.1.4.1.318.0.636', device.address, [
        { oid: '1.3.6.1.4.1.318.2.3.3.0', type: snmp.ObjectType.OctetString, value: 'Battery self-test passed' },
      ]);
    } else send(TRAP_OIDS.warmStart, device.address);
  }

  await load();
  const timer = setInterval(tick, options.intervalSeconds * 1000);
  const reload = setInterval(() => void load().catch(() => undefined), 300_000);
  timer.unref();
  reload.unref();
  options.log.info({ devices: devices.length }, 'demo trap simulator started');
  return {
    stop() {
      clearInterval(timer);
      clearInterval(reload);
      session.close();
    },
  };
}
