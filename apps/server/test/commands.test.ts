import { type BulkCommandStatus, COMMAND_TOPICS, type DeviceCommand } from '@sitewatch/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite, userId } from './support/sites-factory.ts';
import { connectDevice, endClient, eventually, freePort } from './telemetry-fixtures.ts';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let viewer: TestClient;
let field: TestClient;
let adminB: TestClient;
let url: string;
let site: { id: number };
let hidden: { id: number };
const clients: MqttClient[] = [];

type Dev = Awaited<ReturnType<typeof makeDevice>>;
const jobs = () => (t.app as unknown as { jobs: { drain(): Promise<void> } }).jobs;

/** A device that subscribes to its commands and answers each (or stays silent), recording what it got. */
async function device(d: Dev, opts: { answer?: (method: string, params: unknown) => unknown; qos?: 0 | 1 } = {}) {
  const got: Array<{ id: number; method: string; params: unknown }> = [];
  const client = await connectDevice(url, { username: d.accessToken, clientId: `c-${d.id}-${Math.random()}` });
  clients.push(client);
  client.on('message', (topic, payload) => {
    const id = Number(topic.split('/').pop());
    const body = JSON.parse(payload.toString()) as { method: string; params: unknown };
    got.push({ id, ...body });
    if (opts.answer) client.publish(COMMAND_TOPICS.response(id), JSON.stringify(opts.answer(body.method, body.params)), { qos: 1 });
  });
  await new Promise<void>((resolve, reject) =>
    client.subscribe(COMMAND_TOPICS.requestSubscription, { qos: opts.qos ?? 1 }, (error, granted) =>
      error || granted?.[0]?.qos === 128 ? reject(error ?? new Error('refused')) : resolve(),
    ),
  );
  return { client, got };
}

const command = async (client: TestClient, id: number) => (await client.get(`/api/commands/${id}/`)).json() as DeviceCommand;
const until = (client: TestClient, id: number, state: string, timeoutMs = 5000) =>
  eventually(async () => {
    const c = await command(client, id);
    return c.state === state ? c : null;
  }, timeoutMs);
const send = async (body: Record<string, unknown>, client = admin) => {
  const res = await client.post('/api/commands/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DeviceCommand;
};
const devicePoll = (token: string, timeout: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/${token}/rpc?timeout=${timeout}`, headers: { host: 'devices.example.net' } });
const deviceReply = (token: string, id: number, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${token}/rpc/${id}`,
    payload: JSON.stringify(body),
    headers: { host: 'devices.example.net', 'content-type': 'application/json' },
  });

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const port = await freePort();
  await t.handles.telemetry.runtime.startMqtt({ port });
  url = `mqtt://127.0.0.1:${port}`;
  admin = await t.login('customeradmin');
  viewer = await t.login('customer');
  field = await t.login('fieldexecutive');
  adminB = await t.login('customeradmin', HOST_B);
  site = await makeSite(admin, { name: 'Command Yard' });
  hidden = await makeSite(admin, { name: 'Hidden Command Yard' });
  for (const user of ['fieldexecutive', 'customer']) {
    const assigned = await admin.post('/iotapp/user-assets/', { userId: await userId(admin, user), assetIds: [site.id] });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.end(true);
  await t?.close();
});

describe('commands over MQTT', () => {
  it('sends a two-way command and records the reply, in the device history and activity log', async () => {
    const relay = await makeDevice(admin, { type: 'ETH', assetId: site.id, label: 'Relay board' });
    const dev = await device(relay, { answer: (method, params) => ({ ok: true, method, params }) });
    const sent = await send({ deviceId: relay.id, method: 'setRelay', params: { relay: 1, on: true } });
    expect(sent).toMatchObject({ deviceId: relay.id, method: 'setRelay', state: 'queued', oneway: false });
    const done = await until(admin, sent.id, 'successful');
    expect(done.response).toEqual({ ok: true, method: 'setRelay', params: { relay: 1, on: true } });
    expect(done.sentAt).not.toBeNull();
    expect(done.deliveredAt).not.toBeNull();
    expect(done.createdBy?.id).toBe(admin.user?.id);
    expect(dev.got).toEqual([{ id: sent.id, method: 'setRelay', params: { relay: 1, on: true } }]);
    const history = (await admin.get(`/api/commands/?deviceId=${relay.id}`)).json();
    expect(history.contents.map((c: DeviceCommand) => c.id)).toEqual([sent.id]);
    const log = await admin.get('/iotapp/user-activity-logs/?action=device.command');
    expect(log.body).toContain(`"commandId":${sent.id}`);
  });

  it('marks a reply with an error failed', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    await device(d, { answer: () => ({ error: 'not supported' }) });
    const sent = await send({ deviceId: d.id, method: 'warpDrive' });
    const done = await until(admin, sent.id, 'failed');
    expect(done.error).toBe('not supported');
  });

  it('ends a one-way command delivered on the PUBACK, without a reply', async () => {
    const d = await makeDevice(admin, { type: 'ACCESSCONTROL', assetId: site.id });
    const dev = await device(d);
    const sent = await send({ deviceId: d.id, method: 'openDoor', params: { door: 2 }, oneway: true });
    const done = await until(admin, sent.id, 'delivered');
    expect(done.completedAt).not.toBeNull();
    expect(dev.got).toHaveLength(1);
  });

  it('times out a delivered two-way command that gets no reply (deadline on the job queue)', async () => {
    const d = await makeDevice(admin, { type: 'ROUTER', assetId: site.id });
    await device(d);
    const sent = await send({ deviceId: d.id, method: 'reboot', timeoutMs: 1000 });
    await until(admin, sent.id, 'delivered');
    clock.advance(2500);
    await jobs().drain();
    const c = await command(admin, sent.id);
    expect(c.state).toBe('timeout');
    expect(c.response).toBeNull();
  });

  it('keeps a command for an offline device and sends it when the device subscribes', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'startGenset' });
    await jobs().drain();
    expect((await command(admin, sent.id)).state).toBe('queued');
    // connected but not yet subscribed: still queued
    const bare = await connectDevice(url, { username: d.accessToken, clientId: `bare-${d.id}` });
    await new Promise((r) => setTimeout(r, 100));
    expect((await command(admin, sent.id)).state).toBe('queued');
    await endClient(bare);
    const dev = await device(d, { answer: () => ({ running: true }) });
    const done = await until(admin, sent.id, 'successful');
    expect(done.response).toEqual({ running: true });
    expect(dev.got.map((g) => g.id)).toEqual([sent.id]);
  });

  it('puts an unacknowledged command back in the queue when the device drops, and sends it again on reconnect', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    // QoS 0: no PUBACK, so the command stays sent (never claimed delivered)
    const first = await device(d, { qos: 0 });
    const sent = await send({ deviceId: d.id, method: 'stopGenset', timeoutMs: 60_000 });
    await until(admin, sent.id, 'sent');
    await eventually(async () => first.got.length === 1);
    first.client.end(true);
    await until(admin, sent.id, 'queued');
    const second = await device(d, { answer: () => ({ running: false }) });
    await until(admin, sent.id, 'successful');
    expect(second.got.map((g) => g.id)).toEqual([sent.id]);
  });

  it('puts back the unacknowledged commands of every device that drops in the same moment', async () => {
    const devices = await Promise.all([1, 2, 3].map(() => makeDevice(admin, { type: 'GENERATOR', assetId: site.id })));
    const connected = await Promise.all(devices.map((d) => device(d, { qos: 0 })));
    const sent = await Promise.all(devices.map((d) => send({ deviceId: d.id, method: 'stopGenset', timeoutMs: 60_000 })));
    for (const s of sent) await until(admin, s.id, 'sent');
    await eventually(async () => connected.every((c) => c.got.length === 1));
    for (const c of connected) c.client.end(true);
    for (const s of sent) await until(admin, s.id, 'queued');
  });

  it('expires a command that never reached its device', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'startGenset', expiresInMs: 1000 });
    clock.advance(2500);
    await jobs().drain();
    const c = await command(admin, sent.id);
    expect(c.state).toBe('expired');
    expect(c.sentAt).toBeNull();
    const dev = await device(d);
    await new Promise((r) => setTimeout(r, 150));
    expect(dev.got).toEqual([]);
  });

  it('refuses subscriptions to other topics', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    const client = await connectDevice(url, { username: d.accessToken });
    clients.push(client);
    const granted = await new Promise<number | undefined>((resolve) =>
      client.subscribe('v1/devices/+/rpc/request/+', { qos: 1 }, (e, g) => resolve(e ? 128 : g?.[0]?.qos)),
    );
    expect(granted).toBe(128);
  });
});

describe('commands over HTTP', () => {
  it('answers a long poll with the command and takes the reply', async () => {
    const d = await makeDevice(admin, { type: 'ROUTER', assetId: site.id });
    const polling = devicePoll(d.accessToken, 5000);
    await eventually(async () => t.handles.commands.dispatcher.connected().http > 0);
    const sent = await send({ deviceId: d.id, method: 'reboot', params: { delay: 1 } });
    const res = await polling;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: sent.id, method: 'reboot', params: { delay: 1 } });
    expect((await command(admin, sent.id)).state).toBe('sent');
    expect((await deviceReply(d.accessToken, sent.id, { rebooting: true })).statusCode).toBe(200);
    const done = await until(admin, sent.id, 'successful');
    expect(done.response).toEqual({ rebooting: true });
  });

  it('hands a queued command to the next poll; the poll after acknowledges a one-way command', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'setRelay', params: { on: false }, oneway: true });
    const res = await devicePoll(d.accessToken, 1000);
    expect(res.json()).toMatchObject({ id: sent.id, method: 'setRelay' });
    expect((await command(admin, sent.id)).state).toBe('sent');
    const empty = await devicePoll(d.accessToken, 50);
    expect(empty.statusCode, empty.body).toBe(408);
    expect((await command(admin, sent.id)).state).toBe('delivered');
  });

  it('refuses an unknown token, and ignores replies to another device’s command', async () => {
    expect((await devicePoll('nope', 10)).statusCode).toBe(401);
    expect((await deviceReply('nope', 1, {})).statusCode).toBe(401);
    const a = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const b = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const sent = await send({ deviceId: a.id, method: 'ping' });
    await devicePoll(a.accessToken, 1000);
    await deviceReply(b.accessToken, sent.id, { forged: true });
    expect((await command(admin, sent.id)).state).toBe('sent');
  });
});

describe('bulk commands', () => {
  it('sends one command to every device of a site and reports each device', async () => {
    const bulkSite = await makeSite(admin, { name: 'Bulk Yard' });
    const devs: Dev[] = [];
    for (let i = 0; i < 22; i++) devs.push(await makeDevice(admin, { type: i % 2 ? 'ETH' : 'ROUTER', assetId: bulkSite.id }));
    // 20 connected and answering, 2 offline
    for (const d of devs.slice(0, 20)) await device(d, { answer: () => ({ ok: 1 }) });
    const res = await admin.post('/api/commands/bulk/', { target: { kind: 'site', assetId: bulkSite.id }, method: 'ping' });
    expect(res.statusCode, res.body).toBe(201);
    const bulk = res.json() as BulkCommandStatus;
    expect(bulk.total).toBe(22);
    const status = await eventually(async () => {
      const s = (await admin.get(`/api/commands/bulk/${bulk.id}/`)).json() as BulkCommandStatus;
      return s.counts.successful === 20 ? s : null;
    }, 10_000);
    expect(status.counts.queued).toBe(2);
    expect(status.finished).toBe(false);
    expect(status.devices).toHaveLength(22);
    // each device named with its site (labels repeat at every site)
    expect(new Set(status.devices.map((d) => d.siteName))).toEqual(new Set(['Bulk Yard']));
    // stored in two chunks (the first sent before the second is written): one bulk, every command in its activity
    const entries = await t.db.selectFrom('user_activity_logs').select('after').where('action', '=', 'device.command').execute();
    const ofBulk = entries.filter((e) => (typeof e.after === 'string' ? JSON.parse(e.after) : e.after)?.bulkId === bulk.id);
    expect(ofBulk).toHaveLength(22);
    const byType = await admin.post('/api/commands/bulk/', {
      target: { kind: 'type', type: 'ETH', assetId: bulkSite.id },
      method: 'ping',
      oneway: true,
    });
    expect(byType.json().total).toBe(11);
    const picked = await admin.post('/api/commands/bulk/', {
      target: { kind: 'devices', deviceIds: devs.slice(0, 3).map((d) => d.id) },
      method: 'ping',
    });
    expect(picked.json().total).toBe(3);
    const list = (await admin.get('/api/commands/bulk/')).json();
    expect(list.contents[0].id).toBe(picked.json().id);
  });

  it("finds a bulk's devices and the command list by the site's name (labels repeat at every site)", async () => {
    const east = await makeSite(admin, { name: 'Eastmoor Yard' });
    const west = await makeSite(admin, { name: 'Westmoor Yard' });
    const twins = [
      await makeDevice(admin, { type: 'ROUTER', label: 'RTR-SEARCH', assetId: east.id }),
      await makeDevice(admin, { type: 'ROUTER', label: 'RTR-SEARCH', assetId: west.id }),
    ];
    const res = await admin.post('/api/commands/bulk/', {
      target: { kind: 'devices', deviceIds: twins.map((d) => d.id) },
      method: 'reboot',
    });
    expect(res.statusCode, res.body).toBe(201);
    const bulk = res.json() as BulkCommandStatus;
    const both = (await admin.get(`/api/commands/bulk/${bulk.id}/?search=rtr-search`)).json() as BulkCommandStatus;
    expect(both.devices.map((d) => [d.deviceLabel, d.siteName]).sort()).toEqual([
      ['RTR-SEARCH', 'Eastmoor Yard'],
      ['RTR-SEARCH', 'Westmoor Yard'],
    ]);
    const west1 = (await admin.get(`/api/commands/bulk/${bulk.id}/?search=westmoor`)).json() as BulkCommandStatus;
    expect(west1.devices.map((d) => d.deviceId)).toEqual([twins[1]?.id]);
    expect(west1.devicesCount).toBe(1);
    const listed = (await admin.get('/api/commands/?search=Eastmoor%20Yard')).json();
    expect(listed.contents.map((c: DeviceCommand) => [c.deviceId, c.siteName])).toEqual([[twins[0]?.id, 'Eastmoor Yard']]);
    expect(listed.totalCount).toBe(1);
    // a wildcard in the text is taken literally
    expect((await admin.get('/api/commands/?search=%25moor')).json().totalCount).toBe(0);
    // a viewer of other sites finds nothing by the name of a site they do not see
    expect((await field.get('/api/commands/?search=Eastmoor')).json().contents).toEqual([]);
    expect((await admin.get(`/api/commands/?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('refuses a selection with a device the caller cannot see, and an empty target', async () => {
    const mine = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const theirs = await makeDevice(adminB, { type: 'ETH' });
    const res = await admin.post('/api/commands/bulk/', { target: { kind: 'devices', deviceIds: [mine.id, theirs.id] }, method: 'ping' });
    expect(res.statusCode).toBe(404);
    const empty = await admin.post('/api/commands/bulk/', { target: { kind: 'type', type: 'NOSUCHTYPE' }, method: 'ping' });
    expect(empty.statusCode).toBe(400);
  });
});

describe('access', () => {
  it('keeps sending a permission of its own: viewers read, but cannot send', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'ping' });
    expect((await viewer.post('/api/commands/', { deviceId: d.id, method: 'ping' })).statusCode).toBe(403);
    expect((await viewer.post('/api/commands/bulk/', { target: { kind: 'site', assetId: site.id }, method: 'ping' })).statusCode).toBe(403);
    expect((await viewer.get(`/api/commands/${sent.id}/`)).statusCode).toBe(200);
    expect((await field.post('/api/commands/', { deviceId: d.id, method: 'ping' })).statusCode).toBe(403);
  });

  it('never shows another tenant’s or an unseen site’s commands', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: hidden.id });
    const sent = await send({ deviceId: d.id, method: 'ping' });
    expect((await adminB.get(`/api/commands/${sent.id}/`)).statusCode).toBe(404);
    const bulk = (await admin.post('/api/commands/bulk/', { target: { kind: 'devices', deviceIds: [d.id] }, method: 'ping' })).json();
    expect((await adminB.get(`/api/commands/bulk/${bulk.id}/`)).statusCode).toBe(404);
    expect((await adminB.get('/api/commands/bulk/')).json().contents).toEqual([]);
    expect((await field.get(`/api/commands/bulk/${bulk.id}/`)).statusCode).toBe(403);
    expect((await adminB.post('/api/commands/', { deviceId: d.id, method: 'ping' })).statusCode).toBe(404);
    expect((await adminB.get(`/api/commands/?deviceId=${d.id}`)).statusCode).toBe(404);
    expect((await adminB.get('/api/commands/')).json().contents).toEqual([]);
    expect((await field.get(`/api/commands/${sent.id}/`)).statusCode).toBe(404);
    expect((await field.get(`/api/commands/?deviceId=${d.id}`)).statusCode).toBe(404);
    const fieldList = (await field.get('/api/commands/?limit=200')).json();
    expect(fieldList.contents.some((c: DeviceCommand) => c.id === sent.id)).toBe(false);
  });

  it('validates method and params', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const bad = await admin.post('/api/commands/', { deviceId: d.id, method: 'rm -rf' });
    expect(bad.statusCode).toBe(400);
    const big = await admin.post('/api/commands/', { deviceId: d.id, method: 'x', params: { blob: 'a'.repeat(9000) } });
    expect(big.statusCode).toBe(400);
    const slow = await admin.post('/api/commands/', { deviceId: d.id, method: 'x', timeoutMs: 10 });
    expect(slow.statusCode).toBe(400);
  });
});

describe('hostile input', () => {
  it('answers no 5xx on any commands route', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const bodies: unknown[] = [
      null,
      'x',
      [],
      { deviceId: 'x', method: 1 },
      { deviceId: 2 ** 40, method: 'a' },
      { deviceId: d.id, method: 'a', params: { deep: { deeper: ['\u0000'] } } },
      { deviceId: d.id, method: 'a', oneway: 'yes', timeoutMs: 1e12, expiresInMs: -1 },
    ];
    for (const body of bodies) expect((await admin.post('/api/commands/', body)).statusCode).toBeLessThan(500);
    for (const target of [
      null,
      { kind: 'x' },
      { kind: 'devices', deviceIds: [] },
      { kind: 'devices', deviceIds: Array(1001).fill(1) },
      { kind: 'type', type: '' },
    ])
      expect((await admin.post('/api/commands/bulk/', { target, method: 'a' })).statusCode).toBeLessThan(500);
    for (const q of ['deviceId=abc', 'state=nope', 'page=0', 'limit=100000', 'bulkId=-1'])
      expect((await admin.get(`/api/commands/?${q}`)).statusCode).toBeLessThan(500);
    for (const url of ['/api/commands/abc/', '/api/commands/99999999999/', '/api/commands/bulk/0/', '/api/commands/bulk/1/?state=x'])
      expect((await admin.get(url)).statusCode).toBeLessThan(500);
    expect((await devicePoll(d.accessToken, Number.NaN)).statusCode).toBeLessThan(500);
    expect((await devicePoll(d.accessToken, 10 ** 9)).statusCode).toBeLessThan(500);
    for (const id of ['abc', '0', '99999999999999', '-1'])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/v1/${d.accessToken}/rpc/${id}`,
            payload: 'not json',
            headers: { host: 'devices.example.net', 'content-type': 'text/plain' },
          })
        ).statusCode,
      ).toBeLessThan(500);
    const huge = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${d.accessToken}/rpc/1`,
      payload: 'a'.repeat(200_000),
      headers: { host: 'devices.example.net', 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBeLessThan(500);
  });
});
