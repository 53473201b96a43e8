import type { Ticket } from '@sitewatch/contracts';
import { expect } from 'vitest';
import type { TestApp, TestClient } from './support/harness.ts';

/** Factories shared by the helpdesk tests: sites and devices through their own endpoints, tickets through ours. */

export const userId = async (t: TestApp, tenantId: number, username: string) =>
  (await t.db.selectFrom('users').select('id').where('tenant_id', '=', tenantId).where('username', '=', username).executeTakeFirstOrThrow())
    .id;

let seq = 0;
export async function makeSite(admin: TestClient, name = `Site ${++seq}`) {
  const res = await admin.post('/iotapp/assets/', {
    name,
    address: ['India', 'Maharashtra', 'Pune'],
    latitude: 18.52,
    longitude: 73.85,
    metadata: { assetCode: `S-${seq}-${Date.now()}` },
    customerId: null,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string };
}

export async function makeDevice(admin: TestClient, assetId: number, label = `GEN-${++seq}`) {
  const res = await admin.post('/iotapp/devices/', { label, type: 'GENERATOR', assetId, parentId: null, templateId: null, metadata: {} });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; label: string };
}

export async function raise(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/helpdesk/tickets/', { title: 'Generator not starting', event: 'Power Failure', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Ticket;
}

export async function getTicket(client: TestClient, id: number) {
  const res = await client.get(`/helpdesk/tickets/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
}

export async function put(client: TestClient, id: number, body: Record<string, unknown>) {
  const current = await getTicket(client, id);
  return client.put(`/helpdesk/tickets/${id}/`, { version: current.version, ...body });
}

export async function history(client: TestClient, id: number) {
  const res = await client.get(`/helpdesk/tickets/${id}/history/?limit=100&orderBy=updatedAt`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().contents as Array<{
    history_id: number;
    action: string;
    changes: { field: string; from: unknown; to: unknown }[];
    note: string | null;
  }>;
}

/** A multipart/form-data body with the given files under the field "attachments" (or "file"). */
export function multipart(files: Array<{ name: string; data: Buffer; type?: string; field?: string }>) {
  const boundary = `----sw${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'attachments'}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);

export async function attach(client: TestClient, id: number, files: Parameters<typeof multipart>[0] = [{ name: 'photo.png', data: PNG }]) {
  const body = multipart(files);
  return client.request({ method: 'POST', url: `/helpdesk/tickets/${id}/attachments/`, payload: body.payload, headers: body.headers });
}

/** A ticket of tenant A (raised by its admin, with an attachment when asked) for the route-walking security test. */
async function tenantATicket(t: TestApp, withAttachment = false) {
  const admin = await t.login('customeradmin');
  const ticket = await raise(admin, { title: 'Tenant A only', event: 'Power Failure' });
  if (!withAttachment) return { admin, ticket };
  const res = await attach(admin, ticket.id);
  expect(res.statusCode, res.body).toBe(201);
  return { admin, ticket: res.json() as Ticket };
}

type Fixture = (t: TestApp) => Promise<{ params: Record<string, string | number>; payload?: unknown }>;

/** Every helpdesk route that names an object, with a tenant-A object for it (see support/object-routes.ts). */
export const helpdeskObjectRoutes: Record<string, Fixture> = {
  'GET /helpdesk/tickets/:id/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id } }),
  'PUT /helpdesk/tickets/:id/': async (t) => ({
    params: { id: (await tenantATicket(t)).ticket.id },
    payload: { version: 1, title: 'Taken over' },
  }),
  'GET /helpdesk/tickets/:id/history/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id } }),
  'GET /helpdesk/tickets/:id/comments/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id } }),
  'POST /helpdesk/tickets/:id/comments/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id }, payload: { text: 'Hello' } }),
  'POST /helpdesk/tickets/:id/watchers/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id }, payload: {} }),
  'DELETE /helpdesk/tickets/:id/watchers/:userId/': async (t) => {
    const { admin, ticket } = await tenantATicket(t);
    const watched = (await admin.post(`/helpdesk/tickets/${ticket.id}/watchers/`, {})).json() as Ticket;
    return { params: { id: ticket.id, userId: watched.watchers[0]?.id as number } };
  },
  'POST /helpdesk/tickets/:id/rating/': async (t) => {
    const { admin, ticket } = await tenantATicket(t);
    await admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: ticket.version, status: 'RESOLVED' });
    return { params: { id: ticket.id }, payload: { rating: 1 } };
  },
  'POST /helpdesk/tickets/:id/work-order/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id }, payload: {} }),
  'POST /helpdesk/tickets/:id/attachments/': async (t) => ({ params: { id: (await tenantATicket(t)).ticket.id } }),
  'GET /helpdesk/tickets/:id/attachments/:attachmentId/': async (t) => {
    const { ticket } = await tenantATicket(t, true);
    return { params: { id: ticket.id, attachmentId: ticket.attachments[0]?.id as number } };
  },
  'DELETE /helpdesk/tickets/:id/attachments/:attachmentId/': async (t) => {
    const { ticket } = await tenantATicket(t, true);
    return { params: { id: ticket.id, attachmentId: ticket.attachments[0]?.id as number } };
  },
  'GET /helpdesk/issue-types/:id/': async (t) => ({ params: { id: await issueType(t) } }),
  'PUT /helpdesk/issue-types/:id/': async (t) => ({ params: { id: await issueType(t) }, payload: { name: 'Renamed' } }),
  'DELETE /helpdesk/issue-types/:id/': async (t) => ({ params: { id: await issueType(t) } }),
  'GET /helpdesk/escalation-policies/:id/': async (t) => ({ params: { id: await escalationPolicy(t) } }),
  'PUT /helpdesk/escalation-policies/:id/': async (t) => ({
    params: { id: await escalationPolicy(t) },
    payload: { name: 'Renamed', levels: [{ waitMinutes: 5, role: 'areahead' }] },
  }),
  'DELETE /helpdesk/escalation-policies/:id/': async (t) => ({ params: { id: await escalationPolicy(t) } }),
  'GET /helpdesk/imports/:id/': async (t) => {
    const admin = await t.login('customeradmin');
    const body = multipart([{ name: 't.csv', data: Buffer.from('title,event\nA,B\n'), field: 'file' }]);
    const res = await admin.request({ method: 'POST', url: '/helpdesk/imports/', payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(202);
    return { params: { id: res.json().id } };
  },
};

let fixtureSeq = 0;
async function issueType(t: TestApp) {
  const admin = await t.login('customeradmin');
  const res = await admin.post('/helpdesk/issue-types/', { name: `Fixture issue ${++fixtureSeq}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
async function escalationPolicy(t: TestApp) {
  const admin = await t.login('customeradmin');
  const res = await admin.post('/helpdesk/escalation-policies/', {
    name: `Fixture policy ${++fixtureSeq}`,
    levels: [{ waitMinutes: 5, role: 'areahead' }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
