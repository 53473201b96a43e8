import type { Db } from '../src/platform/db.ts';
import { makeDevice } from './telemetry-fixtures.ts';

/** Route-walk fixtures (test/support/object-routes.ts): a tenant-A device whose shared attributes the routes name. */
const deviceOfA = async (t: { db: Db; tenantA: number }) => ({
  params: { id: (await makeDevice(t.db, t.tenantA)).id },
  payload: { mode: 'eco' },
});

export const deviceApiObjectRoutes = {
  'GET /api/device-api/devices/:id/shared-attributes/': deviceOfA,
  'PUT /api/device-api/devices/:id/shared-attributes/': deviceOfA,
  'DELETE /api/device-api/devices/:id/shared-attributes/': deviceOfA,
};
