import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ATTENDANCE_IMPOSSIBLE_KMH,
  ATTENDANCE_MESSAGES,
  ATTENDANCE_PHOTO_LIMITS,
  type AttendanceRecord,
  type DownloadJob,
  haversineMeters,
} from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_CLEANUP_QUEUE, type SiteStills } from '../src/modules/attendance/index.ts';
import { enqueueJob } from '../src/platform/jobs/queue.ts';
import { getTicket, history, multipart, PNG, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite } from './support/sites-factory.ts';

const clock = createTestClock();
/** Sites whose "camera" answers with this picture; a test stands in for the video module's stills. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const camerasAt = new Set<number>();
const stills = (real: SiteStills): SiteStills => ({
  siteStill: async (tenantId, assetId) =>
    camerasAt.has(assetId) ? { deviceId: 1, label: 'CAM-GATE', takenAt: clock.now(), image: JPEG } : real.siteStill(tenantId, assetId),
});

let t: TestApp;
let dataDir: string;
let admin: TestClient;
let field: TestClient;
let viewer: TestClient;
let fieldId: number;
const SITE = { latitude: 18.52, longitude: 73.85 };
let site: { id: number; name: string };
let other: { id: number; name: string };
let bare: { id: number; name: string };
/** Metres north of a point, as a latitude. */
const north = (lat: number, metres: number) => lat + metres / ((Math.PI / 180) * 6_371_008.8);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sw-attendance-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { clock, decorate: { stills } });
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
  fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  site = await makeSite(admin, { name: 'Pune Depot', ...SITE });
  other = await makeSite(admin, { name: 'Far Depot', latitude: 19.07, longitude: 72.87 });
  bare = await makeSite(admin, { name: 'Unmapped Kiosk', latitude: null, longitude: null });
  const assigned = await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [site.id, bare.id] });
  expect(assigned.statusCode, assigned.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Steps the clock; sessions past their limits sign in again. */
async function step(ms: number) {
  clock.advance(ms);
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
}

const checkIn = (client: TestClient, body: Record<string, unknown>) => client.post('/api/attendance/check-in/', body);
/** Check-out is fenced like check-in: by default at the Pune site's own coordinates. */
const checkOut = (client: TestClient, body: Record<string, unknown> = SITE) => client.post('/api/attendance/check-out/', body);

describe('geofenced check-in', () => {
  it('refuses a check-in outside the fence with the distance, the site and the radius', async () => {
    const lat = north(SITE.latitude, 500);
    const res = await checkIn(field, { assetId: site.id, latitude: lat, longitude: SITE.longitude, accuracy: 12 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'You are 500 m from Pune Depot; check-in is allowed within 200 m',
      code: 'outside_geofence',
    });
    expect((await field.get('/api/attendance/current/')).json()).toEqual({ record: null, geofenceMeters: 200 });
  });

  it('accepts at the edge of the fence and refuses just beyond it', async () => {
    const edge = await checkIn(field, { assetId: site.id, latitude: north(SITE.latitude, 200), longitude: SITE.longitude });
    expect(edge.statusCode, edge.body).toBe(201);
    expect(edge.json().distance).toBe(200);
    expect((await checkOut(field)).statusCode).toBe(200);
    const beyond = await checkIn(field, { assetId: site.id, latitude: north(SITE.latitude, 201), longitude: SITE.longitude });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().detail).toBe('You are 201 m from Pune Depot; check-in is allowed within 200 m');
  });

  it('uses the tenant geofence setting', async () => {
    expect((await admin.put('/iotapp/customer-settings/', { attendanceGeofenceMeters: 1000 })).statusCode).toBe(200);
    try {
      const res = await checkIn(field, { assetId: site.id, latitude: north(SITE.latitude, 500), longitude: SITE.longitude });
      expect(res.statusCode, res.body).toBe(201);
      expect((await checkOut(field)).statusCode).toBe(200);
    } finally {
      await admin.put('/iotapp/customer-settings/', { attendanceGeofenceMeters: 200 });
    }
    const refused = await admin.put('/iotapp/customer-settings/', { attendanceGeofenceMeters: 5 });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses a site without coordinates, and a site the user does not see as not found', async () => {
    const res = await checkIn(field, { assetId: bare.id, latitude: 18.52, longitude: 73.85 });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      'Unmapped Kiosk has no location set, so check-in cannot be verified. Ask an administrator to set its latitude and longitude.',
    );
    const hidden = await checkIn(field, { assetId: other.id, latitude: 19.07, longitude: 72.87 });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('Far Depot');
  });

  it('validates the body with clear messages', async () => {
    const noSite = await checkIn(field, { latitude: 18.52, longitude: 73.85 });
    expect(noSite.statusCode).toBe(400);
    expect(noSite.body).toContain('Choose a site');
    const badLat = await checkIn(field, { assetId: site.id, latitude: 91, longitude: 73.85 });
    expect(badLat.statusCode).toBe(400);
    expect(badLat.body).toContain('Latitude must be between -90 and 90');
    const noPosition = await checkIn(field, { assetId: site.id });
    expect(noPosition.body).toContain('allow location access');
    expect((await checkIn(field, { assetId: site.id, latitude: 18.52, longitude: 73.85, extra: 1 })).statusCode).toBe(400);
  });

  it('needs the add_attendance permission', async () => {
    expect((await checkIn(viewer, { assetId: site.id, ...SITE })).statusCode).toBe(403);
    expect((await checkOut(viewer)).statusCode).toBe(403);
    expect((await viewer.get('/api/attendance/')).statusCode).toBe(403);
  });
});

describe('check-in and check-out', () => {
  let record: AttendanceRecord;

  it('checks in once, moves the open ticket assigned to the user to INPROGRESS, and logs it', async () => {
    const ticket = await raise(admin, { locationId: site.id, assignedTo: fieldId, title: 'Gate camera offline' });
    const elsewhere = await raise(admin, { locationId: site.id, title: 'Not assigned to the field executive' });
    const res = await checkIn(field, { assetId: site.id, latitude: north(SITE.latitude, 35), longitude: SITE.longitude, accuracy: 8 });
    expect(res.statusCode, res.body).toBe(201);
    record = res.json();
    expect(record).toMatchObject({
      userId: fieldId,
      assetId: site.id,
      siteName: 'Pune Depot',
      distance: 35,
      checkOutAt: null,
      hours: null,
      missingCheckOut: false,
      movedTicketIds: [ticket.id],
      snapshot: { state: 'pending' },
    });
    expect((await getTicket(admin, ticket.id)).status).toBe('INPROGRESS');
    expect((await getTicket(admin, elsewhere.id)).status).toBe('OPEN');
    const changes = (await history(admin, ticket.id)).flatMap((h) => h.changes);
    expect(changes).toContainEqual(expect.objectContaining({ field: 'status', from: 'OPEN', to: 'INPROGRESS' }));

    const again = await checkIn(field, { assetId: site.id, ...SITE });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('You are already checked in at Pune Depot. Check out first.');
    const current = (await field.get('/api/attendance/current/')).json();
    expect(current.record.id).toBe(record.id);

    const log = await admin.get('/iotapp/user-activity-logs/?action=attendance.check-in');
    expect(log.statusCode, log.body).toBe(200);
    expect(JSON.stringify(log.json())).toContain('Pune Depot');
  });

  it('takes no snapshot at a site without cameras', async () => {
    await t.app.jobs.drain();
    const res = await field.get(`/api/attendance/${record.id}/`);
    expect(res.json().snapshot).toEqual({ state: 'none', takenAt: null, cameraLabel: null });
    expect((await field.get(`/api/attendance/${record.id}/snapshot/`)).statusCode).toBe(404);
  });

  it('checks out, closing the open record with hours', async () => {
    await step(2 * 3600_000);
    const res = await checkOut(field, { latitude: SITE.latitude, longitude: SITE.longitude, accuracy: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: record.id,
      hours: 2,
      checkOut: { latitude: SITE.latitude, longitude: SITE.longitude, accuracy: 5 },
    });
    const none = await checkOut(field);
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toBe('You are not checked in.');
  });

  it('stores a camera snapshot through a job and serves it', async () => {
    camerasAt.add(site.id);
    try {
      const res = await checkIn(field, { assetId: site.id, ...SITE });
      expect(res.statusCode).toBe(201);
      expect(res.json().snapshot.state).toBe('pending');
      await t.app.jobs.drain();
      const stored = (await field.get(`/api/attendance/${res.json().id}/`)).json();
      expect(stored.snapshot).toMatchObject({ state: 'stored', cameraLabel: 'CAM-GATE' });
      const image = await admin.get(`/api/attendance/${res.json().id}/snapshot/`);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.equals(JPEG)).toBe(true);
      expect((await checkOut(field)).statusCode).toBe(200);
    } finally {
      camerasAt.delete(site.id);
    }
  });

  it('checks in for a named ticket of that site and refuses a ticket of another site', async () => {
    const ticket = await raise(admin, { locationId: site.id, assignedTo: fieldId, title: 'Named ticket' });
    const farTicket = await raise(admin, { locationId: other.id, title: 'Far away' });
    const refused = await checkIn(admin, { assetId: site.id, ...SITE, ticketId: farTicket.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('This ticket is not at the site you are checking in at.');
    const res = await checkIn(field, { assetId: site.id, ...SITE, ticketId: ticket.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ticketId: ticket.id, movedTicketIds: [ticket.id] });
    expect((await getTicket(field, ticket.id)).status).toBe('INPROGRESS');
    expect((await checkOut(field)).statusCode).toBe(200);
  });
});

describe('attendance management', () => {
  it('lists with filters, and a field user sees only their own records', async () => {
    const adminIn = await checkIn(admin, { assetId: other.id, latitude: 19.07, longitude: 72.87 });
    expect(adminIn.statusCode, adminIn.body).toBe(201);
    const all = (await admin.get('/api/attendance/?limit=50')).json();
    expect(all.totalCount).toBeGreaterThanOrEqual(5);
    const bySite = (await admin.get(`/api/attendance/?assetId=${other.id}`)).json();
    expect(bySite.contents.map((r: AttendanceRecord) => r.siteName)).toEqual(['Far Depot']);
    const byUser = (await admin.get(`/api/attendance/?userId=${fieldId}&limit=50`)).json();
    expect(byUser.contents.every((r: AttendanceRecord) => r.userId === fieldId)).toBe(true);
    const own = (await field.get('/api/attendance/?limit=50')).json();
    expect(own.contents.every((r: AttendanceRecord) => r.userId === fieldId)).toBe(true);
    expect(own.totalCount).toBe(byUser.totalCount);
    expect((await field.get(`/api/attendance/${adminIn.json().id}/`)).statusCode).toBe(404);
    const open = (await admin.get('/api/attendance/?state=open')).json();
    expect(open.contents.map((r: AttendanceRecord) => r.id)).toEqual([adminIn.json().id]);
    const future = new Date(clock.now().getTime() + 86_400_000).toISOString();
    expect((await admin.get(`/api/attendance/?from=${encodeURIComponent(future)}`)).json().totalCount).toBe(0);
    const reversed = await admin.get(
      `/api/attendance/?from=${encodeURIComponent(future)}&to=${encodeURIComponent(clock.now().toISOString())}`,
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().detail).toBe('Please choose an end date greater than the start date');
    expect((await admin.get('/api/attendance/?state=lost')).statusCode).toBe(400);
  });

  it('reports a check-in open beyond a day as a missing check-out', async () => {
    expect((await admin.get('/api/attendance/?state=missing')).json().totalCount).toBe(0);
    await step(25 * 3600_000);
    const missing = (await admin.get('/api/attendance/?state=missing')).json();
    expect(missing.totalCount).toBe(1);
    expect(missing.contents[0]).toMatchObject({ siteName: 'Far Depot', missingCheckOut: true });
    expect((await checkOut(admin, { latitude: 19.07, longitude: 72.87 })).statusCode).toBe(200);
  });

  it('sums hours per user per day', async () => {
    const res = await admin.get(`/api/attendance/hours/?userId=${fieldId}&timeZone=Asia/Kolkata`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().contents as Array<{ userId: number; day: string; hours: number; records: number }>;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.userId === fieldId && /^\d{4}-\d{2}-\d{2}$/.test(r.day))).toBe(true);
    expect(rows.reduce((a, r) => a + r.records, 0)).toBeGreaterThanOrEqual(4);
    expect(rows.reduce((a, r) => a + r.hours, 0)).toBeGreaterThanOrEqual(2);
    expect((await admin.get('/api/attendance/hours/?timeZone=Mars/Base')).statusCode).toBe(400);
  });

  it('exports the records as CSV through the downloads job centre', async () => {
    const sources = (await admin.get('/api/exports/sources/')).json().contents.map((s: { kind: string }) => s.kind);
    expect(sources).toContain('attendance');
    const started = await admin.post('/api/exports/', { kind: 'attendance', name: 'Attendance', params: { userId: fieldId } });
    expect(started.statusCode, started.body).toBe(201);
    await t.app.jobs.drain();
    const jobs = (await admin.get('/api/batch-playback-download/')).json().jobs as DownloadJob[];
    const job = jobs.find((j) => j.jobId === started.json().jobId);
    expect(job?.status).toBe('ready-to-download');
    const file = await admin.get(job?.tasks[0]?.path as string);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,User,Site,Check In,Check Out,Hours,Distance (m),Check-in Position,Check-out Position,Ticket,Missing Check-out,Snapshot',
    );
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.slice(1).every((l) => l.includes('Pune Depot'))).toBe(true);
    expect((await viewer.post('/api/exports/', { kind: 'attendance', name: 'x' })).statusCode).toBe(403);
    expect((await admin.post('/api/exports/', { kind: 'attendance', name: 'x', params: { userId: 'me' } })).statusCode).toBe(400);
  });

  it('keeps tenants apart', async () => {
    const foreign = await t.login('customeradmin', HOST_B);
    const mine = (await admin.get('/api/attendance/?limit=1')).json().contents[0] as AttendanceRecord;
    expect((await foreign.get(`/api/attendance/${mine.id}/`)).statusCode).toBe(404);
    expect((await foreign.get('/api/attendance/')).json().totalCount).toBe(0);
    expect((await checkIn(foreign, { assetId: site.id, ...SITE })).statusCode).toBe(404);
  });

  it('computes the great-circle distance', () => {
    expect(Math.round(haversineMeters(18.52, 73.85, north(18.52, 1000), 73.85))).toBe(1000);
    expect(Math.round(haversineMeters(0, 0, 0, 1) / 1000)).toBe(111);
  });
});

describe("the phone's position is not trusted blindly", () => {
  it('refuses a position whose reported accuracy is worse than the fence, at check-in and check-out', async () => {
    const vague = await checkIn(field, { assetId: site.id, ...SITE, accuracy: 1500 });
    expect(vague.statusCode).toBe(400);
    expect(vague.json()).toMatchObject({
      code: 'inaccurate_position',
      detail: ATTENDANCE_MESSAGES.inaccurate(1500, 200),
    });
    expect((await checkIn(field, { assetId: site.id, ...SITE, accuracy: 200 })).statusCode).toBe(201);
    const vagueOut = await checkOut(field, { ...SITE, accuracy: 201 });
    expect(vagueOut.json()).toMatchObject({ code: 'inaccurate_position' });
    expect((await checkOut(field, { ...SITE, accuracy: 20 })).statusCode).toBe(200);
  });

  it('fences check-out: 0,0 or a far position is refused, and a position is required', async () => {
    expect((await checkIn(field, { assetId: site.id, ...SITE })).statusCode).toBe(201);
    const nowhere = await checkOut(field, { latitude: 0, longitude: 0 });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().code).toBe('outside_geofence');
    expect(nowhere.json().detail).toMatch(/^You are \d+ m from Pune Depot; check-out is allowed within 200 m$/);
    const none = await checkOut(field, {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('allow location access');
    expect((await field.get('/api/attendance/current/')).json().record).not.toBeNull();
    const edge = await checkOut(field, { latitude: north(SITE.latitude, 150), longitude: SITE.longitude });
    expect(edge.statusCode, edge.body).toBe(200);
  });

  it('flags a check-in no one could travel to in time from the previous check-out, for admins to see', async () => {
    const mumbai = await makeSite(admin, { name: 'Mumbai Yard', latitude: 19.07, longitude: 72.87 });
    await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [site.id, bare.id, mumbai.id] });
    await step(10 * 60_000);
    const jump = await checkIn(field, { assetId: mumbai.id, latitude: 19.07, longitude: 72.87 });
    expect(jump.statusCode, jump.body).toBe(201);
    const flagged = jump.json() as AttendanceRecord;
    expect(flagged.impossibleTravel).toBe(true);
    expect(flagged.travelKmh).toBeGreaterThan(ATTENDANCE_IMPOSSIBLE_KMH);
    const listed = (await admin.get(`/api/attendance/?userId=${fieldId}&limit=1`)).json().contents[0] as AttendanceRecord;
    expect(listed).toMatchObject({ id: flagged.id, impossibleTravel: true });
    expect((await checkOut(field, { latitude: 19.07, longitude: 72.87 })).statusCode).toBe(200);
    // three hours back to Pune (about 120 km): a drive, not flagged
    await step(3 * 3600_000);
    const back = await checkIn(field, { assetId: site.id, ...SITE });
    expect(back.json()).toMatchObject({ impossibleTravel: false });
    expect(back.json().travelKmh).toBeLessThan(ATTENDANCE_IMPOSSIBLE_KMH);
    // a check-in at the same site as the last check-out implies no journey
    expect((await checkOut(field)).statusCode).toBe(200);
    expect((await checkIn(field, { assetId: site.id, ...SITE })).json()).toMatchObject({ travelKmh: null, impossibleTravel: false });
    expect((await checkOut(field)).statusCode).toBe(200);
  });

  it('requires the camera snapshot of the site where the tenant asks for it', async () => {
    expect((await admin.put('/iotapp/customer-settings/', { attendanceSnapshotRequired: true })).statusCode).toBe(200);
    try {
      const refused = await checkIn(field, { assetId: site.id, ...SITE });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'snapshot_required', detail: ATTENDANCE_MESSAGES.snapshotRequired('Pune Depot') });
      expect((await field.get('/api/attendance/current/')).json().record).toBeNull();
      camerasAt.add(site.id);
      const res = await checkIn(field, { assetId: site.id, ...SITE });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().snapshot).toMatchObject({ state: 'stored', cameraLabel: 'CAM-GATE' });
      expect((await field.get(`/api/attendance/${res.json().id}/snapshot/`)).rawPayload.equals(JPEG)).toBe(true);
      expect((await checkOut(field)).statusCode).toBe(200);
    } finally {
      camerasAt.delete(site.id);
      await admin.put('/iotapp/customer-settings/', { attendanceSnapshotRequired: false });
    }
  });
});

describe('a photo taken with the phone at check-in', () => {
  const uploadPhoto = (client: TestClient, files: Parameters<typeof multipart>[0], headers: Record<string, string> = {}) => {
    const body = multipart(files.map((f) => ({ field: 'photo', ...f })));
    return client.request({
      method: 'POST',
      url: '/api/attendance/photos/',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
  };
  const tenMinutesAgo = () => new Date(Date.now() - 10 * 60_000).toISOString();

  it('is uploaded first, claimed by the check-in and served beside the snapshot to those who may read the record', async () => {
    const key = `outbox-photo-${Date.now()}`;
    const first = await uploadPhoto(field, [{ name: 'gate.jpg', data: JPEG, type: 'image/jpeg' }], { 'idempotency-key': `${key}.file-0` });
    expect(first.statusCode, first.body).toBe(201);
    // the answer lost on the way: the repeat with the same key stores nothing new
    const again = await uploadPhoto(field, [{ name: 'gate.jpg', data: JPEG, type: 'image/jpeg' }], { 'idempotency-key': `${key}.file-0` });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const uid = first.json().contents[0].uid as string;
    const stored = await t.db.selectFrom('attendance_photos').select('uid').where('user_id', '=', fieldId).execute();
    expect(stored.filter((r) => r.uid === uid)).toHaveLength(1);

    const res = await checkIn(field, { assetId: site.id, ...SITE, attachments: [{ uid }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().photo).toBe(true);
    const photo = await admin.get(`/api/attendance/${res.json().id}/photo/`);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.rawPayload.equals(JPEG)).toBe(true);
    expect((await viewer.get(`/api/attendance/${res.json().id}/photo/`)).statusCode).toBe(403);
    expect((await checkOut(field)).statusCode).toBe(200);
    // one photo, one check-in
    const reused = await checkIn(field, { assetId: site.id, ...SITE, attachments: [{ uid }] });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'invalid_photo', detail: ATTENDANCE_MESSAGES.photoMissing });
    const without = await checkIn(field, { assetId: site.id, ...SITE });
    expect(without.json().photo).toBe(false);
    expect((await field.get(`/api/attendance/${without.json().id}/photo/`)).statusCode).toBe(404);
    expect((await checkOut(field)).statusCode).toBe(200);
  });

  it('refuses a file that is not a picture, one over the size limit, and another user’s upload', async () => {
    const text = await uploadPhoto(field, [{ name: 'note.jpg', data: Buffer.from('not a picture'), type: 'image/jpeg' }]);
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'unsupported_type', detail: ATTENDANCE_MESSAGES.photoType });
    const big = Buffer.concat([PNG, Buffer.alloc(ATTENDANCE_PHOTO_LIMITS.bytes, 1)]);
    const large = await uploadPhoto(field, [{ name: 'big.png', data: big, type: 'image/png' }]);
    expect(large.statusCode).toBe(413);
    expect(large.json().detail).toBe(ATTENDANCE_MESSAGES.photoTooLarge);
    const two = await uploadPhoto(field, [
      { name: 'a.png', data: PNG },
      { name: 'b.png', data: PNG },
    ]);
    expect(two.statusCode).toBe(400);
    const others = await uploadPhoto(admin, [{ name: 'a.png', data: PNG }]);
    expect(others.statusCode, others.body).toBe(201);
    const res = await checkIn(field, { assetId: site.id, ...SITE, attachments: [{ uid: others.json().contents[0].uid }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_photo');
  });

  it('satisfies a required check-in picture, also for a check-in sent later; without one a late check-in is refused', async () => {
    expect((await admin.put('/iotapp/customer-settings/', { attendanceSnapshotRequired: true })).statusCode).toBe(200);
    try {
      const late = { 'x-action-time': tenMinutesAgo() };
      const refused = await field.request({
        method: 'POST',
        url: '/api/attendance/check-in/',
        payload: { assetId: site.id, ...SITE },
        headers: late,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'photo_required', detail: ATTENDANCE_MESSAGES.photoRequiredLate('Pune Depot') });

      const upload = await uploadPhoto(field, [{ name: 'gate.png', data: PNG, type: 'image/png' }], late);
      expect(upload.statusCode, upload.body).toBe(201);
      const res = await field.request({
        method: 'POST',
        url: '/api/attendance/check-in/',
        payload: { assetId: site.id, ...SITE, attachments: upload.json().contents },
        headers: late,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ photo: true, snapshot: { state: 'none' } });
      expect((await checkOut(field)).statusCode).toBe(200);

      // sent at once, with no camera picture at the site: the phone photo is enough
      const now = await uploadPhoto(field, [{ name: 'gate.png', data: PNG, type: 'image/png' }]);
      const atOnce = await checkIn(field, { assetId: site.id, ...SITE, attachments: now.json().contents });
      expect(atOnce.statusCode, atOnce.body).toBe(201);
      expect(atOnce.json().photo).toBe(true);
      expect((await checkOut(field)).statusCode).toBe(200);
    } finally {
      await admin.put('/iotapp/customer-settings/', { attendanceSnapshotRequired: false });
    }
  });

  it('removes a photo no check-in claimed after a day, and keeps the claimed ones', async () => {
    const unclaimed = (await uploadPhoto(field, [{ name: 'gate.png', data: PNG }])).json().contents[0].uid as string;
    const claimedBefore = await t.db.selectFrom('attendance_photos').select('uid').where('record_id', 'is not', null).execute();
    expect(claimedBefore.length).toBeGreaterThan(0);
    await step(25 * 3600_000);
    await enqueueJob(t.db, { tenantId: null, queue: PHOTO_CLEANUP_QUEUE });
    await t.app.jobs.drain();
    const left = await t.db.selectFrom('attendance_photos').select(['uid', 'record_id']).execute();
    expect(left.map((r) => r.uid)).not.toContain(unclaimed);
    expect(left.filter((r) => r.record_id !== null)).toHaveLength(claimedBefore.length);
  });
});
