import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { TRAP_OIDS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { startLivingDemo } from './support/living-demo.ts';

/**
 * The demo sends nothing off the machine: every socket the product opens while the demo runs (device simulator over
 * MQTT, trap simulator, trap forwarding, diagnostics on demo devices of every kind) goes to 127.0.0.0/8 or ::1, no
 * name is looked up, and no tool (ping, ffmpeg) is started against another address. The watch wraps
 * net.Socket#connect, dgram.Socket#send/#connect, dns lookups and child_process.spawn for the whole run.
 */
const outside: string[] = [];
const loopback = (host: unknown) => {
  const h = String(host ?? '').replace(/^::ffff:/, '');
  return h === '' || h === 'localhost' || h.startsWith('127.') || h === '::1';
};
function watchSockets() {
  const netConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number | string;
    const host = typeof first === 'object' ? (first.path ? '127.0.0.1' : first.host) : typeof first === 'number' ? args[1] : undefined;
    if (!loopback(host ?? 'localhost')) outside.push(`tcp connect ${String(host)}`);
    return (netConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof netConnect;
  const udpSend = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function (this: dgram.Socket, ...args: unknown[]) {
    const address = args.find((a, i) => i > 0 && typeof a === 'string');
    if (address !== undefined && !loopback(address)) outside.push(`udp send ${String(address)}`);
    return (udpSend as (...a: unknown[]) => void).apply(this, args);
  } as typeof udpSend;
  const udpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function (this: dgram.Socket, ...args: unknown[]) {
    const address = typeof args[1] === 'string' ? args[1] : undefined;
    if (!loopback(address ?? 'localhost')) outside.push(`udp connect ${String(address)}`);
    return (udpConnect as (...a: unknown[]) => void).apply(this, args);
  } as typeof udpConnect;
  for (const target of [dns, dns.promises] as Array<Record<string, unknown>>) {
    const lookup = target.lookup as (...a: unknown[]) => unknown;
    target.lookup = (...args: unknown[]) => {
      if (!loopback(args[0]) && net.isIP(String(args[0])) === 0) outside.push(`dns lookup ${String(args[0])}`);
      return lookup(...args);
    };
  }
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args?: readonly string[], ...rest: unknown[]) => {
    const dialled = (args ?? []).filter((a) => /^(\d{1,3}\.){3}\d{1,3}$|:\/\//.test(a) && !/(^|\/\/|@)(127\.|localhost|\[::1\])/.test(a));
    if (dialled.length > 0) outside.push(`spawn ${command} ${dialled.join(' ')}`);
    return (spawn as (...a: unknown[]) => unknown)(command, args, ...rest);
  }) as typeof spawn;
  syncBuiltinESMExports();
}

let t: TestApp;
let admin: TestClient;
let demo: Awaited<ReturnType<typeof startLivingDemo>> | undefined;

beforeAll(async () => {
  watchSockets();
  t = await createTestApp({ TELEMETRY_FLUSH_MS: '100', SNMP_TRAP_HOST: '127.0.0.1', TRAP_FORWARD_NETWORKS: 'private' });
  demo = await startLivingDemo(t, { intervalSeconds: 2, folder: 'sw-demo-offline-' });
  admin = await t.login('customeradmin');
}, 240_000);

afterAll(async () => {
  await demo?.stop();
  await t?.close();
  demo?.remove();
}, 60_000);

describe('the demo', () => {
  it('opens no socket to an address outside loopback while it runs and its devices are diagnosed', async () => {
    // the demo's forwarding destination (a documentation address) enabled: a trap it takes is not sent there
    await sql`update trap_destinations set enabled = true where tenant_id = ${t.tenantA}`.execute(t.db);
    t.handles.snmp.receiver.invalidate();
    const { rows: devices } = await sql<{ id: number; type: string; host: string | null; rtsp: string | null }>`
      select distinct on (type) id, type, coalesce(metadata->>'host', metadata->>'ipAddress') as host, metadata->>'rtspUrl' as rtsp
      from devices where tenant_id = ${t.tenantA} and asset_id is not null order by type, id`.execute(t.db);
    const runs: number[] = [];
    for (const d of devices) {
      for (const tool of ['ping', 'tcp', 'snmp', 'rtsp'] as const) {
        const body = { deviceId: d.id, tool, ...(tool === 'tcp' ? { port: 80 } : {}) };
        let res = await admin.post('/api/device-ops/diagnostics/runs/', body);
        // A tenant runs a few diagnostics at a time: wait for the earlier ones to end, as a person would.
        for (let wait = 0; res.statusCode === 429 && wait < 60; wait++) {
          await new Promise((r) => setTimeout(r, 500));
          res = await admin.post('/api/device-ops/diagnostics/runs/', body);
        }
        if (res.statusCode === 201) runs.push(res.json().id);
        else expect(res.statusCode, `${d.type} ${tool}: ${res.body}`).toBe(400);
      }
    }
    expect(runs.length).toBeGreaterThanOrEqual(6);
    // a trap the demo's filter forwards (major and critical) from a demo UPS
    const ups = (
      await sql<{ address: string }>`
      select metadata->>'ipAddress' as address from devices where tenant_id = ${t.tenantA} and type = 'UPS' and metadata ? 'ipAddress' limit 1`.execute(
        t.db,
      )
    ).rows[0];
    expect(ups).toBeTruthy();
    const [community] = (await sql<{ c: string }>`select trap_community as c from tenants where id = ${t.tenantA}`.execute(t.db)).rows;
    const snmp = (await import('net-snmp')).default;
    const session = snmp.createSession('127.0.0.1', community?.c ?? '', {
      trapPort: t.handles.snmp.receiver.port ?? 0,
      version: snmp.Version2c,
    });
    await new Promise<void>((resolve) =>
      session.trap(
        TRAP_OIDS.upsTrapOnBattery,
        [{ oid: TRAP_OIDS.snmpTrapAddress, type: snmp.ObjectType.IpAddress, value: ups?.address }],
        () => resolve(),
      ),
    );
    session.close();
    // let the simulators, the diagnostics and the forwarding run
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const pending = [];
      for (const id of runs) pending.push((await admin.get(`/api/device-ops/diagnostics/runs/${id}/`)).json().status);
      if (pending.every((s) => s !== 'running') && Date.now() > until - 10_000) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(outside).toEqual([]);
    const finished = await Promise.all(runs.map(async (id) => (await admin.get(`/api/device-ops/diagnostics/runs/${id}/`)).json()));
    expect(finished.filter((r) => r.status === 'succeeded').length).toBeGreaterThan(0);
    expect(finished.map((r) => r.output).join('\n')).toContain('simulated network');
    await t.handles.snmp.stats.flush();
    const dest = await t.db
      .selectFrom('trap_destinations')
      .select(['sent', 'dropped'])
      .where('tenant_id', '=', t.tenantA)
      .executeTakeFirstOrThrow();
    expect(Number(dest.sent)).toBe(0);
    expect(Number(dest.dropped)).toBeGreaterThan(0);
    expect(outside).toEqual([]);
  }, 240_000);
});
