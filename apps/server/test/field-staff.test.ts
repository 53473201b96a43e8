import { FIELD_STAFF_MESSAGES, USER_ADMIN_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let seq = 0;
const BASE = '/iotapp/field-staff';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

function person(extra: Record<string, unknown> = {}, profile: Record<string, unknown> = {}) {
  const n = ++seq;
  return {
    username: `fe${n}`,
    email: `fe${n}@demo.example.com`,
    firstname: 'Field',
    lastname: `Person ${n}`,
    mobile: `91234${String(50000 + n).padStart(5, '0')}`,
    groupId: null,
    assetIds: [],
    notificationConfig: { popup: true },
    password: 'Blue-Harbour-71',
    fieldProfile: {
      employeeCode: `EMP-${n}`,
      designation: 'Technician',
      area: 'North',
      territory: 'N1',
      joinedOn: '2024-03-01',
      notes: null,
      ...profile,
    },
    ...extra,
  };
}

async function create(role: string, body = person()) {
  const res = await admin.post(`${BASE}/`, { ...body, role });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; username: string; fieldProfile: Record<string, unknown>; assetIds: number[]; openTickets: number };
}

const activity = (action: string, id: number) =>
  t.db
    .selectFrom('user_activity_logs')
    .select(['action', 'before', 'after'])
    .where('action', '=', action)
    .where('object_id', '=', String(id))
    .execute();

describe('field staff directories', () => {
  it('creates a field executive with a profile and sites through user administration; they sign in', async () => {
    const site = await makeSite(admin);
    const body = person({ assetIds: [site.id] });
    const created = await create('fieldexecutive', body);
    expect(created).toMatchObject({
      username: body.username,
      userRole: ['fieldexecutive'],
      assetIds: [site.id],
      siteCount: 1,
      openTickets: 0,
    });
    expect(created.fieldProfile).toMatchObject({ employeeCode: body.fieldProfile.employeeCode, area: 'North', joinedOn: '2024-03-01' });
    const login = await t.anonymous().passwordLogin(body.username, body.password);
    expect(login.statusCode, login.body).toBe(200);
    expect(await activity('user.create', created.id)).toHaveLength(1);
    expect(await activity('field-profile.create', created.id)).toHaveLength(1);
  });

  it('sends the set-password e-mail when no password is given', async () => {
    const body = person({ password: undefined });
    await create('storemanager', body);
    const mail = await t.db.selectFrom('mail_outbox').select('body').where('to', '=', body.email).executeTakeFirst();
    expect(mail?.body).toContain('/account/set-password?token=');
  });

  it('keeps the user rules: "User already exists" and a unique employee code per tenant', async () => {
    const first = person();
    await create('fieldexecutive', first);
    const clash = await admin.post(`${BASE}/`, { ...person({ username: first.username }), role: 'fieldexecutive' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toBe(USER_ADMIN_MESSAGES.exists);
    const code = await admin.post(`${BASE}/`, {
      ...person({}, { employeeCode: first.fieldProfile.employeeCode.toLowerCase() }),
      role: 'infraadmin',
    });
    expect(code.statusCode).toBe(409);
    expect(code.json().detail).toBe(FIELD_STAFF_MESSAGES.codeExists);
    // another tenant may use the same code
    const acme = await t.login('customeradmin', HOST_B);
    const other = await acme.post(`${BASE}/`, { ...person({}, { employeeCode: first.fieldProfile.employeeCode }), role: 'fieldexecutive' });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('validates the body and the directory', async () => {
    for (const bad of [
      person({}, { employeeCode: 'x'.repeat(41) }),
      person({}, { employeeCode: 'has space' }),
      person({}, { joinedOn: '2024-13-40' }),
      person({}, { notes: 'n'.repeat(1001) }),
      person({ mobile: '123' }),
    ]) {
      const res = await admin.post(`${BASE}/`, { ...bad, role: 'fieldexecutive' });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // the role comes from the directory: a role in the body is ignored
    const sneaky = await admin.post(`${BASE}/`, { ...person({ userRole: ['sysadmin'] }), role: 'fieldexecutive' });
    expect(sneaky.json().userRole).toEqual(['fieldexecutive']);
    expect((await admin.get(`${BASE}/?role=vendor`)).statusCode).toBe(400);
    expect((await admin.post(`${BASE}/`, { ...person(), role: 'customeradmin' })).statusCode).toBe(400);
    expect((await admin.get(`${BASE}/?role=fieldexecutive&limit=1000`)).statusCode).toBe(400);
  });

  it('lists only the role, with search, area filter, pagination and the areas', async () => {
    await create('fieldexecutive', person({ lastname: 'Searchable' }, { area: 'Harbour', employeeCode: 'HB-900' }));
    await create('fieldexecutive', person({}, { area: 'harbour' }));
    const all = (await admin.get(`${BASE}/?role=fieldexecutive&limit=100`)).json();
    expect(all.contents.every((p: { userRole: string[] }) => p.userRole.includes('fieldexecutive'))).toBe(true);
    expect(all.contents.some((p: { username: string }) => p.username === 'fieldexecutive')).toBe(true);
    expect(all.contents.some((p: { username: string }) => p.username === 'storemanager')).toBe(false);
    const byCode = (await admin.get(`${BASE}/?role=fieldexecutive&searchText=HB-900`)).json();
    expect(byCode.totalCount).toBe(1);
    const byArea = (await admin.get(`${BASE}/?role=fieldexecutive&area=HARBOUR`)).json();
    expect(byArea.totalCount).toBe(2);
    const page = (await admin.get(`${BASE}/?role=fieldexecutive&limit=1&page=2`)).json();
    expect(page.contents).toHaveLength(1);
    expect(page.totalCount).toBe(all.totalCount);
    const areas = (await admin.get(`${BASE}/areas/?role=fieldexecutive`)).json().contents as string[];
    expect(areas.filter((a) => a.toLowerCase() === 'harbour')).toHaveLength(1);
  });

  it('edits user, profile and sites; the profile change is in the activity log', async () => {
    const [s1, s2] = [await makeSite(admin), await makeSite(admin)];
    const body = person({ assetIds: [s1.id] });
    const created = await create('infraadmin', body);
    const { password: _p, ...input } = body;
    const res = await admin.put(`${BASE}/${created.id}/?role=infraadmin`, {
      ...input,
      firstname: 'Renamed',
      assetIds: [s2.id],
      fieldProfile: { ...body.fieldProfile, designation: 'Lead technician', area: 'South' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      firstname: 'Renamed',
      assetIds: [s2.id],
      fieldProfile: { designation: 'Lead technician', area: 'South' },
    });
    const [entry] = await activity('field-profile.update', created.id);
    expect(entry?.before).toEqual({ designation: 'Technician', area: 'North' });
    expect(entry?.after).toEqual({ designation: 'Lead technician', area: 'South' });
    expect(await activity('user.update', created.id)).toHaveLength(1);
  });

  it('answers 404 for a user outside the directory, and deletes through the user delete', async () => {
    const created = await create('storemanager');
    expect((await admin.get(`${BASE}/${created.id}/?role=fieldexecutive`)).statusCode).toBe(404);
    expect((await admin.delete(`${BASE}/${created.id}/?role=fieldexecutive`)).statusCode).toBe(404);
    expect((await admin.get(`${BASE}/${created.id}/?role=storemanager`)).statusCode).toBe(200);
    expect((await admin.delete(`${BASE}/${created.id}/?role=storemanager`)).statusCode).toBe(204);
    expect((await admin.get(`${BASE}/${created.id}/?role=storemanager`)).statusCode).toBe(404);
    expect(await activity('user.delete', created.id)).toHaveLength(1);
    const profile = await t.db.selectFrom('field_profiles').select('user_id').where('user_id', '=', created.id).executeTakeFirst();
    expect(profile).toBeUndefined();
  });

  it('needs the user permissions and keeps the escalation rules', async () => {
    const operator = await t.login('citylead');
    expect((await operator.get(`${BASE}/?role=fieldexecutive`)).statusCode).toBe(403);
    expect((await operator.post(`${BASE}/`, { ...person(), role: 'fieldexecutive' })).statusCode).toBe(403);
    // a group with add_user only may not grant the Administrators group
    const group = await admin.post('/iotapp/permission-groups/', { name: `Adders ${Date.now()}`, codenames: ['view_user', 'add_user'] });
    expect(group.statusCode, group.body).toBe(201);
    const adderId = await userId(t, t.tenantA, 'areahead');
    expect((await admin.post(`/iotapp/permission-groups/${group.json().id}/users/`, { userIds: [adderId] })).statusCode).toBe(200);
    const adder = await t.login('areahead');
    const groups = (await admin.get('/iotapp/groups/')).json().contents as { id: number; name: string }[];
    const administrators = groups.find((g) => g.name === 'Administrators')?.id;
    const above = await adder.post(`${BASE}/`, { ...person({ groupId: administrators }), role: 'fieldexecutive' });
    expect(above.statusCode).toBe(403);
    expect(above.json().detail).toBe(USER_ADMIN_MESSAGES.aboveOwnRights);
    expect((await adder.post(`${BASE}/`, { ...person(), role: 'fieldexecutive' })).statusCode).toBe(201);
    const target = await userId(t, t.tenantA, 'fieldexecutive');
    expect((await adder.delete(`${BASE}/${target}/?role=fieldexecutive`)).statusCode).toBe(403);
  });

  it("keeps tenants apart: another tenant's person is not found", async () => {
    const created = await create('fieldexecutive');
    const acme = await t.login('customeradmin', HOST_B);
    expect((await acme.get(`${BASE}/${created.id}/?role=fieldexecutive`)).statusCode).toBe(404);
    expect((await acme.get(`${BASE}/${created.id}/tickets/?role=fieldexecutive&scope=assignable`)).statusCode).toBe(404);
    const list = (await acme.get(`${BASE}/?role=fieldexecutive&limit=100`)).json();
    expect(list.contents.some((p: { id: number }) => p.id === created.id)).toBe(false);
  });

  it("lists open tickets at the person's sites and assigns one through the ticket update", async () => {
    const [site, elsewhere] = [await makeSite(admin), await makeSite(admin)];
    const created = await create('fieldexecutive', person({ assetIds: [site.id] }));
    const here = await raise(admin, { locationId: site.id, title: 'Door sensor offline' });
    await raise(admin, { locationId: elsewhere.id, title: 'Elsewhere' });
    const assignable = (await admin.get(`${BASE}/${created.id}/tickets/?role=fieldexecutive&scope=assignable`)).json();
    expect(assignable.contents.map((x: { id: number }) => x.id)).toEqual([here.id]);
    expect(assignable.contents[0]).toMatchObject({ locationId: site.id, locationName: site.name });
    const res = await put(admin, here.id, { assignedTo: created.id });
    expect(res.statusCode, res.body).toBe(200);
    const assigned = (await admin.get(`${BASE}/${created.id}/tickets/?role=fieldexecutive`)).json();
    expect(assigned.contents.map((x: { id: number }) => x.id)).toEqual([here.id]);
    expect((await admin.get(`${BASE}/${created.id}/tickets/?role=fieldexecutive&scope=assignable`)).json().totalCount).toBe(0);
    expect((await admin.get(`${BASE}/${created.id}/?role=fieldexecutive`)).json().openTickets).toBe(1);
    await put(admin, here.id, { status: 'CLOSED' });
    expect((await admin.get(`${BASE}/${created.id}/?role=fieldexecutive`)).json().openTickets).toBe(0);
  });
});
