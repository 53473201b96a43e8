import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Db } from '../src/platform/db.ts';

/** A device row of the devices domain, made directly for telemetry and alarm tests. */
export async function makeDevice(
  db: Db,
  tenantId: number,
  opts: { type?: string; label?: string; templateId?: number | null; assetId?: number | null; metadata?: Record<string, boolean> } = {},
) {
  const token = randomBytes(12).toString('hex');
  const label = opts.label ?? `dev-${token.slice(0, 6)}`;
  const row = await db
    .insertInto('devices')
    .values({
      tenant_id: tenantId,
      name: label,
      label,
      type: opts.type ?? 'GENERATOR',
      access_token: token,
      template_id: opts.templateId ?? null,
      asset_id: opts.assetId ?? null,
      parent_id: null,
      metadata: JSON.stringify({ muteDevice: false, maintenance: false, enableDevice: true, ...opts.metadata }) as never,
    })
    .returning(['id', 'access_token'])
    .executeTakeFirstOrThrow();
  return { id: row.id, token: row.access_token, label };
}

export async function makeTemplate(
  db: Db,
  tenantId: number,
  telemetry: { key: string; label: string; valueType: 'number' | 'boolean' | 'string' }[],
) {
  const row = await db
    .insertInto('device_templates')
    .values({
      tenant_id: tenantId,
      name: `tpl-${randomBytes(3).toString('hex')}`,
      type: 'GENERATOR',
      vendor: 'Acme',
      telemetry: JSON.stringify(telemetry) as never,
      attributes: '{}' as never,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Connects and resolves on CONNACK, rejects on a refused connection. */
export function connectDevice(url: string, options: IClientOptions): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

export const publish = (client: MqttClient, topic: string, payload: string, qos: 0 | 1 = 1) =>
  new Promise<void>((resolve, reject) => client.publish(topic, payload, { qos }, (error) => (error ? reject(error) : resolve())));

export const endClient = (client: MqttClient) => new Promise<void>((resolve) => client.end(false, {}, () => resolve()));

/** Polls until the check passes (values arrive asynchronously over MQTT). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Route-walk fixtures (test/support/object-routes.ts): a tenant-A device, and a tenant-A alarm rule. */
const deviceOfA = async (t: { db: Db; tenantA: number }) => ({ params: { id: (await makeDevice(t.db, t.tenantA)).id } });
const ruleBody = { name: 'Rule of tenant A', kind: 'inactivity', deviceType: 'ROUTER', durationSeconds: 600, severity: 'MAJOR' };
const ruleOfA = async (t: { login(u: string): Promise<{ post(url: string, body: unknown): Promise<{ json(): { id: number } }> }> }) => {
  const admin = await t.login('customeradmin');
  return { params: { id: (await admin.post('/api/alarms/rules/', ruleBody)).json().id }, payload: ruleBody };
};
/** A tenant-A alarm (an SNMP-style alarm of a tenant-A device, written directly). */
const alarmOfA = async (t: { db: Db; tenantA: number }) => {
  const device = await makeDevice(t.db, t.tenantA);
  const alarm = await t.db
    .insertInto('alarms')
    .values({
      tenant_id: t.tenantA,
      device_id: device.id,
      rule_id: null,
      rule_name: 'Alarm of tenant A',
      severity: 'MAJOR',
      message: 'm',
      num: null,
      txt: null,
      suppressed_by: null,
      ticket_id: null,
      source_key: 'route-walk',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { params: { id: alarm.id } };
};

export const telemetryObjectRoutes = {
  'POST /api/alarms/:id/ticket/': alarmOfA,
  'GET /api/telemetry/devices/:id/latest/': deviceOfA,
  'GET /api/telemetry/devices/:id/chart/': async (t: { db: Db; tenantA: number }) => deviceOfA(t),
  'GET /api/telemetry/devices/:id/connection/': deviceOfA,
  'PUT /api/alarms/rules/:id/': ruleOfA,
  'DELETE /api/alarms/rules/:id/': ruleOfA,
};

/** What a device does: a plain POST with no cookies, session or CSRF token, to any host name. */
export const devicePost = (
  t: { app: { inject: (o: object) => Promise<import('fastify').LightMyRequestResponse> } },
  url: string,
  body: unknown,
) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { host: 'devices.example.net', 'content-type': 'application/json' },
  });
