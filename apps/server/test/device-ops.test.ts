import { createServer, type Server } from 'node:net';
import type { AccessEvent, DiagnosticRun, Door, RouterView, Rtu } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDeviceOpsCommand, deviceOpsInitial, deviceOpsStep, withEvent } from '../src/demo/simulator/device-ops.ts';
import { checkHost, tcpProbe } from '../src/modules/device-ops/probes.ts';
import { doorsOf, hostOf, routerOf, rtuOf } from '../src/modules/device-ops/service.ts';
import { networkMatcher } from '../src/platform/outbound-networks.ts';
import { followRun } from './device-ops-fixtures.ts';
import { raise } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite, userId } from './support/sites-factory.ts';
import { devicePost } from './telemetry-fixtures.ts';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let viewer: TestClient;
let acme: TestClient;
let port: number;
let site: { id: number; name: string };
let hidden: { id: number; name: string };
let acs: { id: number; accessToken: string };
let rtu: { id: number };
let router: { id: number };
let hiddenRouter: { id: number };
let loopback: { id: number };
let metadataHost: { id: number };
let bare: { id: number };
let acmeRouter: { id: number };

async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 30));
  }
}

beforeAll(async () => {
  t = await createTestApp({ TELEMETRY_TOKEN_CACHE_SECONDS: '0', TELEMETRY_FLUSH_MS: '5', TELEMETRY_LATEST_FLUSH_MS: '0' }, { clock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
  acme = await t.login('customeradmin', HOST_B);
  site = await makeSite(admin, { name: 'Ops Yard' });
  hidden = await makeSite(admin, { name: 'Ops Hidden' });
  router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'RTR-OPS', metadata: { ipAddress: '192.168.77.1' } });
  acs = await makeDevice(admin, {
    type: 'ACCESSCONTROL',
    parentId: router.id,
    label: 'ACS-OPS',
    metadata: { doorCount: 2, door1Name: 'Main entrance', door1Reader: 'Entry reader', door2Name: 'Server room' },
  });
  rtu = await makeDevice(admin, {
    type: 'ETH',
    parentId: router.id,
    label: 'RTU-OPS',
    metadata: { inputCount: 2, outputCount: 2, di1Name: 'Mains present', do1Name: 'Siren' },
  });
  hiddenRouter = await makeDevice(admin, { type: 'ROUTER', assetId: hidden.id, label: 'RTR-HIDDEN', metadata: { ipAddress: '10.1.2.3' } });
  loopback = await makeDevice(admin, { type: 'ROUTER', assetId: hidden.id, label: 'RTR-LOOP', metadata: { ipAddress: '127.0.0.1' } });
  metadataHost = await makeDevice(admin, { type: 'ROUTER', assetId: hidden.id, label: 'RTR-META', metadata: { host: '169.254.169.254' } });
  bare = await makeDevice(admin, { type: 'SENSOR', assetId: hidden.id, label: 'TEMP-BARE' });
  const acmeSite = await makeSite(acme, { name: 'Acme Ops' });
  acmeRouter = await makeDevice(acme, { type: 'ROUTER', assetId: acmeSite.id, label: 'RTR-ACME', metadata: { ipAddress: '192.168.9.1' } });
  const assigned = await admin.post('/iotapp/user-assets/', { userId: await userId(admin, 'fieldexecutive'), assetIds: [site.id] });
  expect(assigned.statusCode, assigned.body).toBe(200);
});
afterAll(() => t?.close());

async function send(token: string, values: Record<string, unknown>) {
  const res = await devicePost(t, `/api/v1/${token}/telemetry`, values);
  expect(res.statusCode, res.body).toBe(200);
  await t.handles.alarms.alarms.settled();
}

describe('access control', () => {
  it('lists the doors of visible controllers with their names and readers', async () => {
    const res = await admin.get(`/api/device-ops/access/doors/?assetId=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const doors = res.json().contents as Door[];
    expect(doors.map((d) => [d.name, d.reader])).toEqual([
      ['Main entrance', 'Entry reader'],
      ['Server room', 'Reader 2'],
    ]);
    expect(doors[0]).toMatchObject({ deviceId: acs.id, deviceLabel: 'ACS-OPS', assetId: site.id, siteName: 'Ops Yard', door: 1 });
    expect((await field.get('/api/device-ops/access/doors/')).json().totalCount).toBe(2);
    expect((await acme.get('/api/device-ops/access/doors/')).json().totalCount).toBe(0);
    expect((await admin.get('/api/device-ops/access/doors/?search=nothing-like-this')).json().totalCount).toBe(0);
  });

  it('indexes reported events, pushes them, and a forced door raises an alarm with a ticket', async () => {
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'Door forced',
      deviceType: 'ACCESSCONTROL',
      kind: 'threshold',
      key: 'doorForced',
      operator: '==',
      threshold: 1,
      durationSeconds: 0,
      severity: 'CRITICAL',
      createTicket: true,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const pushed: unknown[] = [];
    const off = t.handles.events.subscribe((e) => {
      if (e.type === 'device.access-event') pushed.push(e.payload);
    });
    await send(acs.accessToken, { accessEvent: JSON.stringify({ door: 1, kind: 'granted', credential: 'Card 1042' }) });
    await send(acs.accessToken, {
      accessEvent: JSON.stringify({ door: 2, kind: 'forced' }),
      door2Forced: true,
      door2Open: true,
      doorForced: true,
    });
    await send(acs.accessToken, { accessEvent: 'not json' });
    const events = await until(async () => {
      const list = (await admin.get(`/api/device-ops/access/events/?deviceId=${acs.id}`)).json().contents as AccessEvent[];
      return list.length >= 2 && list;
    });
    expect(events.map((e) => [e.kind, e.doorName, e.credential])).toEqual([
      ['forced', 'Server room', ''],
      ['granted', 'Main entrance', 'Card 1042'],
    ]);
    expect(pushed).toContainEqual({ deviceId: acs.id, assetId: site.id, door: 2, kind: 'forced' });
    expect((await admin.get(`/api/device-ops/access/events/?kind=forced&assetId=${site.id}`)).json().totalCount).toBe(1);
    expect((await field.get('/api/device-ops/access/events/')).json().totalCount).toBe(2);
    expect((await acme.get('/api/device-ops/access/events/')).json().totalCount).toBe(0);
    const alarms = (await admin.get(`/api/alarms/?deviceId=${acs.id}&state=ACTIVE`)).json().contents as { ticketId: number | null }[];
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.ticketId).toBeTruthy();
    off();
  });
});

describe('routers and RTUs', () => {
  it('shows WAN and cellular state, usage and uptime', async () => {
    await t.db
      .updateTable('devices')
      .set({
        state: JSON.stringify({
          wanUp: false,
          cell1Up: true,
          cell1Signal: -71,
          activeInterface: 'cell1',
          dataUsageMb: 812.5,
          uptimeSeconds: 3600,
        }),
      })
      .where('id', '=', router.id)
      .execute();
    const res = await admin.get(`/api/device-ops/routers/?assetId=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const [r] = res.json().contents as RouterView[];
    expect(r).toMatchObject({ deviceLabel: 'RTR-OPS', activeInterface: 'cell1', dataUsageMb: 812.5, uptimeSeconds: 3600 });
    expect(r?.interfaces.map((i) => [i.name, i.up, i.signal])).toEqual([
      ['wan', false, null],
      ['cell1', true, -71],
      ['cell2', null, null],
    ]);
    const fieldRouters = (await field.get('/api/device-ops/routers/')).json().contents as RouterView[];
    expect(fieldRouters.map((x) => x.deviceLabel)).toEqual(['RTR-OPS']);
    expect((await acme.get('/api/device-ops/routers/')).json().contents.map((x: RouterView) => x.deviceLabel)).toEqual(['RTR-ACME']);
  });

  it('shows RTU inputs and outputs across sites and for one site, scoped', async () => {
    await t.db
      .updateTable('devices')
      .set({ state: JSON.stringify({ di1: true, di2: false, do1: true }) })
      .where('id', '=', rtu.id)
      .execute();
    const list = await admin.get('/api/device-ops/rtus/');
    expect(list.statusCode, list.body).toBe(200);
    const [one] = list.json().contents as Rtu[];
    expect(one?.inputs).toEqual([
      { no: 1, name: 'Mains present', on: true },
      { no: 2, name: 'Input 2', on: false },
    ]);
    expect(one?.outputs).toEqual([
      { no: 1, name: 'Siren', on: true },
      { no: 2, name: 'Output 2', on: null },
    ]);
    const single = await field.get(`/api/device-ops/rtus/sites/${site.id}/`);
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json()).toMatchObject({ site: { id: site.id, name: 'Ops Yard' }, rtus: [{ deviceId: rtu.id }] });
    expect((await field.get(`/api/device-ops/rtus/sites/${hidden.id}/`)).statusCode).toBe(404);
    const other = await acme.get(`/api/device-ops/rtus/sites/${site.id}/`);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('Ops Yard');
    expect((await admin.get('/api/device-ops/rtus/sites/999999/')).statusCode).toBe(404);
  });

  it('refuses bad queries and users without view_device', async () => {
    expect((await admin.get('/api/device-ops/routers/?limit=0')).statusCode).toBe(400);
    expect((await admin.get('/api/device-ops/access/events/?kind=exploded')).statusCode).toBe(400);
    expect((await t.anonymous().get('/api/device-ops/routers/')).statusCode).toBe(401);
  });
});

const follow = (runId: number, client: TestClient) => followRun(port, runId, client);

describe('diagnostics', () => {
  it('lists targets with their declared hosts and tools', async () => {
    const res = await admin.get(`/api/device-ops/diagnostics/targets/?assetId=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const rtr = res.json().contents.find((x: { deviceId: number }) => x.deviceId === router.id);
    expect(rtr).toMatchObject({ host: '192.168.77.1', tools: ['ping', 'tcp', 'snmp', 'last-contact'] });
    expect((await field.get('/api/device-ops/diagnostics/targets/')).statusCode).toBe(403);
    expect((await viewer.get('/api/device-ops/diagnostics/runs/')).statusCode).toBe(403);
  });

  it('runs a last-contact check and streams its output over the socket', async () => {
    await send(acs.accessToken, { door1Open: false });
    const res = await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: acs.id, tool: 'last-contact' });
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json() as DiagnosticRun;
    expect(run).toMatchObject({ deviceId: acs.id, tool: 'last-contact', deviceLabel: 'ACS-OPS' });
    const messages = await follow(run.id, admin);
    const lines = messages.flatMap((m) => (m.type === 'line' ? [m.text] : []));
    expect(lines.join('\n')).toContain('Status: Online');
    expect(lines.join('\n')).toContain('Last contact over MQTT/HTTP:');
    expect(messages.at(-1)).toEqual({ type: 'end', status: 'succeeded' });
    const stored = await until(async () => {
      const r = (await admin.get(`/api/device-ops/diagnostics/runs/${run.id}/`)).json() as DiagnosticRun;
      return r.status !== 'running' && r;
    });
    expect(stored.output).toContain('Status: Online');
    expect(stored.startedBy?.id).toBe(admin.user?.id);
    const list = (await admin.get(`/api/device-ops/diagnostics/runs/?deviceId=${acs.id}`)).json();
    expect(list.contents[0].id).toBe(run.id);
    // another tenant neither reads nor follows it
    expect((await acme.get(`/api/device-ops/diagnostics/runs/${run.id}/`)).statusCode).toBe(404);
    await expect(follow(run.id, acme)).rejects.toThrow(/HTTP 40[34]/);
  });

  it('refuses hosts the device does not declare, loopback and metadata addresses (SSRF)', async () => {
    const start = (deviceId: number, tool = 'ping') => admin.post('/api/device-ops/diagnostics/runs/', { deviceId, tool });
    const loop = await start(loopback.id);
    expect(loop.statusCode).toBe(400);
    expect(loop.json().detail).toBe('The device host is not an address diagnostics may reach');
    expect((await start(metadataHost.id, 'snmp')).json().detail).toBe('The device host is not an address diagnostics may reach');
    expect((await start(bare.id, 'tcp')).json().detail).toBe('This device declares no host to probe');
    expect((await start(bare.id, 'rtsp')).json().detail).toBe('This device declares no RTSP stream to probe');
    for (const rtspUrl of ['rtsp://admin:hunter2@127.0.0.1:8554/live', 'rtsp://169.254.169.254/x', 'rtsp://[::ffff:127.0.0.1]/x']) {
      const cam = await makeDevice(admin, { type: 'CAMERA', assetId: hidden.id, metadata: { rtspUrl } });
      const refused = await start(cam.id, 'rtsp');
      expect(refused.statusCode, rtspUrl).toBe(400);
      expect(refused.json().detail).toBe('The device host is not an address diagnostics may reach');
      expect(refused.body).not.toContain('hunter2');
    }
    const ftp = await makeDevice(admin, { type: 'CAMERA', assetId: hidden.id, metadata: { rtspUrl: 'http://192.168.1.9/stream' } });
    expect((await start(ftp.id, 'rtsp')).json().detail).toBe('This device declares no RTSP stream to probe');
    expect((await start(acmeRouter.id)).statusCode).toBe(404);
    expect((await start(999_999)).statusCode).toBe(404);
    const host = (await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'ping', host: '127.0.0.1' }))
      .statusCode;
    expect(host).toBe(400);
    expect((await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'snmp', oid: '1.3;rm' })).statusCode).toBe(
      400,
    );
    expect((await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'curl' })).statusCode).toBe(400);
    expect((await field.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'last-contact' })).statusCode).toBe(403);
    for (const h of ['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1', '169.254.169.254', '0.0.0.0', 'fd00:ec2::254', 'a b'])
      expect((await checkHost(h, 'private', networkMatcher(['public', '192.168.0.0/16']))).ok, h).toBe(false);
    expect(await checkHost('192.168.77.1', 'private', networkMatcher(['192.168.0.0/16']))).toEqual({ ok: true, address: '192.168.77.1' });
    expect((await checkHost('192.168.77.1', 'public', networkMatcher(['192.168.0.0/16']))).ok).toBe(false);
    expect(await checkHost('192.168.77.1', 'private', networkMatcher(['public']))).toEqual({ ok: false, reason: 'outside' });
    void hiddenRouter;
  });

  it('attaches a finished result to a ticket the caller sees, as a comment', async () => {
    const res = await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: router.id, tool: 'last-contact' });
    const run = res.json() as DiagnosticRun;
    await follow(run.id, admin);
    const ticket = await raise(admin, { title: 'Router flapping' });
    const attached = await admin.post(`/api/device-ops/diagnostics/runs/${run.id}/attach/`, { ticketId: ticket.id });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json().ticketId).toBe(ticket.id);
    const comments = (await admin.get(`/helpdesk/tickets/${ticket.id}/comments/`)).json().contents as { text: string }[];
    expect(comments[0]?.text).toContain('Diagnostic Last contact (MQTT/HTTP) on RTR-OPS');
    const acmeTicket = await raise(acme, { title: 'Other tenant' });
    expect((await admin.post(`/api/device-ops/diagnostics/runs/${run.id}/attach/`, { ticketId: acmeTicket.id })).statusCode).toBe(404);
    expect((await acme.post(`/api/device-ops/diagnostics/runs/${run.id}/attach/`, { ticketId: acmeTicket.id })).statusCode).toBe(404);
  });

  it('probes a TCP port with round-trip times', async () => {
    const server: Server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const open = (server.address() as { port: number }).port;
    const lines: string[] = [];
    const ok = await tcpProbe('127.0.0.1', open, (l) => lines.push(l), new AbortController().signal);
    server.close();
    expect(ok).toBe(true);
    expect(lines[1]).toMatch(/attempt 1: connected in [\d.]+ ms/);
    expect(lines.at(-1)).toBe('4 of 4 connected');
  }, 15_000);
});

describe('hostile input', () => {
  it('answers 400 or 404, never 5xx', async () => {
    const long = 'x'.repeat(300);
    const gets = [
      '/api/device-ops/access/doors/?assetId=abc',
      '/api/device-ops/access/doors/?limit=99999',
      `/api/device-ops/routers/?search=${long}`,
      '/api/device-ops/rtus/?page=-1',
      '/api/device-ops/access/events/?deviceId=2147483648',
      '/api/device-ops/diagnostics/targets/?unknown=1',
      '/api/device-ops/diagnostics/runs/abc/',
      '/api/device-ops/rtus/sites/0/',
      '/api/device-ops/diagnostics/runs/?deviceId=-5',
    ];
    for (const url of gets) {
      const res = await admin.get(url);
      expect([400, 404], `${url} -> ${res.statusCode}`).toContain(res.statusCode);
    }
    const bodies = [
      {},
      { deviceId: 'x', tool: 'ping' },
      { deviceId: 0, tool: 'ping' },
      { deviceId: router.id, tool: 'tcp', port: 70_000 },
      { deviceId: router.id, tool: 'snmp', oid: `1.${'2.'.repeat(100)}3` },
      { deviceId: router.id, tool: 'ping', extra: true },
    ];
    for (const body of bodies) {
      const res = await admin.post('/api/device-ops/diagnostics/runs/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.post('/api/device-ops/diagnostics/runs/1/attach/', { ticketId: 'x' })).statusCode).toBe(400);
    expect((await admin.post('/api/device-ops/diagnostics/runs/999999/attach/', { ticketId: 1 })).statusCode).toBe(404);
  });
});

describe('rules and simulator', () => {
  const row = (metadata: Record<string, string | number | boolean | null>, state: Record<string, string | number | boolean | null>) => ({
    id: 1,
    label: 'X',
    type: 'ETH',
    status: 'Online',
    alarm_status: null,
    asset_id: 2,
    metadata,
    state,
    last_activity_at: null,
    site_name: 'S',
  });

  it('reads doors, router links, I/O and hosts from metadata and state', () => {
    expect(doorsOf(row({}, {})).map((d) => d.name)).toEqual(['Door 1']);
    expect(doorsOf(row({ doorCount: 999 }, {}))).toHaveLength(64);
    expect(rtuOf(row({}, { di3: 1 })).inputs[2]).toEqual({ no: 3, name: 'Input 3', on: true });
    expect(routerOf(row({}, { cell2Signal: 'x' })).interfaces[2]?.signal).toBeNull();
    expect(hostOf(row({ ipAddress: ' 10.0.0.1 ' }, {}))).toBe('10.0.0.1');
    expect(hostOf(row({ host: '' }, {}))).toBeNull();
  });

  it('simulates doors, outputs and reboots, and answers commands', () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const door = deviceOpsInitial('ACCESSCONTROL', 3, random) as Record<string, string | number | boolean>;
    expect(applyDeviceOpsCommand('ACCESSCONTROL', door, 'openDoor', { door: 2 })).toEqual({ ok: true, reply: { door: 2, open: true } });
    expect(JSON.parse(door.accessEvent as string)).toEqual({ door: 2, kind: 'remote_open', credential: 'Remote' });
    expect(applyDeviceOpsCommand('ACCESSCONTROL', door, 'openDoor', { door: 9 })?.ok).toBe(false);
    const next = deviceOpsStep('ACCESSCONTROL', door, { id: 3, site: { longitude: 0, mainsOn: true }, now: Date.now(), dt: 1, random });
    expect(next?.accessEvent === undefined || !String(next.accessEvent).includes('remote_open')).toBe(true);
    expect(withEvent({ a: 1 })).toEqual({ a: 1 });
    const eth = deviceOpsInitial('ETH', 4, random) as Record<string, string | number | boolean>;
    applyDeviceOpsCommand('ETH', eth, 'setOutput', { output: 3, on: true });
    expect(eth.do3).toBe(true);
    const rtr = deviceOpsInitial('ROUTER', 5, random) as Record<string, string | number | boolean>;
    applyDeviceOpsCommand('ROUTER', rtr, 'reboot', null);
    const stepped = deviceOpsStep('ROUTER', rtr, { id: 5, site: { longitude: 0, mainsOn: true }, now: Date.now(), dt: 30, random });
    expect(stepped?.uptimeSeconds).toBe(30);
    expect(applyDeviceOpsCommand('GENERATOR', {}, 'reboot', null)).toBeNull();
  });
});
