import { CALENDAR_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventInput } from './calendar-fixtures.ts';
import { getTicket, history, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

let t: TestApp;
const clock = createTestClock();
let admin: TestClient;
let field: TestClient;
let viewer: TestClient;
let fieldId: number;
let mySite: { id: number; name: string };
let hiddenSite: { id: number; name: string };

const items = (client: TestClient, from: string, to: string, extra = '') =>
  client.get(`/api/calendar/items/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`);
const create = async (client: TestClient, body: Record<string, unknown>) => {
  const res = await client.post('/api/calendar/events/', eventInput(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; version: number; exceptions: string[]; start: string; recurrence: { byWeekday: string[] } | null };
};
/** Steps the clock, runs the due jobs, and signs the administrator in again (sessions follow the clock). */
async function step(ms: number) {
  clock.advance(ms);
  await t.app.jobs.drain();
  admin = await t.login('customeradmin');
}
/** A wall-clock minute in UTC, `minutes` from the test clock's now. */
const utcLocal = (minutes: number) =>
  new Date(Math.floor(clock.now().getTime() / 60_000) * 60_000 + minutes * 60_000).toISOString().slice(0, 16);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
  fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  mySite = await makeSite(admin, { name: 'Harbour Depot' });
  hiddenSite = await makeSite(admin, { name: 'Secret Vault' });
  for (const username of ['fieldexecutive', 'customer']) {
    const res = await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, username), assetIds: [mySite.id] });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => t?.close());

describe('events', () => {
  it('creates, reads, lists, updates and deletes an event, with activity entries', async () => {
    const made = await create(admin, {
      title: 'Depot visit',
      kind: 'site_visit',
      siteId: mySite.id,
      assigneeIds: [fieldId],
      notes: 'Bring keys',
    });
    const got = await admin.get(`/api/calendar/events/${made.id}/`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({
      title: 'Depot visit',
      site: { id: mySite.id, name: 'Harbour Depot' },
      assignees: [{ id: fieldId }],
      can: { change: true },
    });
    const list = await admin.get('/api/calendar/events/?search=Depot%20visit');
    expect(list.json().contents.map((e: { id: number }) => e.id)).toContain(made.id);
    const upd = await admin.put(
      `/api/calendar/events/${made.id}/`,
      eventInput({ title: 'Depot audit', kind: 'site_visit', siteId: mySite.id, version: made.version }),
    );
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().title).toBe('Depot audit');
    const stale = await admin.put(`/api/calendar/events/${made.id}/`, eventInput({ title: 'Again', version: made.version }));
    expect(stale.statusCode).toBe(409);
    const del = await admin.delete(`/api/calendar/events/${made.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await admin.get(`/api/calendar/events/${made.id}/`)).statusCode).toBe(404);
    const log = await t.db
      .selectFrom('user_activity_logs')
      .select('action')
      .where('object_id', '=', String(made.id))
      .where('object_type', '=', 'calendar_event')
      .execute();
    expect(log.map((l) => l.action).sort()).toEqual(['calendar.create', 'calendar.delete', 'calendar.update']);
  });

  it('validates with clear messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timeZone: 'Mars/Olympus' }, CALENDAR_MESSAGES.badZone],
      [{ end: '2026-03-02T08:00' }, CALENDAR_MESSAGES.endBeforeStart],
      [{ start: 'tomorrow' }, 'Use a date and time like 2026-03-08T09:00'],
      [{ kind: 'maintenance_window' }, CALENDAR_MESSAGES.windowTarget],
      [{ recurrence: { freq: 'WEEKLY', interval: 1, until: '2026-04-01', count: 3 } }, CALENDAR_MESSAGES.untilAndCount],
      [{ end: '2026-05-02T08:00' }, CALENDAR_MESSAGES.tooLong],
      [{ title: 'x'.repeat(201) }, 'Please use maximum 200 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/calendar/events/', eventInput(body));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(message);
    }
    const range = await items(admin, '2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z');
    expect(range.statusCode).toBe(400);
    expect(range.body).toContain(CALENDAR_MESSAGES.badRange);
  });

  it('keeps field staff to their own shifts and viewers to looking', async () => {
    const own = await create(field, { title: 'My shift' });
    expect((await field.get(`/api/calendar/events/${own.id}/`)).json().assignees).toEqual([expect.objectContaining({ id: fieldId })]);
    const other = await field.post('/api/calendar/events/', eventInput({ assigneeIds: [await userId(t, t.tenantA, 'customer')] }));
    expect(other.statusCode).toBe(403);
    expect(other.json().detail).toBe(CALENDAR_MESSAGES.ownOnly);
    expect((await field.post('/api/calendar/events/', eventInput({ kind: 'preventive_maintenance' }))).statusCode).toBe(403);
    expect((await field.post('/api/calendar/events/', eventInput({ kind: 'maintenance_window', siteId: mySite.id }))).statusCode).toBe(403);
    const adminsEvent = await create(admin, { title: 'Admin planning' });
    expect((await field.put(`/api/calendar/events/${adminsEvent.id}/`, eventInput())).statusCode).toBe(403);
    expect((await field.delete(`/api/calendar/events/${adminsEvent.id}/`)).statusCode).toBe(403);
    expect((await field.delete(`/api/calendar/events/${own.id}/`)).statusCode).toBe(204);
    expect((await viewer.post('/api/calendar/events/', eventInput())).statusCode).toBe(403);
    expect((await viewer.get(`/api/calendar/events/${adminsEvent.id}/`)).statusCode).toBe(200);
    const opts = await viewer.get('/api/calendar/options/');
    expect(opts.json().can).toMatchObject({ add: false, change: false });
    expect((await field.get('/api/calendar/options/')).json().can).toMatchObject({ add: true, change: false, addOwnOnly: true });
  });

  it('hides events of sites the user does not see, and other tenants’ events', async () => {
    const secret = await create(admin, {
      title: 'Vault check',
      kind: 'site_visit',
      siteId: hiddenSite.id,
      start: '2026-03-04T09:00',
      end: '2026-03-04T10:00',
    });
    expect((await field.get(`/api/calendar/events/${secret.id}/`)).statusCode).toBe(404);
    const res = await items(field, '2026-03-01T00:00:00Z', '2026-03-08T00:00:00Z');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Vault check');
    expect((await items(admin, '2026-03-01T00:00:00Z', '2026-03-08T00:00:00Z')).body).toContain('Vault check');
    const hidden = await field.post('/api/calendar/events/', eventInput({ kind: 'site_visit', siteId: hiddenSite.id }));
    expect(hidden.statusCode).toBe(400);
    expect(hidden.body).not.toContain('Secret');
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/api/calendar/events/${secret.id}/`)).statusCode).toBe(404);
    expect((await items(other, '2026-03-01T00:00:00Z', '2026-03-08T00:00:00Z')).body).not.toContain('Vault check');
  });

  it('filters occurrences by user, site and kind and merges work-order due dates', async () => {
    await create(admin, {
      title: 'Filter shift',
      assigneeIds: [fieldId],
      siteId: mySite.id,
      start: '2026-04-06T09:00',
      end: '2026-04-06T17:00',
    });
    await create(admin, { title: 'Filter visit', kind: 'site_visit', start: '2026-04-07T09:00', end: '2026-04-07T10:00' });
    const wo = await raise(admin, {
      type: 'WORKORDERTICKET',
      title: 'Replace filter',
      locationId: mySite.id,
      dueDate: '2026-04-08T12:00:00.000Z',
    });
    const all = (await items(admin, '2026-04-06T00:00:00Z', '2026-04-10T00:00:00Z')).json().contents as {
      title: string;
      source: string;
      ticketId: number | null;
    }[];
    expect(all.map((i) => i.title)).toEqual(expect.arrayContaining(['Filter shift', 'Filter visit']));
    expect(all.find((i) => i.source === 'workorder')?.ticketId).toBe(wo.id);
    const byUser = (await items(admin, '2026-04-06T00:00:00Z', '2026-04-10T00:00:00Z', `&userId=${fieldId}`)).json().contents;
    expect(byUser.map((i: { title: string }) => i.title)).toEqual(['Filter shift']);
    const bySite = (await items(admin, '2026-04-06T00:00:00Z', '2026-04-10T00:00:00Z', `&siteId=${mySite.id}&tickets=false`)).json()
      .contents;
    expect(bySite.map((i: { title: string }) => i.title)).toEqual(['Filter shift']);
    const byKind = (await items(admin, '2026-04-06T00:00:00Z', '2026-04-10T00:00:00Z', '&kind=site_visit')).json().contents;
    expect(byKind.map((i: { title: string }) => i.title)).toEqual(['Filter visit']);
    expect(
      (await items(viewer, '2026-04-06T00:00:00Z', '2026-04-10T00:00:00Z'))
        .json()
        .contents.some((i: { source: string }) => i.source === 'workorder'),
    ).toBe(true);
  });
});

describe('cluster filter', () => {
  it('shows the events at the cluster’s sites and those of the cluster, and offers the cluster', async () => {
    const clustered = await makeSite(admin, { name: 'Cluster Depot' });
    const res = await admin.post('/iotapp/clusters/', { name: `North ${Date.now().toString(36)}`, assetIds: [clustered.id] });
    expect(res.statusCode, res.body).toBe(201);
    const cluster = res.json() as { id: number; name: string };
    await create(admin, {
      title: 'In cluster site',
      kind: 'site_visit',
      siteId: clustered.id,
      start: '2026-06-01T09:00',
      end: '2026-06-01T10:00',
    });
    await create(admin, { title: 'Cluster planning', clusterId: cluster.id, start: '2026-06-02T09:00', end: '2026-06-02T10:00' });
    await create(admin, { title: 'Elsewhere', kind: 'site_visit', siteId: mySite.id, start: '2026-06-03T09:00', end: '2026-06-03T10:00' });
    const got = (await items(admin, '2026-06-01T00:00:00Z', '2026-06-05T00:00:00Z', `&clusterId=${cluster.id}&tickets=false`)).json()
      .contents;
    expect(got.map((i: { title: string }) => i.title)).toEqual(['In cluster site', 'Cluster planning']);
    expect((await admin.get('/api/calendar/options/')).json().clusters).toContainEqual({ id: cluster.id, name: cluster.name });
    const bad = await admin.post('/api/calendar/events/', eventInput({ clusterId: 999_999 }));
    expect(bad.statusCode).toBe(400);
  });
});

describe('recurring series', () => {
  it('expands a weekly 09:00 shift at 09:00 New York time on both sides of the March change', async () => {
    await create(admin, {
      title: 'NY shift',
      start: '2026-03-02T09:00',
      end: '2026-03-02T17:00',
      timeZone: 'America/New_York',
      recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: ['MO'] },
    });
    const res = await items(admin, '2026-03-01T00:00:00Z', '2026-03-17T00:00:00Z', '&kind=shift');
    const ny = (res.json().contents as { title: string; start: string; occurrence: string }[]).filter((i) => i.title === 'NY shift');
    expect(ny.map((i) => i.start)).toEqual(['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z', '2026-03-16T13:00:00.000Z']);
    expect(ny.map((i) => i.occurrence)).toEqual(['2026-03-02T09:00', '2026-03-09T09:00', '2026-03-16T09:00']);
  });

  it('moves one occurrence (exception plus a detached event) or the whole series', async () => {
    const series = await create(admin, {
      title: 'Rota',
      start: '2026-05-04T09:00',
      end: '2026-05-04T17:00',
      timeZone: 'Australia/Sydney',
      recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: ['MO'], count: 4 },
    });
    const bad = await admin.post(`/api/calendar/events/${series.id}/reschedule/`, {
      scope: 'occurrence',
      occurrence: '2026-05-05T09:00',
      start: '2026-05-05T10:00',
      end: '2026-05-05T18:00',
    });
    expect(bad.statusCode).toBe(400);
    const one = await admin.post(`/api/calendar/events/${series.id}/reschedule/`, {
      scope: 'occurrence',
      occurrence: '2026-05-11T09:00',
      start: '2026-05-12T07:00',
      end: '2026-05-12T15:00',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().event).toMatchObject({
      seriesId: series.id,
      originalStart: '2026-05-11T09:00',
      start: '2026-05-12T07:00',
      recurrence: null,
    });
    const after = (await admin.get(`/api/calendar/events/${series.id}/`)).json();
    expect(after.exceptions).toEqual(['2026-05-11T09:00']);
    const occ = (await items(admin, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z', '&kind=shift'))
      .json()
      .contents.filter((i: { title: string }) => i.title === 'Rota');
    expect(occ.map((i: { occurrence: string }) => i.occurrence)).toEqual([
      '2026-05-04T09:00',
      '2026-05-12T07:00',
      '2026-05-18T09:00',
      '2026-05-25T09:00',
    ]);

    const whole = await admin.post(`/api/calendar/events/${series.id}/reschedule/`, {
      scope: 'series',
      occurrence: '2026-05-18T09:00',
      start: '2026-05-19T08:00',
      end: '2026-05-19T16:00',
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().event).toMatchObject({ start: '2026-05-05T08:00', end: '2026-05-05T16:00', exceptions: ['2026-05-12T08:00'] });
    expect(whole.json().event.recurrence.byWeekday).toEqual(['TU']);

    const delOne = await admin.delete(`/api/calendar/events/${series.id}/?occurrence=2026-05-19T08:00`);
    expect(delOne.statusCode).toBe(204);
    const left = (await items(admin, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z', '&kind=shift'))
      .json()
      .contents.filter((i: { title: string }) => i.title === 'Rota');
    expect(left.map((i: { occurrence: string }) => i.occurrence)).toEqual(['2026-05-05T08:00', '2026-05-12T07:00', '2026-05-26T08:00']);
    expect((await admin.delete(`/api/calendar/events/${series.id}/`)).statusCode).toBe(204);
    expect((await items(admin, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z', '&kind=shift')).body).not.toContain('Rota');
  });
});

describe('maintenance windows', () => {
  it('switches maintenance on at the start and off at the end, pausing the site’s SLA and marking its recordings', async () => {
    const site = await makeSite(admin, { name: 'Window Site' });
    const router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'W-RTR' });
    const cam = await makeDevice(admin, { type: 'CAMERA', assetId: site.id, label: 'W-CAM' });
    const ticket = await raise(admin, {
      title: 'Door alarm',
      locationId: site.id,
      dueDate: new Date(clock.now().getTime() + 6 * 3600_000).toISOString(),
    });
    const windowStart = utcLocal(60);
    const window = await create(admin, {
      title: 'UPS swap',
      kind: 'maintenance_window',
      siteId: site.id,
      timeZone: 'UTC',
      start: windowStart,
      end: utcLocal(180),
    });
    const device = async (id: number) => (await admin.get(`/iotapp/devices/${id}/`)).json().metadata.maintenance;
    expect(await device(router.id)).toBe(false);
    await step(61 * 60_000);
    expect(await device(router.id)).toBe(true);
    expect(await device(cam.id)).toBe(true);
    const shown = (await admin.get(`/api/calendar/devices/${router.id}/window/`)).json();
    expect(shown.window).toMatchObject({ eventId: window.id, title: 'UPS swap' });
    const h = await history(admin, ticket.id);
    expect(JSON.stringify(h)).toContain('slaPaused');
    expect((await getTicket(admin, ticket.id)).slaPausedAt).not.toBeNull();
    const markers = await t.handles.video.markers.list(t.tenantA, `calendar:${window.id}:${windowStart}`);
    expect(markers.map((m) => m.cameraId)).toEqual([cam.id]);
    // The SLA sweep leaves a paused ticket alone even past its due date.
    await step(120 * 60_000);
    expect(await device(router.id)).toBe(false);
    expect((await admin.get(`/api/calendar/devices/${router.id}/window/`)).json().window).toBeNull();
    const resumed = await getTicket(admin, ticket.id);
    expect(resumed.slaPausedAt).toBeNull();
    expect(new Date(resumed.dueDate as string).getTime() - new Date(ticket.dueDate as string).getTime()).toBeGreaterThanOrEqual(
      119 * 60_000,
    );
    expect(JSON.stringify(await history(admin, ticket.id))).toContain('slaResumed');
  });

  it('ends the window when its event is deleted mid-window, leaving devices already in maintenance alone', async () => {
    const site = await makeSite(admin, { name: 'Early Site' });
    const gen = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id, label: 'E-GEN' });
    const cam = await makeDevice(admin, { type: 'CAMERA', assetId: site.id, label: 'E-CAM' });
    const manual = await admin.post(`/iotapp/devices/${gen.id}/alarm-actions/`, {
      telemetryKey: 'maintenance',
      telemetryValue: true,
      updateChildDevice: false,
      createTicket: false,
      description: '',
    });
    expect(manual.statusCode, manual.body).toBe(200);
    const rewireStart = utcLocal(-5);
    const window = await create(admin, {
      title: 'Rewire',
      kind: 'maintenance_window',
      siteId: site.id,
      timeZone: 'UTC',
      start: rewireStart,
      end: utcLocal(55),
    });
    const device = async (id: number) => (await admin.get(`/iotapp/devices/${id}/`)).json().metadata.maintenance;
    expect(await device(cam.id)).toBe(true);
    expect(await device(gen.id)).toBe(true);
    await step(10 * 60_000);
    expect((await admin.delete(`/api/calendar/events/${window.id}/`)).statusCode).toBe(204);
    expect(await device(cam.id)).toBe(false);
    expect(await device(gen.id)).toBe(true);
    const [marker] = await t.handles.video.markers.list(t.tenantA, `calendar:${window.id}:${rewireStart}`);
    expect(marker?.to.getTime()).toBeLessThanOrEqual(clock.now().getTime());
    await t.app.jobs.drain();
    expect(await device(cam.id)).toBe(false);
  });

  it('follows a window moved to later: off now, on again at its new start', async () => {
    const site = await makeSite(admin, { name: 'Moved Site' });
    const gen = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id, label: 'M-GEN' });
    const w = await create(admin, {
      title: 'Move me',
      kind: 'maintenance_window',
      deviceId: gen.id,
      timeZone: 'UTC',
      start: utcLocal(-1),
      end: utcLocal(30),
    });
    const device = async () => (await admin.get(`/iotapp/devices/${gen.id}/`)).json().metadata.maintenance;
    expect(await device()).toBe(true);
    const moved = await admin.put(
      `/api/calendar/events/${w.id}/`,
      eventInput({
        title: 'Move me',
        kind: 'maintenance_window',
        deviceId: gen.id,
        timeZone: 'UTC',
        start: utcLocal(60),
        end: utcLocal(90),
      }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await device()).toBe(false);
    await step(61 * 60_000);
    expect(await device()).toBe(true);
    await step(30 * 60_000);
    expect(await device()).toBe(false);
  });
});
