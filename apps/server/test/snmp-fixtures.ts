import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** Tenant-A trap destinations, filters and OID mappings for the route-walking test. */

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const made = new WeakMap<TestApp, Promise<{ destination: number; filter: number; mapping: number }>>();

export const destinationInput = (extra: Record<string, unknown> = {}) => ({
  name: 'Fixture NMS',
  host: '192.0.2.10',
  port: 162,
  version: 'v2c',
  community: 'fixture-community',
  enabled: false,
  ...extra,
});
export const mappingInput = { name: 'Link down', trapOid: '1.3.6.1.6.3.1.1.5.3', action: 'raise', alarmKey: 'link', severity: 'MAJOR' };

function objects(t: TestApp) {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  if (!made.has(t))
    made.set(
      t,
      (async () => {
        const admin = (await admins.get(t)) as TestClient;
        const d = await admin.post('/api/trapforward/destinations/', destinationInput());
        if (d.statusCode !== 201) throw new Error(`trap destination fixture: ${d.statusCode} ${d.body}`);
        const destination = d.json().id as number;
        const f = await admin.post('/api/trapforward/filters/', { name: 'Fixture filter', destinationIds: [destination] });
        if (f.statusCode !== 201) throw new Error(`trap filter fixture: ${f.statusCode} ${f.body}`);
        const m = await admin.post('/api/trapforward/mappings/', mappingInput);
        if (m.statusCode !== 201) throw new Error(`trap mapping fixture: ${m.statusCode} ${m.body}`);
        return { destination, filter: f.json().id as number, mapping: m.json().id as number };
      })(),
    );
  return made.get(t) as Promise<{ destination: number; filter: number; mapping: number }>;
}

const destination: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).destination }, payload: destinationInput() });
const filter: ObjectFixture = async (t) => {
  const o = await objects(t);
  return { params: { id: o.filter }, payload: { name: 'Fixture filter', destinationIds: [o.destination] } };
};
const mapping: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).mapping }, payload: mappingInput });

export const snmpObjectRoutes: Record<string, ObjectFixture> = {
  'GET /api/trapforward/destinations/:id/': destination,
  'PUT /api/trapforward/destinations/:id/': destination,
  'DELETE /api/trapforward/destinations/:id/': destination,
  'GET /api/trapforward/filters/:id/': filter,
  'PUT /api/trapforward/filters/:id/': filter,
  'DELETE /api/trapforward/filters/:id/': filter,
  'PUT /api/trapforward/mappings/:id/': mapping,
  'DELETE /api/trapforward/mappings/:id/': mapping,
};
