import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** Calendar event bodies and tenant-A events for the route-walking test. */

export const eventInput = (extra: Record<string, unknown> = {}) => ({
  title: 'Morning shift',
  kind: 'shift',
  start: '2026-03-02T09:00',
  end: '2026-03-02T17:00',
  timeZone: 'Europe/London',
  ...extra,
});

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const made = new WeakMap<TestApp, Promise<number>>();

const event: ObjectFixture = async (t) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  if (!made.has(t))
    made.set(
      t,
      (async () => {
        const admin = (await admins.get(t)) as TestClient;
        const res = await admin.post(
          '/api/calendar/events/',
          eventInput({ recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: ['MO'] } }),
        );
        if (res.statusCode !== 201) throw new Error(`calendar fixture: ${res.statusCode} ${res.body}`);
        return res.json().id as number;
      })(),
    );
  return { params: { id: await (made.get(t) as Promise<number>) }, payload: eventInput() };
};

const device: ObjectFixture = async (t) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  const admin = (await admins.get(t)) as TestClient;
  const res = await admin.post('/iotapp/devices/', {
    label: `CAL-${Date.now().toString(36)}`,
    type: 'GENERATOR',
    assetId: null,
    parentId: null,
    templateId: null,
    metadata: {},
  });
  if (res.statusCode !== 201) throw new Error(`calendar device fixture: ${res.statusCode} ${res.body}`);
  return { params: { id: res.json().id as number } };
};

export const calendarObjectRoutes: Record<string, ObjectFixture> = {
  'GET /api/calendar/events/:id/': event,
  'PUT /api/calendar/events/:id/': event,
  'DELETE /api/calendar/events/:id/': event,
  'POST /api/calendar/events/:id/reschedule/': async (t) => ({
    ...(await event(t)),
    payload: { scope: 'series', occurrence: '2026-03-02T09:00', start: '2026-03-03T09:00', end: '2026-03-03T17:00' },
  }),
  'GET /api/calendar/devices/:id/window/': device,
};
