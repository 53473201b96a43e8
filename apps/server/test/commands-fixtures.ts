import type { TestApp } from './support/harness.ts';
import { makeDevice } from './telemetry-fixtures.ts';

/** Route-walk fixtures (test/support/object-routes.ts): a tenant-A command, and a tenant-A bulk command. */
const commandOfA = async (t: TestApp) => {
  const admin = await t.login('customeradmin');
  const device = await makeDevice(t.db, t.tenantA);
  const res = await admin.post('/api/commands/', { deviceId: device.id, method: 'ping' });
  return { params: { id: res.json().id as number } };
};
const bulkOfA = async (t: TestApp) => {
  const admin = await t.login('customeradmin');
  const device = await makeDevice(t.db, t.tenantA);
  const res = await admin.post('/api/commands/bulk/', { target: { kind: 'devices', deviceIds: [device.id] }, method: 'ping' });
  return { params: { id: res.json().id as number } };
};

export const commandsObjectRoutes = {
  'GET /api/commands/:id/': commandOfA,
  'GET /api/commands/bulk/:id/': bulkOfA,
};
