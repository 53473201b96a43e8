import { CLUSTER_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let leads: { cityLeadId: number; areaHeadId: number; regionalHeadId: number };
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  leads = {
    cityLeadId: await userId(t, t.tenantA, 'citylead'),
    areaHeadId: await userId(t, t.tenantA, 'areahead'),
    regionalHeadId: await userId(t, t.tenantA, 'regionalhead'),
  };
});
afterAll(() => t?.close());

const body = (extra: Record<string, unknown> = {}) => ({
  name: `Cluster ${++seq}`,
  description: 'East side',
  ...leads,
  assetIds: [],
  ...extra,
});

async function create(client: TestClient, extra: Record<string, unknown> = {}) {
  const res = await client.post('/iotapp/clusters/', body(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; sites: { id: number; name: string }[]; siteCount: number };
}

const activity = (action: string, id: number) =>
  t.db
    .selectFrom('user_activity_logs')
    .select(['before', 'after'])
    .where('action', '=', action)
    .where('object_id', '=', String(id))
    .execute();

/** A signed-in user of the tenant holding these permissions (their own group) and only these sites. */
async function siteBound(username: string, codenames: string[], siteIds: number[]) {
  const group = await admin.post('/iotapp/permission-groups/', { name: `Group ${username} ${++seq}`, codenames });
  expect(group.statusCode, group.body).toBe(201);
  const id = await userId(t, t.tenantA, username);
  await admin.post(`/iotapp/permission-groups/${group.json().id}/users/`, { userIds: [id] });
  await t.db.deleteFrom('user_assets').where('user_id', '=', id).execute();
  if (siteIds.length)
    await t.db
      .insertInto('user_assets')
      .values(siteIds.map((asset_id) => ({ tenant_id: t.tenantA, user_id: id, asset_id })))
      .execute();
  return t.login(username);
}

describe('clusters', () => {
  it('creates, reads, updates and deletes a cluster with its leads and sites', async () => {
    const [s1, s2] = [await makeSite(admin), await makeSite(admin)];
    const announced: number[] = [];
    const stop = t.handles.events.subscribe((e) => {
      if (e.type === 'cluster.changed') announced.push(e.payload.clusterId);
    });
    const created = await create(admin, { assetIds: [s1.id, s2.id] });
    expect(created).toMatchObject({ siteCount: 2, cityLead: { id: leads.cityLeadId }, areaHead: { id: leads.areaHeadId } });
    expect(created.sites.map((s) => s.id).sort()).toEqual([s1.id, s2.id].sort());
    expect((await admin.get(`/iotapp/clusters/${created.id}/`)).json().name).toBe(created.name);
    const updated = await admin.put(
      `/iotapp/clusters/${created.id}/`,
      body({ name: 'Renamed cluster', assetIds: [s2.id], cityLeadId: null }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Renamed cluster', cityLead: null, siteCount: 1 });
    const [entry] = await activity('cluster.update', created.id);
    expect(entry?.after).toMatchObject({ name: 'Renamed cluster', cityLeadId: null, assetIds: [s2.id] });
    expect(await activity('cluster.create', created.id)).toHaveLength(1);
    expect(await t.handles.clusters.directory.siteIdsOf(t.tenantA, created.id)).toEqual([s2.id]);
    expect((await admin.delete(`/iotapp/clusters/${created.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/clusters/${created.id}/`)).statusCode).toBe(404);
    expect(await activity('cluster.delete', created.id)).toHaveLength(1);
    expect(await t.handles.clusters.directory.siteIdsOf(t.tenantA, created.id)).toEqual([]);
    stop();
    expect(announced).toEqual([created.id, created.id, created.id]);
  });

  it('keeps names unique per tenant, case-insensitively', async () => {
    const first = await create(admin);
    const again = await admin.post('/iotapp/clusters/', body({ name: first.name.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(CLUSTER_MESSAGES.exists);
    const acme = await t.login('customeradmin', HOST_B);
    const elsewhere = await acme.post('/iotapp/clusters/', { name: first.name, assetIds: [] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });

  it('requires each lead to be an active user of that role in the tenant', async () => {
    const wrongRole = await admin.post('/iotapp/clusters/', body({ cityLeadId: leads.areaHeadId }));
    expect(wrongRole.statusCode).toBe(400);
    expect(wrongRole.json().detail).toContain(CLUSTER_MESSAGES.cityLead);
    const otherTenant = await userId(t, t.tenantB, 'regionalhead');
    const foreign = await admin.post('/iotapp/clusters/', body({ regionalHeadId: otherTenant }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toContain(CLUSTER_MESSAGES.regionalHead);
    const kept = await create(admin);
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', leads.areaHeadId).execute();
    try {
      const inactive = await admin.post('/iotapp/clusters/', body());
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().detail).toContain(CLUSTER_MESSAGES.areaHead);
      // a lead left unchanged may stay after being deactivated
      const unchanged = await admin.put(`/iotapp/clusters/${kept.id}/`, body({ name: kept.name }));
      expect(unchanged.statusCode, unchanged.body).toBe(200);
    } finally {
      await t.db.updateTable('users').set({ is_active: true }).where('id', '=', leads.areaHeadId).execute();
    }
  });

  it('validates the body and the query', async () => {
    for (const bad of [
      body({ name: '' }),
      body({ name: 'n'.repeat(151) }),
      body({ description: 'd'.repeat(1001) }),
      body({ cityLeadId: 0 }),
      body({ assetIds: Array.from({ length: 501 }, (_, i) => i + 1) }),
      body({ unknown: true }),
    ]) {
      expect((await admin.post('/iotapp/clusters/', bad)).statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    expect((await admin.get('/iotapp/clusters/?limit=101')).statusCode).toBe(400);
    expect((await admin.get('/iotapp/clusters/?orderBy=secret')).statusCode).toBe(400);
    expect((await admin.get('/iotapp/clusters/abc/')).statusCode).toBe(400);
    const missingSite = await admin.post('/iotapp/clusters/', body({ assetIds: [2147483647] }));
    expect(missingSite.statusCode).toBe(400);
    expect(missingSite.json().detail).toContain(CLUSTER_MESSAGES.sites);
  });

  it('lists with search and pagination', async () => {
    await create(admin, { name: 'Zeta findable one' });
    await create(admin, { name: 'Zeta findable two' });
    const found = (await admin.get('/iotapp/clusters/?searchText=findable')).json();
    expect(found.totalCount).toBe(2);
    const page = (await admin.get('/iotapp/clusters/?searchText=findable&limit=1&page=2')).json();
    expect(page.contents.map((c: { name: string }) => c.name)).toEqual(['Zeta findable two']);
    expect((await t.handles.clusters.directory.list(t.tenantA)).some((c) => c.name === 'Zeta findable one')).toBe(true);
  });

  it('needs the cluster permissions', async () => {
    const operator = await t.login('storemanager');
    expect((await operator.get('/iotapp/clusters/')).statusCode).toBe(403);
    expect((await operator.post('/iotapp/clusters/', body())).statusCode).toBe(403);
    const cluster = await create(admin);
    const viewer = await siteBound('vendor', ['view_cluster'], []);
    expect((await viewer.put(`/iotapp/clusters/${cluster.id}/`, body())).statusCode).toBe(403);
    expect((await viewer.delete(`/iotapp/clusters/${cluster.id}/`)).statusCode).toBe(403);
  });

  it('shows a site-bound user only clusters with their sites, and only their sites inside', async () => {
    const [mine, theirs] = [await makeSite(admin), await makeSite(admin)];
    const shared = await create(admin, { assetIds: [mine.id, theirs.id] });
    const hidden = await create(admin, { assetIds: [theirs.id] });
    const user = await siteBound('infraadmin', ['view_cluster', 'change_cluster', 'add_cluster'], [mine.id]);
    const list = (await user.get('/iotapp/clusters/?limit=100')).json();
    const ids = list.contents.map((c: { id: number }) => c.id);
    expect(ids).toContain(shared.id);
    expect(ids).not.toContain(hidden.id);
    const seen = (await user.get(`/iotapp/clusters/${shared.id}/`)).json();
    expect(seen.sites.map((s: { id: number }) => s.id)).toEqual([mine.id]);
    expect(seen.siteCount).toBe(1);
    expect((await user.get(`/iotapp/clusters/${hidden.id}/`)).statusCode).toBe(404);
    expect((await user.put(`/iotapp/clusters/${hidden.id}/`, body())).statusCode).toBe(404);
    // naming a site they cannot see is refused without naming it
    const refused = await user.post('/iotapp/clusters/', body({ assetIds: [theirs.id] }));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain(theirs.name);
    // changing the visible part keeps the sites they cannot see
    const renamed = await user.put(`/iotapp/clusters/${shared.id}/`, body({ name: 'Shared renamed', assetIds: [] }));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await t.handles.clusters.directory.siteIdsOf(t.tenantA, shared.id)).toEqual([theirs.id]);
  });

  it("keeps tenants apart: another tenant's cluster and sites are not reached", async () => {
    const site = await makeSite(admin);
    const cluster = await create(admin, { assetIds: [site.id] });
    const acme = await t.login('customeradmin', HOST_B);
    expect((await acme.get(`/iotapp/clusters/${cluster.id}/`)).statusCode).toBe(404);
    expect((await acme.put(`/iotapp/clusters/${cluster.id}/`, { name: 'x', assetIds: [] })).statusCode).toBe(404);
    expect((await acme.delete(`/iotapp/clusters/${cluster.id}/`)).statusCode).toBe(404);
    const list = (await acme.get('/iotapp/clusters/?limit=100')).json();
    expect(list.contents.some((c: { id: number }) => c.id === cluster.id)).toBe(false);
    const stolen = await acme.post('/iotapp/clusters/', { name: `Stolen ${seq}`, assetIds: [site.id] });
    expect(stolen.statusCode).toBe(400);
    expect(await t.handles.clusters.directory.siteIdsOf(t.tenantB, cluster.id)).toEqual([]);
  });
});
