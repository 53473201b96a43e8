import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoCameraTablesSeeder } from '../src/demo/video.ts';
import { createTestCamera } from '../src/modules/video/fixtures.ts';
import { entriesOf } from './activity-log-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { userId } from './support/sites-factory.ts';

/** Issue 18: packing tables watched by cameras, and the incident that finds its camera from its table. */

let t: TestApp;
let admin: TestClient;
let packing: number;
let dispatch: number;

const lookUp = (client: TestClient, table: string) => client.get(`/api/incident-reports/table-camera/?table=${encodeURIComponent(table)}`);
const siteOf = async (camId: number) => (await admin.get(`/api/cameras/${camId}/`)).json().assetId as number;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, camId: packing } = await createTestCamera(t, 'Packing Cam'));
  ({ camId: dispatch } = await createTestCamera(t, 'Dispatch Cam'));
});
afterAll(() => t?.close());

describe('tables watched by a camera', () => {
  it('are saved with the camera config, kept when a config leaves them out, and shown with the camera', async () => {
    const saved = await admin.put(`/api/cameras/${packing}/configs/`, {
      simulated: true,
      recordingEnabled: false,
      tables: [' T-2 ', 'T-1'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().tables).toEqual(['T-1', 'T-2']);
    // a client that knows nothing of tables (the add-camera dialog) keeps them
    expect((await admin.put(`/api/cameras/${packing}/configs/`, { simulated: true, recordingEnabled: false })).json().tables).toEqual([
      'T-1',
      'T-2',
    ]);
    expect((await admin.get(`/api/cameras/${packing}/`)).json().tables).toEqual(['T-1', 'T-2']);
    const listed = (await admin.get(`/api/cameras/?ids=${packing},${dispatch}`)).json().contents;
    expect(listed.map((c: { id: number; tables: string[] }) => [c.id, c.tables])).toEqual(
      expect.arrayContaining([
        [packing, ['T-1', 'T-2']],
        [dispatch, []],
      ]),
    );
  });

  it('refuses a table another camera watches, a table listed twice and tables out of bounds, with clear messages', async () => {
    const config = (tables: unknown) => ({ simulated: true, recordingEnabled: false, tables });
    const taken = await admin.put(`/api/cameras/${dispatch}/configs/`, config(['T-3', 'T-2']));
    expect(taken.statusCode).toBe(400);
    expect(taken.json().detail).toBe('Table T-2 is already watched by camera Packing Cam');
    expect((await admin.get(`/api/cameras/${dispatch}/`)).json().tables).toEqual([]);

    const twice = await admin.put(`/api/cameras/${dispatch}/configs/`, config(['T-3', ' T-3']));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().detail).toContain('Table T-3 is listed twice');
    const long = await admin.put(`/api/cameras/${dispatch}/configs/`, config(['x'.repeat(61)]));
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toContain('Please use maximum 60 characters');
    const empty = await admin.put(`/api/cameras/${dispatch}/configs/`, config(['  ']));
    expect(empty.json().detail).toContain('Table is required');
    const many = await admin.put(`/api/cameras/${dispatch}/configs/`, config(Array.from({ length: 51 }, (_, i) => `D-${i}`)));
    expect(many.json().detail).toContain('A camera watches at most 50 tables');

    // moving a table: taken off one camera, then given to the other
    await admin.put(`/api/cameras/${packing}/configs/`, config(['T-1']));
    expect((await admin.put(`/api/cameras/${dispatch}/configs/`, config(['T-2', 'T-3']))).json().tables).toEqual(['T-2', 'T-3']);
    const log = (await entriesOf(admin, 'camera-config', packing)).at(-1);
    expect(log).toMatchObject({ before: { tables: ['T-1', 'T-2'] }, after: { tables: ['T-1'] } });
  });

  it('are looked up by table, among the cameras the caller may see only', async () => {
    const found = await lookUp(admin, ' T-1 ');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      id: packing,
      name: 'Packing Cam',
      site: { id: await siteOf(packing), name: expect.stringContaining('Site Packing Cam') },
    });

    const none = await lookUp(admin, 'T-9');
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe('No camera watches table T-9');
    expect((await admin.get('/api/incident-reports/table-camera/')).statusCode).toBe(400);
    expect((await lookUp(admin, 'x'.repeat(61))).statusCode).toBe(400);

    // another tenant: the same answer as a table nobody watches
    const outsider = await t.login('customeradmin', HOST_B);
    const elsewhere = await lookUp(outsider, 'T-1');
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().detail).toBe('No camera watches table T-1');
  });

  it('never names a camera of a site the caller may not see, not even when refusing its table', async () => {
    // an infrastructure admin of the dispatch camera's site only
    const id = await userId(admin, 'infraadmin');
    await t.db.deleteFrom('user_assets').where('user_id', '=', id).execute();
    await t.db
      .insertInto('user_assets')
      .values({ tenant_id: t.tenantA, user_id: id, asset_id: await siteOf(dispatch) })
      .execute();
    const infra = await t.login('infraadmin');
    expect((await lookUp(infra, 'T-2')).json()).toMatchObject({ id: dispatch, name: 'Dispatch Cam' });
    const hidden = await lookUp(infra, 'T-1');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('No camera watches table T-1');
    const refused = await infra.put(`/api/cameras/${dispatch}/configs/`, { simulated: true, recordingEnabled: false, tables: ['T-1'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('Table T-1 is already watched by another camera');
    expect(refused.body).not.toContain('Packing Cam');
    const create = await infra.post('/api/incident-reports/', { title: 'Torn label', awb: 'AWB-1', tableNumber: 'T-1' });
    expect(create.statusCode).toBe(404);
    expect(create.json().detail).toBe('No camera watches table T-1');
  });
});

describe('an incident reported from its table', () => {
  it('gets the camera that watches the table and, without a time, the time it was reported', async () => {
    const before = Date.now();
    const created = await admin.post('/api/incident-reports/', { title: 'Parcel opened', awb: 'AWB-55', tableNumber: 'T-1' });
    expect(created.statusCode, created.body).toBe(200);
    const incident = created.json();
    expect(incident).toMatchObject({ cameraId: packing, cameraLabel: 'Packing Cam', tableNumber: 'T-1', clipStatus: 'pending' });
    expect(Date.parse(incident.eventAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(incident.eventAt)).toBeLessThanOrEqual(Date.now());
    // its clip is cut once its window has been recorded, not before
    const job = await t.db
      .selectFrom('jobs')
      .select('run_at')
      .where('queue', '=', 'video.incident-clip')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.parse(incident.eventAt) + incident.durationSec * 1000);

    // a camera given by the caller wins over the table's
    const chosen = await admin.post('/api/incident-reports/', {
      title: 'Other angle',
      awb: 'AWB-56',
      tableNumber: 'T-1',
      cameraId: dispatch,
      eventAt: new Date(before - 600_000).toISOString(),
    });
    expect(chosen.json()).toMatchObject({ cameraId: dispatch, eventAt: new Date(before - 600_000).toISOString() });

    const unmapped = await admin.post('/api/incident-reports/', { title: 'Lost', awb: 'AWB-57', tableNumber: 'T-9' });
    expect(unmapped.statusCode).toBe(404);
    expect(unmapped.json().detail).toBe('No camera watches table T-9');
    const outsider = await t.login('customeradmin', HOST_B);
    expect((await outsider.post('/api/incident-reports/', { title: 'x', awb: 'A', tableNumber: 'T-1' })).statusCode).toBe(404);
  });

  it('no longer finds a camera whose video config was removed', async () => {
    const { camId } = await createTestCamera(t, 'Removed Cam');
    await admin.put(`/api/cameras/${camId}/configs/`, { simulated: true, recordingEnabled: false, tables: ['R-1'] });
    expect((await lookUp(admin, 'R-1')).statusCode).toBe(200);
    expect((await admin.delete(`/api/cameras/${camId}/configs/`)).statusCode).toBe(200);
    expect((await lookUp(admin, 'R-1')).statusCode).toBe(404);
  });

  it('the demo maps packing tables to its recording cameras', async () => {
    for (const camId of [packing, dispatch])
      await admin.put(`/api/cameras/${camId}/configs/`, { simulated: true, recordingEnabled: false, tables: [] });
    const { camId } = await createTestCamera(t, 'Loading Bay');
    await admin.put(`/api/cameras/${camId}/configs/`, { simulated: true, recordingEnabled: true });
    await videoCameraTablesSeeder.run({
      db: t.db,
      tenantId: t.tenantA,
      slug: 'demo',
      random: { next: () => 0.5 } as never,
      log: { info() {}, warn() {} },
    });
    expect((await admin.get(`/api/cameras/${camId}/`)).json().tables).toEqual(['T-1', 'T-2', 'T-3']);
  });
});
