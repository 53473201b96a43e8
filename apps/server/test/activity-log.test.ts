import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

type Entry = { id: string; action: string; actorId: number | null; objectType: string | null; before: unknown; after: unknown };
const entries = async (query = '', client = admin) => {
  const res = await client.get(`/iotapp/user-activity-logs/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { contents: Entry[]; nextCursor: string | null };
};

describe('/iotapp/user-activity-logs/', () => {
  it('records sign-ins, failures and user changes with who, what and before/after, filtered by user, action and date', async () => {
    await t.anonymous().passwordLogin('vendor', 'wrong-password');
    const created = await admin.post('/iotapp/users/', {
      username: 'logged',
      email: 'logged@demo.example.com',
      firstname: 'Log',
      lastname: 'Ged',
      mobile: null,
      userRole: ['vendor'],
      groupId: null,
      assetIds: [],
      notificationConfig: { popup: true },
      password: 'Blue-Harbour-71',
    });
    const id = created.json().id;
    await admin.put(`/iotapp/users/${id}/`, {
      username: 'logged',
      email: 'logged@demo.example.com',
      firstname: 'Log',
      lastname: 'Ged',
      mobile: null,
      userRole: ['storemanager'],
      groupId: null,
      assetIds: [],
      notificationConfig: { popup: true },
    });
    const me = admin.user?.id as number;
    const update = (await entries(`?userId=${me}&action=user.update`)).contents[0] as Entry;
    expect(update).toMatchObject({ action: 'user.update', actorId: me, objectType: 'user' });
    expect(update.before).toMatchObject({ roles: ['vendor'] });
    expect(update.after).toMatchObject({ roles: ['storemanager'] });
    const failures = (await entries('?action=login.password')).contents.map((e) => e.action);
    expect(failures.length).toBeGreaterThan(0);
    const from = new Date(Date.now() - 60_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const windowed = await entries(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=2`);
    expect(windowed.contents).toHaveLength(2);
    expect(windowed.nextCursor).not.toBeNull();
    const next = await entries(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=2&cursor=${windowed.nextCursor}`);
    expect(next.contents[0]?.id).not.toBe(windowed.contents[1]?.id);
    expect((await admin.get(`/iotapp/user-activity-logs/?from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`)).statusCode).toBe(
      400,
    );
  });

  it('records site assignments and device permission changes of groups', async () => {
    const fe = (await admin.get('/iotapp/users/?role=fieldexecutive')).json().contents[0].id;
    const site = await admin.post('/iotapp/assets/', { name: `Logged site ${Date.now()}`, address: ['India', 'Goa'], metadata: {} });
    expect((await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [site.json().id] })).statusCode).toBe(200);
    const assigned = (await entries('?action=user.sites-assign')).contents[0] as Entry;
    expect(assigned).toMatchObject({ objectType: 'user', after: { assetIds: [site.json().id], assigned: 1 } });
    const group = (await admin.get('/iotapp/groups/')).json().contents.find((g: { name: string }) => g.name === 'Viewers');
    expect((await admin.put(`/iotapp/groups/${group.id}/device-permissions/`, { codenames: ['view_device'] })).statusCode).toBe(200);
    const changed = (await entries('?action=group.update&objectType=group')).contents[0] as Entry;
    expect(changed.after).toMatchObject({ codenames: expect.arrayContaining(['view_device']) });
  });

  it('is append-only and partitioned by month', async () => {
    await expect(sql`update user_activity_logs set action = 'x'`.execute(t.db)).rejects.toThrow(/append-only/);
    const parts = await sql<{ n: number }>`
      select count(*)::int as n from pg_inherits i join pg_class p on p.oid = i.inhparent where p.relname = 'user_activity_logs'`.execute(
      t.db,
    );
    expect(parts.rows[0]?.n).toBeGreaterThanOrEqual(4);
  });

  it('is written in the same transaction as the change: a failed change leaves no entry', async () => {
    const before = (await entries('?action=user.create')).contents.length;
    const clash = await admin.post('/iotapp/users/', {
      username: 'vendor',
      email: 'another@demo.example.com',
      firstname: 'A',
      lastname: 'B',
      mobile: null,
      userRole: ['vendor'],
      groupId: null,
      assetIds: [],
      notificationConfig: { popup: true },
      password: 'Blue-Harbour-71',
    });
    expect(clash.statusCode).toBe(409);
    expect((await entries('?action=user.create')).contents.length).toBe(before);
  });

  it('exports the filtered log as CSV through the downloads job centre', async () => {
    const res = await admin.post('/api/exports/', { kind: 'user-activity-logs', params: { action: 'user.update' } });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.jobs.drain();
    const jobs = (await admin.get('/api/batch-playback-download/')).json();
    const job = jobs.jobs.find((j: { jobId: number }) => j.jobId === res.json().jobId);
    const file = await admin.get(job.tasks[0].path);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time,Done at the site,User,User ID,Action,Outcome,Object,Object ID,IP Address,Before,After');
    expect(lines.slice(1).every((l: string) => l.includes('user.update'))).toBe(true);
  });

  it('is closed to users without view_user and to other tenants', async () => {
    const customer = await t.login('customer');
    expect((await customer.get('/iotapp/user-activity-logs/')).statusCode).toBe(403);
    expect((await customer.post('/api/exports/', { kind: 'user-activity-logs', params: {} })).statusCode).toBe(403);
    const b = await t.login('customeradmin', HOST_B);
    const theirs = await entries('?action=user.update', b);
    expect(theirs.contents).toHaveLength(0);
  });
});
