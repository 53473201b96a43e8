import { createServer, type Server } from 'node:net';
import { DEVICE_OPS_MESSAGES, OUTBOUND_NETWORKS_MESSAGES, TRAP_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { simulatedNetworkSeeder } from '../src/demo/snmp.ts';
import { OUTSIDE_TENANT_NETWORKS } from '../src/modules/video/network.ts';
import { networkMatcher } from '../src/platform/outbound-networks.ts';
import { activityEntries } from './activity-log-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

/**
 * The networks a tenant's devices may be dialled in. The install-wide guard is opened to loopback here (`any`), so
 * that what decides is the tenant's list; every address dialled is on loopback.
 */
const PATH = '/api/admin/outbound-networks/';
let t: TestApp;
let sysadmin: TestClient;
let admin: TestClient;
let listener: Server;
let port: number;
let router: { id: number };
let camera: number;

beforeAll(async () => {
  process.env.VIDEO_STREAM_NETWORKS = 'any';
  t = await createTestApp({ TRAP_FORWARD_NETWORKS: 'any' });
  delete process.env.VIDEO_STREAM_NETWORKS;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
  sysadmin = await t.login('sysadmin');
  admin = await t.login('customeradmin');
  const site = await makeSite(admin, { name: 'Provider Yard' });
  router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'RTR-LOOP', metadata: { host: '127.0.0.1' } });
  const dvr = await makeDevice(admin, { type: 'DVR', assetId: site.id, parentId: router.id });
  camera = (await makeDevice(admin, { type: 'CAMERA', assetId: site.id, parentId: dvr.id })).id;
}, 120_000);
afterAll(async () => {
  listener?.close();
  await t?.close();
});

const tcp = () => admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'tcp', port });
const setNetworks = (networks: string[] | null) => sysadmin.put(PATH, { networks });

async function finished(runId: number) {
  const until = Date.now() + 20_000;
  for (;;) {
    const run = (await admin.get(`/api/device-ops/diagnostics/runs/${runId}/`)).json();
    if (run.status !== 'running' || Date.now() > until) return run;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the networks a tenant may dial', () => {
  it('are public addresses only for a new tenant, by default', async () => {
    const res = await sysadmin.get(PATH);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ networks: null, installDefault: ['public'] });
  });

  it('refuse a device host outside them before anything is dialled, as a category', async () => {
    const res = await tcp();
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(DEVICE_OPS_MESSAGES.hostOutsideNetworks);
    expect(res.body).not.toContain('127.0.0.1');
    for (const tool of ['ping', 'snmp'])
      expect((await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool })).json().detail).toBe(
        DEVICE_OPS_MESSAGES.hostOutsideNetworks,
      );
  });

  it('refuse a camera stream URL and a trap destination outside them', async () => {
    const cam = await admin.put(`/api/cameras/${camera}/configs/`, { streamUrl: `rtsp://127.0.0.1:${port}/live`, recordingEnabled: false });
    expect(cam.statusCode).toBe(400);
    expect(cam.json().detail).toBe(OUTSIDE_TENANT_NETWORKS);
    const dest = await admin.post('/api/trapforward/destinations/', {
      name: 'NOC',
      host: '127.0.0.1',
      port,
      version: 'v2c',
      community: 'c',
    });
    expect(dest.statusCode).toBe(400);
    expect(dest.json().detail).toBe(TRAP_MESSAGES.hostOutsideNetworks);
  });

  it('are set by the system administrator only, with an activity entry', async () => {
    expect((await admin.get(PATH)).statusCode).toBe(403);
    expect((await admin.put(PATH, { networks: ['127.0.0.0/8'] })).statusCode).toBe(403);
    const res = await setNetworks(['127.0.0.0/8', '127.0.0.0/8']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ networks: ['127.0.0.0/8'], installDefault: ['public'] });
    const [entry] = await activityEntries(sysadmin, '?objectType=customer-settings');
    expect(entry).toMatchObject({ action: 'outbound-networks.update', before: { networks: null }, after: { networks: ['127.0.0.0/8'] } });
    // another tenant keeps its own (the default)
    const other = await t.login('sysadmin', HOST_B);
    expect((await other.get(PATH)).json().networks).toBeNull();
  });

  it('let diagnostics, camera URLs and trap destinations reach the listed networks at once', async () => {
    const started = await tcp();
    expect(started.statusCode, started.body).toBe(201);
    const run = await finished(started.json().id);
    expect(run.status).toBe('succeeded');
    const cam = await admin.put(`/api/cameras/${camera}/configs/`, { streamUrl: `rtsp://127.0.0.1:${port}/live`, recordingEnabled: false });
    expect(cam.statusCode, cam.body).toBe(200);
    const dest = await admin.post('/api/trapforward/destinations/', {
      name: 'NOC',
      host: '127.0.0.1',
      port,
      version: 'v2c',
      community: 'c',
    });
    expect(dest.statusCode, dest.body).toBe(201);
  });

  it('go back to the install default with null, and refuse again', async () => {
    const res = await setNetworks(null);
    expect(res.json().networks).toBeNull();
    expect((await tcp()).json().detail).toBe(DEVICE_OPS_MESSAGES.hostOutsideNetworks);
  });

  it('refuse entries that are not `public`, an address or a CIDR, with a clear message', async () => {
    for (const [networks, detail] of [
      [['10.0.0.0/33'], OUTBOUND_NETWORKS_MESSAGES.invalid('10.0.0.0/33')],
      [['999.1.1.1'], OUTBOUND_NETWORKS_MESSAGES.invalid('999.1.1.1')],
      [['javascript:alert(1)'], OUTBOUND_NETWORKS_MESSAGES.entry],
      [[''], OUTBOUND_NETWORKS_MESSAGES.entry],
      [Array.from({ length: 101 }, (_, i) => `127.0.0.${i}`), OUTBOUND_NETWORKS_MESSAGES.tooMany],
    ] as const) {
      const res = await setNetworks([...networks]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
    expect((await sysadmin.put(PATH, { networks: 'public' })).statusCode).toBe(400);
  });

  it('are loopback only for the demo tenants (their devices are simulated)', async () => {
    await simulatedNetworkSeeder.run({ db: t.db, tenantId: t.tenantB, slug: 'b', random: Math.random, log: console } as never);
    const other = await t.login('sysadmin', HOST_B);
    expect((await other.get(PATH)).json().networks).toEqual(['127.0.0.0/8', '::1']);
  });
});

describe('a network list', () => {
  it('matches `public` as every public address and CIDRs as written', () => {
    const hosted = networkMatcher(['public']);
    for (const a of ['10.1.2.3', '192.168.1.1', '172.16.0.1', '100.64.0.1', 'fd00::1', '127.0.0.1', '169.254.169.254'])
      expect(hosted.allows(a), a).toBe(false);
    expect(hosted.allows('192.0.2.10')).toBe(true);
    const site = networkMatcher(['10.1.0.0/16', '2001:db8::/32']);
    expect(site.allows('10.1.200.3')).toBe(true);
    expect(site.allows('::ffff:10.1.0.9')).toBe(true);
    expect(site.allows('10.2.0.1')).toBe(false);
    expect(site.allows('192.0.2.10')).toBe(false);
    expect(site.allows('2001:db8::5')).toBe(true);
    expect(networkMatcher([]).allows('192.0.2.10')).toBe(false);
  });

  it('is read from OUTBOUND_NETWORKS for the install default, refusing entries that do not parse', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).outboundNetworks).toEqual(['public']);
    expect(loadConfig({ NODE_ENV: 'test', OUTBOUND_NETWORKS: 'public, 10.1.0.0/16 192.168.5.0/24' }).outboundNetworks).toEqual([
      'public',
      '10.1.0.0/16',
      '192.168.5.0/24',
    ]);
    expect(() => loadConfig({ NODE_ENV: 'test', OUTBOUND_NETWORKS: 'private' })).toThrow(/OUTBOUND_NETWORKS/);
  });
});
