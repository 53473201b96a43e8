import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { promisify } from 'node:util';
import { TRAP_OIDS, type TrapDestination, type TrapFilter } from '@sitewatch/contracts';
import snmp from 'net-snmp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

interface Pdu {
  type: number;
  enterprise?: string;
  generic?: number;
  specific?: number;
  agentAddr?: string;
  varbinds?: Array<{ oid: string; value: unknown }>;
}

const run = promisify(execFile);
const clock = createTestClock();
const V3 = { user: 'trapuser', auth: 'authpass123', priv: 'privpass123' };
const UPS_ADDRESS = '10.99.0.1';
const ROUTER_ADDRESS = '10.99.0.5';
const B_ADDRESS = '10.99.0.2';
const IF_INDEX = '1.3.6.1.2.1.2.2.1.1';

let t: TestApp;
let admin: TestClient;
let adminB: TestClient;
let viewer: TestClient;
let port: number;
let ups: { id: number; label: string };
let router: { id: number; label: string };
let site: { id: number };
let communityA: string;
let communityB: string;

interface Received {
  trapOid: string;
  version: string;
  varbinds: Array<{ oid: string; value: unknown }>;
  agentAddr?: string;
}

/** A downstream SNMP manager on loopback (the forwarding target). */
function downstream(community: string, fixedPort?: number, user?: { name: string; auth: string; priv: string }) {
  const got: Received[] = [];
  return new Promise<{ port: number; got: Received[]; close(): Promise<void> }>((resolve, reject) => {
    const start = (p: number) => {
      const receiver = snmp.createReceiver(
        { port: p, address: '127.0.0.1', includeAuthentication: true },
        (error: Error | null, n: { pdu: Pdu } | null) => {
          if (error || !n) return;
          const pdu = n.pdu;
          const vbs = (pdu.varbinds ?? []).map((vb) => ({
            oid: vb.oid,
            value: Buffer.isBuffer(vb.value) ? vb.value.toString() : vb.value,
          }));
          const trapOid =
            pdu.type === 164
              ? `${pdu.enterprise}/${pdu.generic}/${pdu.specific}`
              : String(vbs.find((v) => v.oid === TRAP_OIDS.snmpTrapOid)?.value);
          got.push({ trapOid, version: pdu.type === 164 ? 'v1' : 'v2', varbinds: vbs, agentAddr: pdu.agentAddr });
        },
      );
      receiver.getAuthorizer().addCommunity(community);
      if (user)
        receiver.getAuthorizer().addUser({
          name: user.name,
          level: snmp.SecurityLevel.authPriv,
          authProtocol: snmp.AuthProtocols.sha,
          authKey: user.auth,
          privProtocol: snmp.PrivProtocols.aes,
          privKey: user.priv,
        });
      resolve({ port: p, got, close: () => new Promise<void>((r) => receiver.close(() => r())) });
    };
    if (fixedPort) start(fixedPort);
    else {
      const probe = createSocket('udp4');
      probe.once('error', reject);
      probe.bind(0, '127.0.0.1', () => {
        const p = probe.address().port;
        probe.close(() => start(p));
      });
    }
  });
}

const trapArgs = (oid: string, varbinds: string[][]) => ['', oid, ...varbinds.flat()];
async function v2c(oid: string, varbinds: string[][], opts: { inform?: boolean; community?: string } = {}) {
  return run(
    'snmptrap',
    [
      ...(opts.inform ? ['-Ci', '-t', '2', '-r', '1'] : []),
      '-v',
      '2c',
      '-c',
      opts.community ?? communityA,
      '-M',
      '/dev/null',
      `127.0.0.1:${port}`,
      ...trapArgs(oid, varbinds),
    ],
    { env: { ...process.env, SNMP_PERSISTENT_DIR: '/tmp/snmp-test-persist', MIBS: '' } },
  );
}
const at = (address: string) => [TRAP_OIDS.snmpTrapAddress, 'a', address];

async function settle() {
  await new Promise((r) => setTimeout(r, 150));
  await t.handles.snmp.receiver.settled();
  await t.handles.snmp.stats.flush();
}
async function until<T>(probe: () => Promise<T | undefined | false>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${probe.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const alarmsOf = async (deviceId: number) =>
  (await admin.get(`/api/alarms/?deviceId=${deviceId}&limit=50`)).json().contents as Array<{
    ruleName: string;
    state: string;
    severity: string;
    message: string;
    id: number;
  }>;

beforeAll(async () => {
  t = await createTestApp(
    {
      TRAP_FORWARD_NETWORKS: 'any',
      // the test's managers listen on loopback: the tenants' devices live there
      OUTBOUND_NETWORKS: '127.0.0.0/8',
      SNMP_TRAP_HOST: '127.0.0.1',
      SNMP_TRAP_DEDUPE_MS: '1500',
      SNMP_TRAP_RATE_PER_SOURCE: '20',
      SNMP_INFORM_TIMEOUT_MS: '300',
    },
    { clock },
  );
  port = await t.handles.snmp.receiver.start(0);
  admin = await t.login('customeradmin');
  adminB = await t.login('customeradmin', HOST_B);
  // both tenants' traps come through a relay on loopback (this test), which names the device in snmpTrapAddress.0
  const savedA = await admin.put('/api/trapforward/receiving/', {
    relays: ['127.0.0.1'],
    users: [{ name: V3.user, securityLevel: 'authPriv', authProtocol: 'sha', authKey: V3.auth, privProtocol: 'aes', privKey: V3.priv }],
  });
  expect(savedA.statusCode, savedA.body).toBe(200);
  communityA = savedA.json().community;
  communityB = (await adminB.put('/api/trapforward/receiving/', { relays: ['127.0.0.0/8'] })).json().community;
  await t.handles.snmp.receiver.reloadCredentials();
  viewer = await t.login('customer');
  site = await makeSite(admin, { name: 'Trap Yard' });
  ups = await makeDevice(admin, { type: 'UPS', assetId: site.id, label: 'UPS-TRAP', metadata: { ipAddress: UPS_ADDRESS } });
  router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'RTR-TRAP', metadata: { ipAddress: ROUTER_ADDRESS } });
  const siteB = await makeSite(adminB, { name: 'B Yard' });
  await makeDevice(adminB, { type: 'UPS', assetId: siteB.id, label: 'UPS-B', metadata: { ipAddress: B_ADDRESS } });
  for (const [c, tenant] of [
    [admin, 'A'],
    [adminB, 'B'],
  ] as const) {
    for (const m of [
      { name: 'Link down', trapOid: TRAP_OIDS.linkDown, action: 'raise', alarmKey: 'link', instanceOid: IF_INDEX, severity: 'MAJOR' },
      { name: 'Link down', trapOid: TRAP_OIDS.linkUp, action: 'clear', alarmKey: 'link', instanceOid: IF_INDEX, severity: 'MAJOR' },
      {
        name: 'UPS on battery',
        trapOid: TRAP_OIDS.upsTrapOnBattery,
        action: 'raise',
        alarmKey: 'ups-battery',
        severity: 'CRITICAL',
        createTicket: true,
      },
      {
        name: 'UPS on battery',
        trapOid: TRAP_OIDS.upsTrapAlarmEntryRemoved,
        action: 'clear',
        alarmKey: 'ups-battery',
        severity: 'CRITICAL',
      },
    ]) {
      const res = await c.post('/api/trapforward/mappings/', m);
      expect(res.statusCode, `${tenant} ${res.body}`).toBe(201);
    }
  }
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe('trap receiver', () => {
  it('raises an alarm from a v2c trap matched by snmpTrapAddress, keeps the raw trap, and clears it', async () => {
    await v2c(TRAP_OIDS.linkDown, [at(ROUTER_ADDRESS), [`${IF_INDEX}.3`, 'i', '3']]);
    const raised = await until(async () => (await alarmsOf(router.id)).find((a) => a.state === 'ACTIVE'));
    expect(raised).toMatchObject({ ruleName: 'Link down', severity: 'MAJOR' });
    expect(raised.message).toContain('(3)');
    const raw = await t.db.selectFrom('alarms').select(['raw', 'source_key']).where('id', '=', raised.id).executeTakeFirstOrThrow();
    expect(raw.source_key).toBe('trap:link:3');
    expect(JSON.stringify(raw.raw)).toContain(TRAP_OIDS.linkDown);
    expect(JSON.stringify(raw.raw)).not.toContain(communityA);
    const device = (await admin.get(`/iotapp/devices/${router.id}/`)).json();
    expect(device.alarmStatus).toBe('MAJOR');

    await v2c(TRAP_OIDS.linkUp, [at(ROUTER_ADDRESS), [`${IF_INDEX}.3`, 'i', '3']]);
    await until(async () => (await alarmsOf(router.id)).every((a) => a.state === 'CLEARED'));
  });

  it('acknowledges a v2c inform and opens a ticket for a mapping that asks for one', async () => {
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(UPS_ADDRESS)], { inform: true });
    const alarm = await until(async () => (await alarmsOf(ups.id)).find((a) => a.state === 'ACTIVE'));
    expect(alarm.severity).toBe('CRITICAL');
    const row = await until(async () =>
      t.db.selectFrom('alarms').select('ticket_id').where('id', '=', alarm.id).where('ticket_id', 'is not', null).executeTakeFirst(),
    );
    expect(row.ticket_id).toBeGreaterThan(0);
    await v2c(TRAP_OIDS.upsTrapAlarmEntryRemoved, [at(UPS_ADDRESS)], { inform: true });
    await until(async () => (await alarmsOf(ups.id)).every((a) => a.state === 'CLEARED'));
  });

  it('takes a v1 trap by its agent-addr (generic linkDown)', async () => {
    await run(
      'snmptrap',
      [
        '-v',
        '1',
        '-c',
        communityA,
        '-M',
        '/dev/null',
        `127.0.0.1:${port}`,
        '1.3.6.1.4.1.8072',
        ROUTER_ADDRESS,
        '2',
        '0',
        '',
        `${IF_INDEX}.7`,
        'i',
        '7',
      ],
      {
        env: { ...process.env, SNMP_PERSISTENT_DIR: '/tmp/snmp-test-persist', MIBS: '' },
      },
    );
    const alarm = await until(async () => (await alarmsOf(router.id)).find((a) => a.state === 'ACTIVE' && a.message.includes('(7)')));
    expect(alarm.ruleName).toBe('Link down');
  });

  it('takes SNMPv3 authPriv traps and informs', async () => {
    const v3 = ['-v', '3', '-u', V3.user, '-l', 'authPriv', '-a', 'SHA', '-A', V3.auth, '-x', 'AES', '-X', V3.priv, '-M', '/dev/null'];
    const env = { ...process.env, SNMP_PERSISTENT_DIR: '/tmp/snmp-test-persist', MIBS: '' };
    await run(
      'snmptrap',
      [
        ...v3,
        '-e',
        '0x80001f8880c0ffee01',
        `127.0.0.1:${port}`,
        ...trapArgs(TRAP_OIDS.linkDown, [at(ROUTER_ADDRESS), [`${IF_INDEX}.11`, 'i', '11']]),
      ],
      { env },
    );
    await until(async () => (await alarmsOf(router.id)).find((a) => a.state === 'ACTIVE' && a.message.includes('(11)')));
    await run(
      'snmptrap',
      [
        '-Ci',
        '-t',
        '2',
        '-r',
        '1',
        ...v3,
        `127.0.0.1:${port}`,
        ...trapArgs(TRAP_OIDS.linkDown, [at(ROUTER_ADDRESS), [`${IF_INDEX}.12`, 'i', '12']]),
      ],
      {
        env,
      },
    );
    await until(async () => (await alarmsOf(router.id)).find((a) => a.state === 'ACTIVE' && a.message.includes('(12)')));
  });

  it('refuses an unknown community, and counts it for the install', async () => {
    const before = t.handles.snmp.stats.totals(t.tenantA)?.received ?? 0;
    const refused = t.handles.snmp.stats.totals(0)?.refused ?? 0;
    await v2c(TRAP_OIDS.linkDown, [at(ROUTER_ADDRESS), [`${IF_INDEX}.20`, 'i', '20']], { community: 'wrong' });
    await settle();
    expect(t.handles.snmp.stats.totals(t.tenantA)?.received ?? 0).toBe(before);
    expect(t.handles.snmp.stats.totals(0)?.refused).toBe(refused + 1);
  });

  it('logs unmatched traps: no mapping for a known device, and unknown sources', async () => {
    await v2c('1.3.6.1.4.1.99999.0.1', [at(UPS_ADDRESS), ['1.3.6.1.4.1.99999.1', 's', 'door open']]);
    await v2c('1.3.6.1.4.1.99999.0.2', [at('10.250.0.9')]);
    await settle();
    const list = (await admin.get('/api/trapforward/unmatched/')).json();
    const row = list.contents.find((r: { trapOid: string }) => r.trapOid === '1.3.6.1.4.1.99999.0.1');
    expect(row).toMatchObject({ reason: 'no-mapping', deviceId: ups.id, deviceLabel: 'UPS-TRAP', source: UPS_ADDRESS, count: 1 });
    // labels repeat at every site: the device is named with its site
    expect(row.deviceSiteName).toBe('Trap Yard');
    expect(row.varbinds).toContainEqual({ oid: '1.3.6.1.4.1.99999.1', type: 'OctetString', value: 'door open' });
    expect(JSON.stringify(list)).not.toContain('10.250.0.9');
    // unknown sources belong to no tenant: only system administrators see them
    const sys = await t.login('sysadmin');
    const unknown = (await sys.get('/api/trapforward/unmatched/?reason=unknown-source')).json();
    expect(unknown.contents.map((r: { source: string }) => r.source)).toContain('10.250.0.9');
    expect((await admin.get('/api/trapforward/unmatched/?reason=unknown-source')).json().contents).toEqual([]);
    // tenant B never sees tenant A's
    expect(JSON.stringify((await adminB.get('/api/trapforward/unmatched/')).json())).not.toContain('99999.0.1');
  });

  it("finds unmatched traps by their device's site name, label, source or OID", async () => {
    const harbour = await makeSite(admin, { name: 'Harbour Point' });
    const twin = await makeDevice(admin, { type: 'UPS', assetId: harbour.id, label: 'UPS-TRAP', metadata: { ipAddress: '10.99.0.77' } });
    await v2c('1.3.6.1.4.1.99999.0.3', [at(UPS_ADDRESS)]);
    await v2c('1.3.6.1.4.1.99999.0.3', [at('10.99.0.77')]);
    await settle();
    const find = async (search: string) =>
      (await admin.get(`/api/trapforward/unmatched/?search=${encodeURIComponent(search)}`)).json() as {
        contents: Array<{ deviceId: number; trapOid: string; deviceSiteName: string }>;
        totalCount: number;
      };
    const byLabel = (await find('ups-trap')).contents.filter((r) => r.trapOid === '1.3.6.1.4.1.99999.0.3');
    expect(byLabel.map((r) => r.deviceSiteName).sort()).toEqual(['Harbour Point', 'Trap Yard']);
    const bySite = await find('harbour point');
    expect(bySite.contents.map((r) => [r.deviceId, r.deviceSiteName])).toEqual([[twin.id, 'Harbour Point']]);
    expect(bySite.totalCount).toBe(1);
    expect((await find('10.99.0.77')).contents.map((r) => r.deviceId)).toEqual([twin.id]);
    expect((await find('99999.0.3')).totalCount).toBe(2);
    expect((await find('No such place')).contents).toEqual([]);
    expect((await admin.get(`/api/trapforward/unmatched/?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('drops repeats within the dedupe window and traps above the per-source rate', async () => {
    const before = { ...(t.handles.snmp.stats.totals(t.tenantA) ?? { deduped: 0, rateLimited: 0 }) };
    // three identical traps at once (separate snmptrap runs may be slower than the window on a loaded machine)
    const same = snmp.createSession('127.0.0.1', communityA, { trapPort: port, version: snmp.Version2c });
    const dup = [
      { oid: TRAP_OIDS.snmpTrapAddress, type: snmp.ObjectType.IpAddress, value: UPS_ADDRESS },
      { oid: '1.3.6.1.4.1.99999.1', type: snmp.ObjectType.Integer, value: 1 },
    ];
    await Promise.all([0, 1, 2].map(() => new Promise<void>((resolve) => same.trap('1.3.6.1.4.1.99999.0.3', dup, () => resolve()))));
    same.close();
    await settle();
    expect((t.handles.snmp.stats.totals(t.tenantA)?.deduped ?? 0) - (before.deduped ?? 0)).toBe(2);
    // a burst of distinct traps from one source: 2 s worth of the rate (40) pass, plus what the bucket refills (20 a
    // second) until the receiver has taken the last one; the rest are counted as dropped
    const session = snmp.createSession('127.0.0.1', communityB, { trapPort: port, version: snmp.Version2c });
    const burstStarted = performance.now();
    await Promise.all(
      Array.from(
        { length: 100 },
        (_, i) =>
          new Promise<void>((resolve) =>
            session.trap(
              '1.3.6.1.4.1.99999.0.4',
              [
                { oid: TRAP_OIDS.snmpTrapAddress, type: snmp.ObjectType.IpAddress, value: B_ADDRESS },
                { oid: '1.3.6.1.4.1.99999.2', type: snmp.ObjectType.Integer, value: i },
              ],
              () => resolve(),
            ),
          ),
      ),
    );
    session.close();
    await settle();
    const refilled = Math.ceil(((performance.now() - burstStarted) / 1000) * 20);
    const b = t.handles.snmp.stats.totals(t.tenantB);
    expect(b?.received ?? 0).toBeLessThanOrEqual(40 + refilled);
    expect(b?.rateLimited ?? 0).toBeGreaterThanOrEqual(100 - 40 - refilled);
    const stats = (await adminB.get('/api/trapforward/stats/')).json();
    expect(stats.rateLimited).toBe(b?.rateLimited);
  });
});

describe('trap forwarding', () => {
  let v2: Awaited<ReturnType<typeof downstream>>;
  let v1: Awaited<ReturnType<typeof downstream>>;
  let dest: TrapDestination;
  let destV1: TrapDestination;
  let filter: TrapFilter;

  beforeAll(async () => {
    v2 = await downstream('fwd-secret');
    v1 = await downstream('fwd-v1');
  });
  afterAll(async () => {
    await v2?.close();
    await v1?.close();
  });

  it('creates destinations without ever returning their secrets', async () => {
    const res = await admin.post('/api/trapforward/destinations/', {
      name: 'NOC v2c',
      host: '127.0.0.1',
      port: v2.port,
      version: 'v2c',
      community: 'fwd-secret',
    });
    expect(res.statusCode, res.body).toBe(201);
    dest = res.json();
    expect(dest).toMatchObject({ hasCommunity: true, sent: 0, mode: 'trap' });
    expect(res.body).not.toContain('fwd-secret');
    destV1 = (
      await admin.post('/api/trapforward/destinations/', {
        name: 'Old NMS',
        host: '127.0.0.1',
        port: v1.port,
        version: 'v1',
        community: 'fwd-v1',
      })
    ).json();
    const v3 = await admin.post('/api/trapforward/destinations/', {
      name: 'v3',
      host: '127.0.0.1',
      port: 1,
      version: 'v3',
      user: 'noc',
      securityLevel: 'authPriv',
      authKey: 'auth-secret-1',
      privKey: 'priv-secret-1',
      enabled: false,
    });
    expect(v3.statusCode, v3.body).toBe(201);
    expect(v3.json()).toMatchObject({ hasAuthKey: true, hasPrivKey: true });
    const all = await admin.get('/api/trapforward/destinations/');
    for (const secret of ['fwd-secret', 'fwd-v1', 'auth-secret-1', 'priv-secret-1']) expect(all.body).not.toContain(secret);
    const stored = await t.db
      .selectFrom('trap_destinations')
      .select(['community', 'auth_key'])
      .where('id', '=', v3.json().id)
      .executeTakeFirstOrThrow();
    expect(String(stored.auth_key)).not.toContain('auth-secret-1');
    // an update without the secret keeps it
    const kept = await admin.put(`/api/trapforward/destinations/${dest.id}/`, {
      name: 'NOC v2c',
      host: '127.0.0.1',
      port: v2.port,
      version: 'v2c',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().hasCommunity).toBe(true);
  });

  it('validates destinations', async () => {
    expect((await admin.post('/api/trapforward/destinations/', { name: 'x', host: '127.0.0.1', version: 'v2c' })).json().detail).toBe(
      'Community is required for SNMP v1 and v2c',
    );
    expect(
      (
        await admin.post('/api/trapforward/destinations/', {
          name: 'x',
          host: '127.0.0.1',
          version: 'v3',
          user: 'u',
          securityLevel: 'authPriv',
          authKey: 'longenough',
        })
      ).json().detail,
    ).toBe('Privacy key (at least 8 characters) is required for authPriv');
    expect(
      (await admin.post('/api/trapforward/destinations/', { name: 'x', host: '127.0.0.1', version: 'v1', mode: 'inform', community: 'c' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await viewer.post('/api/trapforward/destinations/', { name: 'x', host: '127.0.0.1', version: 'v2c', community: 'c' })).statusCode,
    ).toBe(403);
  });

  it('forwards matching traps with the original source kept (v2c: snmpTrapAddress, v1: agent-addr)', async () => {
    const res = await admin.post('/api/trapforward/filters/', {
      name: 'Links of the yard',
      oidPrefix: '1.3.6.1.6.3.1.1.5',
      assetId: site.id,
      destinationIds: [dest.id, destV1.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    filter = res.json();
    expect(filter.siteName).toBe('Trap Yard');
    // sent from loopback about the router: the source is the declared address
    await v2c(TRAP_OIDS.linkDown, [at(ROUTER_ADDRESS), [`${IF_INDEX}.30`, 'i', '30']]);
    const got = await until(async () => v2.got.find((g) => g.trapOid === TRAP_OIDS.linkDown && g.varbinds.some((v) => v.value === 30)));
    expect(got.varbinds).toContainEqual({ oid: TRAP_OIDS.snmpTrapAddress, value: ROUTER_ADDRESS });
    const old = await until(async () => v1.got.find((g) => g.version === 'v1'));
    expect(old.agentAddr).toBe(ROUTER_ADDRESS);
    expect(old.trapOid).toBe('1.3.6.1.4.1/2/0');
    // outside the OID prefix: not forwarded
    await v2c('1.3.6.1.4.1.99999.0.9', [at(ROUTER_ADDRESS)]);
    await settle();
    expect(v2.got.some((g) => g.trapOid === '1.3.6.1.4.1.99999.0.9')).toBe(false);
    await settle();
    const counted = (await admin.get(`/api/trapforward/destinations/${dest.id}/`)).json();
    expect(counted.sent).toBe(1);
    expect((await admin.get(`/api/trapforward/filters/${filter.id}/`)).json().matched).toBe(1);
  });

  it('filters on varbind values, device and severity', async () => {
    const byValue = await admin.post('/api/trapforward/filters/', {
      name: 'Doors',
      varbindOid: '1.3.6.1.4.1.99999.1',
      varbindValue: 'DOOR',
      deviceId: ups.id,
      destinationIds: [dest.id],
    });
    expect(byValue.statusCode, byValue.body).toBe(201);
    expect(byValue.json()).toMatchObject({ deviceLabel: 'UPS-TRAP', deviceSiteName: 'Trap Yard' });
    const severe = await admin.post('/api/trapforward/filters/', { name: 'Critical', minSeverity: 'CRITICAL', destinationIds: [dest.id] });
    expect(severe.statusCode, severe.body).toBe(201);
    await v2c('1.3.6.1.4.1.99999.0.5', [at(UPS_ADDRESS), ['1.3.6.1.4.1.99999.1', 's', 'Back door forced']]);
    await v2c('1.3.6.1.4.1.99999.0.6', [at(UPS_ADDRESS), ['1.3.6.1.4.1.99999.1', 's', 'window']]);
    // a varbind of its own: the same trap from this source earlier in the file may still be in the dedupe window
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(UPS_ADDRESS), ['1.3.6.1.4.1.99999.2', 's', 'severity filter']]);
    await until(async () => v2.got.find((g) => g.trapOid === '1.3.6.1.4.1.99999.0.5'));
    await until(async () => v2.got.find((g) => g.trapOid === TRAP_OIDS.upsTrapOnBattery));
    await settle();
    expect(v2.got.some((g) => g.trapOid === '1.3.6.1.4.1.99999.0.6')).toBe(false);
    await admin.delete(`/api/trapforward/filters/${byValue.json().id}/`);
    await admin.delete(`/api/trapforward/filters/${severe.json().id}/`);
  });

  it('forwards to an SNMPv3 authPriv destination', async () => {
    const user = { name: 'noc3', auth: 'auth-key-v3', priv: 'priv-key-v3' };
    const nms = await downstream('unused', undefined, user);
    const d3 = (
      await admin.post('/api/trapforward/destinations/', {
        name: 'NOC v3',
        host: '127.0.0.1',
        port: nms.port,
        version: 'v3',
        user: user.name,
        securityLevel: 'authPriv',
        authProtocol: 'sha',
        authKey: user.auth,
        privProtocol: 'aes',
        privKey: user.priv,
      })
    ).json() as TrapDestination;
    const f = (
      await admin.post('/api/trapforward/filters/', { name: 'Cold starts', oidPrefix: TRAP_OIDS.coldStart, destinationIds: [d3.id] })
    ).json();
    await v2c(TRAP_OIDS.coldStart, [at(UPS_ADDRESS)]);
    const got = await until(async () => nms.got.find((g) => g.trapOid === TRAP_OIDS.coldStart));
    expect(got.varbinds).toContainEqual({ oid: TRAP_OIDS.snmpTrapAddress, value: UPS_ADDRESS });
    await nms.close();
    await admin.delete(`/api/trapforward/filters/${f.id}/`);
    await admin.delete(`/api/trapforward/destinations/${d3.id}/`);
  });

  it('retries an unacknowledged inform from the job queue until it is acknowledged', async () => {
    const probe = createSocket('udp4');
    const silentPort = await new Promise<number>((r) => probe.bind(0, '127.0.0.1', () => r(probe.address().port)));
    const inform = (
      await admin.post('/api/trapforward/destinations/', {
        name: 'Inform NMS',
        host: '127.0.0.1',
        port: silentPort,
        version: 'v2c',
        mode: 'inform',
        community: 'inf',
      })
    ).json() as TrapDestination;
    const f = (
      await admin.post('/api/trapforward/filters/', { name: 'Restarts', oidPrefix: TRAP_OIDS.warmStart, destinationIds: [inform.id] })
    ).json();
    await v2c(TRAP_OIDS.warmStart, [at(ROUTER_ADDRESS)]);
    const job = await until(async () =>
      t.db.selectFrom('jobs').select(['id', 'status']).where('queue', '=', 'snmp.inform-retry').executeTakeFirst(),
    );
    expect(job.status).toBe('queued');
    await settle();
    const failing = (await admin.get(`/api/trapforward/destinations/${inform.id}/`)).json() as TrapDestination;
    expect(failing.lastFailures[0]?.error).toContain('not acknowledged');
    // the manager comes up on that port; the retry is acknowledged
    probe.close();
    const nms = await downstream('inf', silentPort);
    clock.advance(10_000);
    await until(async () => {
      await t.app.jobs.drain();
      return nms.got.find((g) => g.trapOid === TRAP_OIDS.warmStart);
    });
    await settle();
    const ok = (await admin.get(`/api/trapforward/destinations/${inform.id}/`)).json() as TrapDestination;
    expect(ok.sent).toBe(1);
    await nms.close();
    await admin.delete(`/api/trapforward/filters/${f.id}/`);
  });

  it('keeps tenants apart', async () => {
    expect((await adminB.get(`/api/trapforward/destinations/${dest.id}/`)).statusCode).toBe(404);
    expect((await adminB.put(`/api/trapforward/filters/${filter.id}/`, { name: 'x', destinationIds: [dest.id] })).statusCode).toBe(404);
    expect((await adminB.delete(`/api/trapforward/destinations/${dest.id}/`)).statusCode).toBe(404);
    const mappingA = (await admin.get('/api/trapforward/mappings/')).json().contents[0] as { id: number };
    expect(
      (await adminB.put(`/api/trapforward/mappings/${mappingA.id}/`, { name: 'x', trapOid: '1.3.6.1.1', action: 'raise', alarmKey: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await adminB.delete(`/api/trapforward/mappings/${mappingA.id}/`)).statusCode).toBe(404);
    expect((await adminB.get(`/api/trapforward/filters/${filter.id}/`)).statusCode).toBe(404);
    const listB = await adminB.get('/api/trapforward/destinations/');
    expect(listB.json().contents).toEqual([]);
    // B cannot point a filter at A's destination or device
    const foreign = await adminB.post('/api/trapforward/filters/', { name: 'x', destinationIds: [dest.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).not.toContain('NOC');
    expect((await adminB.post('/api/trapforward/filters/', { name: 'x', deviceId: ups.id, destinationIds: [dest.id] })).statusCode).toBe(
      400,
    );
    // B's traps never reach A's destinations
    const before = v2.got.length;
    await v2c(TRAP_OIDS.linkDown, [at(B_ADDRESS), [`${IF_INDEX}.40`, 'i', '40']], { community: communityB });
    await settle();
    expect(v2.got.length).toBe(before);
  });

  it('refuses destinations on forbidden networks when the rule is the default', async () => {
    const strict = await createTestApp({ SNMP_TRAP_RECEIVER: 'false' });
    try {
      const a = await strict.login('customeradmin');
      const res = await a.post('/api/trapforward/destinations/', { name: 'x', host: '169.254.169.254', version: 'v2c', community: 'c' });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('This host may not receive traps from this server (loopback, link-local, metadata or this machine)');
      expect(
        (await a.post('/api/trapforward/destinations/', { name: 'x', host: '127.0.0.1', version: 'v2c', community: 'c' })).statusCode,
      ).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it('deletes a destination and takes it out of the filters', async () => {
    expect((await admin.delete(`/api/trapforward/destinations/${destV1.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/api/trapforward/filters/${filter.id}/`)).json().destinationIds).toEqual([dest.id]);
  });
});

describe('trap attribution', () => {
  const alarmsOfB = async () => {
    const list = (await adminB.get('/iotapp/devices/?limit=50')).json().contents as Array<{ id: number; label: string }>;
    const upsB = list.find((d) => d.label === 'UPS-B') as { id: number };
    return (await adminB.get(`/api/alarms/?deviceId=${upsB.id}&limit=50`)).json().contents as Array<{ state: string; message: string }>;
  };

  it('gives every tenant a random community of its own, never public, shown to those who may change trap settings', async () => {
    expect(communityA).toMatch(/^sw[A-Za-z0-9_-]{20,}$/);
    expect(communityB).toMatch(/^sw[A-Za-z0-9_-]{20,}$/);
    expect(communityA).not.toBe(communityB);
    const rows = await t.db.selectFrom('tenants').select('trap_community').execute();
    expect(new Set(rows.map((r) => r.trap_community)).size).toBe(rows.length);
    expect(rows.map((r) => r.trap_community)).not.toContain('public');
    const got = (await admin.get('/api/trapforward/receiving/')).json();
    expect(got).toMatchObject({ community: communityA, relays: ['127.0.0.1'], port: expect.any(Number) });
    // v3 keys are write-only
    expect(got.users).toEqual([
      { name: V3.user, securityLevel: 'authPriv', authProtocol: 'sha', privProtocol: 'aes', hasAuthKey: true, hasPrivKey: true },
    ]);
    expect(JSON.stringify(got)).not.toContain(V3.auth);
    expect((await viewer.get('/api/trapforward/receiving/')).statusCode).toBe(403);
  });

  it('refuses the spoof: community public from 127.0.0.1 naming another tenant device in snmpTrapAddress.0', async () => {
    const refused = t.handles.snmp.stats.totals(0)?.refused ?? 0;
    const receivedB = t.handles.snmp.stats.totals(t.tenantB)?.received ?? 0;
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(B_ADDRESS)], { community: 'public' });
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(B_ADDRESS)], { community: 'public', inform: true }).catch(() => undefined);
    await settle();
    expect(t.handles.snmp.stats.totals(0)?.refused ?? 0).toBeGreaterThanOrEqual(refused + 2);
    expect(t.handles.snmp.stats.totals(t.tenantB)?.received ?? 0).toBe(receivedB);
    expect((await alarmsOfB()).filter((a) => a.state === 'ACTIVE' && a.message.includes('on battery'))).toEqual([]);
    // a system administrator sees the refusals; tenants see none of it
    const sys = await t.login('sysadmin');
    expect((await sys.get('/api/trapforward/stats/')).json().install.refused).toBeGreaterThanOrEqual(refused + 2);
    expect((await admin.get('/api/trapforward/stats/')).json().install).toBeNull();
  });

  it("never matches another tenant's device: A's community naming B's device lands in no tenant", async () => {
    const receivedB = t.handles.snmp.stats.totals(t.tenantB)?.received ?? 0;
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(B_ADDRESS)]);
    await settle();
    expect(t.handles.snmp.stats.totals(t.tenantB)?.received ?? 0).toBe(receivedB);
    expect((await alarmsOfB()).filter((a) => a.state === 'ACTIVE' && a.message.includes('on battery'))).toEqual([]);
    const sys = await t.login('sysadmin');
    const unknown = (await sys.get('/api/trapforward/unmatched/?reason=unknown-source')).json();
    expect(unknown.contents.find((r: { source: string; trapOid: string }) => r.source === B_ADDRESS)).toBeTruthy();
  });

  it("lands each tenant's traps in that tenant only", async () => {
    await v2c(TRAP_OIDS.upsTrapOnBattery, [at(B_ADDRESS), ['1.3.6.1.4.1.99999.7', 'i', '1']], { community: communityB });
    // B may hold other active alarms of earlier traps; the list's order is the database's
    const b = await until(async () => (await alarmsOfB()).find((a) => a.state === 'ACTIVE' && a.message.includes('UPS on battery')));
    expect(b.message).toContain('UPS on battery');
    expect((await alarmsOf(ups.id)).filter((a) => a.state === 'ACTIVE' && a.message.includes(B_ADDRESS))).toEqual([]);
    await v2c(TRAP_OIDS.coldStart, [at(UPS_ADDRESS)], { community: communityB });
    await settle();
    expect(JSON.stringify((await adminB.get('/api/trapforward/unmatched/')).json())).not.toContain(UPS_ADDRESS);
  });

  it('believes snmpTrapAddress.0 only from relays the tenant lists', async () => {
    const saved = await admin.put('/api/trapforward/receiving/', {
      relays: ['192.0.2.0/24'],
      users: [{ name: V3.user, securityLevel: 'authPriv', authProtocol: 'sha', privProtocol: 'aes' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().users[0]).toMatchObject({ hasAuthKey: true, hasPrivKey: true });
    await t.handles.snmp.receiver.reloadCredentials();
    t.handles.snmp.receiver.invalidateDevices();
    const matched = t.handles.snmp.stats.totals(t.tenantA)?.matched ?? 0;
    await v2c('1.3.6.1.4.1.99999.0.11', [at(UPS_ADDRESS)]);
    await settle();
    expect(t.handles.snmp.stats.totals(t.tenantA)?.matched ?? 0).toBe(matched);
    const sys = await t.login('sysadmin');
    const unknown = (await sys.get('/api/trapforward/unmatched/?reason=unknown-source')).json();
    expect(unknown.contents.find((r: { trapOid: string }) => r.trapOid === '1.3.6.1.4.1.99999.0.11')).toMatchObject({
      source: '127.0.0.1',
    });
    const back = await admin.put('/api/trapforward/receiving/', {
      relays: ['127.0.0.1'],
      users: [{ name: V3.user, securityLevel: 'authPriv', authProtocol: 'sha', privProtocol: 'aes' }],
    });
    expect(back.statusCode).toBe(200);
    await t.handles.snmp.receiver.reloadCredentials();
  });

  it('validates receiving settings and keeps v3 user names unique in the install', async () => {
    const bad = await admin.put('/api/trapforward/receiving/', { relays: ['10.0.0.0/33'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('Relay must be an IP address or a CIDR such as 192.0.2.0/24');
    const taken = await adminB.put('/api/trapforward/receiving/', {
      relays: ['127.0.0.0/8'],
      users: [{ name: V3.user, securityLevel: 'authPriv', authKey: 'another-key1', privKey: 'another-key2' }],
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().detail).toBe('This SNMPv3 user name is already in use: choose another');
    const noKey = await adminB.put('/api/trapforward/receiving/', { users: [{ name: 'b-user', securityLevel: 'authNoPriv' }] });
    expect(noKey.statusCode).toBe(400);
  });

  it('records a change of the receiving settings and a new community, without any key or community in the entry', async () => {
    const entries = (action: string) =>
      t.db.selectFrom('user_activity_logs').selectAll().where('action', '=', action).where('tenant_id', '=', t.tenantA).execute();
    const saved = (await entries('trap-receiving.update')).at(-1);
    expect(saved).toMatchObject({ object_type: 'trap-receiving', object_id: String(t.tenantA) });
    expect(saved?.after).toMatchObject({ relays: ['127.0.0.1'], users: [`${V3.user} (authPriv)`] });
    const renewed = await admin.post('/api/trapforward/receiving/community/', {});
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().community as string;
    const entry = (await entries('trap-community.renew')).at(-1);
    expect(entry).toBeDefined();
    const written = JSON.stringify(await entries('trap-receiving.update')) + JSON.stringify(entry);
    for (const secret of [V3.auth, V3.priv, fresh, communityA]) expect(written).not.toContain(secret);
    await t.handles.snmp.receiver.reloadCredentials();
    communityA = fresh;
  });

  it('renews the community: the old one stops working at once', async () => {
    const renewed = await adminB.post('/api/trapforward/receiving/community/', {});
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().community as string;
    expect(fresh).not.toBe(communityB);
    await t.handles.snmp.receiver.reloadCredentials();
    const refused = t.handles.snmp.stats.totals(0)?.refused ?? 0;
    await v2c(TRAP_OIDS.warmStart, [at(B_ADDRESS)], { community: communityB });
    await settle();
    expect(t.handles.snmp.stats.totals(0)?.refused).toBe(refused + 1);
    communityB = fresh;
  });
});
