import type { DiagnosticStreamMessage } from '@sitewatch/contracts';
import WebSocket from 'ws';
import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

/** Tenant-A objects for the route-walking test: a site with an RTU, and a diagnostic run. */

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

const rtuSite: ObjectFixture = async (t) => {
  const admin = await adminOf(t);
  const site = await makeSite(admin);
  await makeDevice(admin, { type: 'ETH', assetId: site.id });
  return { params: { id: site.id } };
};

/** A finished last-contact run of a tenant-A device (needs no network). */
export async function createTestRun(t: TestApp) {
  const admin = await adminOf(t);
  const site = await makeSite(admin);
  const device = await makeDevice(admin, { type: 'ROUTER', assetId: site.id });
  const res = await admin.post('/api/device-ops/diagnostics/runs/', { deviceId: device.id, tool: 'last-contact' });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: number };
}

const run: ObjectFixture = async (t) => ({ params: { id: (await createTestRun(t)).id }, payload: { ticketId: 1 } });

export const deviceOpsObjectRoutes: Record<string, ObjectFixture> = {
  'GET /api/device-ops/rtus/sites/:id/': rtuSite,
  'GET /api/device-ops/diagnostics/runs/:id/': run,
  'GET /api/device-ops/diagnostics/runs/:id/ws': run,
  'POST /api/device-ops/diagnostics/runs/:id/attach/': run,
};

/** Follows a diagnostic run over its WebSocket until the server closes it: every message. */
export function followRun(port: number, runId: number, client: TestClient): Promise<DiagnosticStreamMessage[]> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/device-ops/diagnostics/runs/${runId}/ws`, {
      headers: { host: client.host, cookie },
    });
    const got: DiagnosticStreamMessage[] = [];
    ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
    ws.on('close', () => resolve(got));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
