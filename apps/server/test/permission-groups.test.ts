import { GROUP_MESSAGES, PERMISSION_CATALOGUE } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { userId } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

const groups = async (client = admin) =>
  (await client.get('/iotapp/permission-groups/')).json().contents as {
    id: number;
    name: string;
    userCount: number;
    permissions: { codename: string }[];
  }[];
const groupNamed = async (name: string) =>
  (await groups()).find((g) => g.name === name) as { id: number; permissions: { codename: string }[] };

describe('the permission catalogue', () => {
  it('covers every permission the server checks', async () => {
    const res = await admin.get('/iotapp/permissions/');
    expect(res.statusCode).toBe(200);
    const codenames = res.json().contents.map((p: { codename: string }) => p.codename);
    for (const checked of [
      'view_asset',
      'add_device',
      'edit_alarm_config',
      'view_ticket',
      'add_ticket',
      'change_ticket',
      'view_camera',
      'view_user',
    ]) {
      expect(codenames).toContain(checked);
    }
    expect(codenames).toHaveLength(PERMISSION_CATALOGUE.length);
  });
});

describe('/iotapp/permission-groups/', () => {
  it('creates, renames, changes and deletes a group, each write in the activity log', async () => {
    const created = await admin.post('/iotapp/permission-groups/', { name: 'Auditors', codenames: ['view_asset', 'view_ticket'] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json().permissions.map((p: { codename: string }) => p.codename)).toEqual(['view_asset', 'view_ticket']);
    expect((await admin.post('/iotapp/permission-groups/', { name: 'auditors', codenames: [] })).statusCode).toBe(409);
    expect((await admin.post('/iotapp/permission-groups/', { name: 'Bad', codenames: ['fly'] })).statusCode).toBe(400);
    const updated = await admin.put(`/iotapp/permission-groups/${id}/`, { name: 'Site auditors', codenames: ['view_asset'] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Site auditors', permissions: [{ codename: 'view_asset', name: 'Can view asset' }] });
    expect((await admin.delete(`/iotapp/permission-groups/${id}/`)).statusCode).toBe(204);
    const actions = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'group.%').execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['group.create', 'group.update', 'group.delete']));
  });

  it('refuses to delete a group that still has users', async () => {
    const operators = await groupNamed('Operators');
    const res = await admin.delete(`/iotapp/permission-groups/${operators.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(GROUP_MESSAGES.inUse);
  });

  it('takes effect on the next request of the group members', async () => {
    const fe = await t.login('fieldexecutive');
    expect((await fe.get('/iotapp/assets/')).statusCode).toBe(200);
    const operators = await groupNamed('Operators');
    const without = operators.permissions.map((p) => p.codename).filter((c) => c !== 'view_asset');
    expect((await admin.put(`/iotapp/permission-groups/${operators.id}/`, { name: 'Operators', codenames: without })).statusCode).toBe(200);
    expect((await fe.get('/iotapp/assets/')).statusCode).toBe(403);
    const back = [...without, 'view_asset'];
    expect((await admin.put(`/iotapp/permission-groups/${operators.id}/`, { name: 'Operators', codenames: back })).statusCode).toBe(200);
    expect((await fe.get('/iotapp/assets/')).statusCode).toBe(200);
  });

  it('assigns a group to users, who get its rights at once', async () => {
    const viewers = await groupNamed('Viewers');
    const vendor = await userId(admin, 'vendor');
    const client = await t.login('vendor');
    const res = await admin.post(`/iotapp/permission-groups/${viewers.id}/users/`, { userIds: [vendor] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ assigned: 1 });
    const members = (await admin.get(`/iotapp/permission-groups/${viewers.id}/users/`)).json();
    expect(members.contents.map((m: { id: number }) => m.id)).toContain(vendor);
    const me = (await client.get('/api/auth/profile/')).json();
    expect(me.groups[0].name).toBe('Viewers');
  });

  it('never lets an admin grant or change rights above their own', async () => {
    // A local admin without the ticket permissions may not hand them out or touch a group that has them.
    const administrators = await groupNamed('Administrators');
    const limited = await admin.post('/iotapp/permission-groups/', {
      name: 'Limited admins',
      codenames: ['view_group', 'add_group', 'change_group', 'view_user', 'change_user', 'view_asset'],
    });
    const local = await userId(admin, 'localadmin');
    expect((await admin.post(`/iotapp/permission-groups/${limited.json().id}/users/`, { userIds: [local] })).statusCode).toBe(200);
    const client = await t.login('localadmin');
    const res = await client.post('/iotapp/permission-groups/', { name: 'Ticket people', codenames: ['view_ticket'] });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(GROUP_MESSAGES.aboveOwnRights);
    const edit = await client.put(`/iotapp/permission-groups/${administrators.id}/`, { name: 'Administrators', codenames: ['view_asset'] });
    expect(edit.statusCode).toBe(403);
    const listed = await groups(client);
    expect(listed.find((g) => g.id === administrators.id)).toMatchObject({ can: { change: false, delete: false } });
    // Nor move the customer admin (whose rights are above theirs) into a group.
    const ca = await userId(admin, 'customeradmin');
    expect((await client.post(`/iotapp/permission-groups/${limited.json().id}/users/`, { userIds: [ca] })).statusCode).toBe(403);
  });

  it('is closed to users without the group permissions and to other tenants', async () => {
    const customer = await t.login('customer');
    expect((await customer.get('/iotapp/permission-groups/')).statusCode).toBe(403);
    expect((await customer.post('/iotapp/permission-groups/', { name: 'x', codenames: [] })).statusCode).toBe(403);
    const b = await t.login('customeradmin', HOST_B);
    const operators = await groupNamed('Operators');
    expect((await b.put(`/iotapp/permission-groups/${operators.id}/`, { name: 'x', codenames: [] })).statusCode).toBe(404);
    expect((await b.get(`/iotapp/permission-groups/${operators.id}/users/`)).statusCode).toBe(404);
    const fe = await userId(admin, 'fieldexecutive');
    const own = (await groups(b))[0] as { id: number };
    expect((await b.post(`/iotapp/permission-groups/${own.id}/users/`, { userIds: [fe] })).statusCode).toBe(404);
  });
});

describe('rights nobody can lose', () => {
  const codenamesOf = (g: { permissions: { codename: string }[] }) => g.permissions.map((p) => p.codename);

  it('lists every right the administrators hold, and saves their group with its own rights', async () => {
    const catalogue = (await admin.get('/iotapp/permissions/')).json().contents.map((p: { codename: string }) => p.codename);
    const administrators = await groupNamed('Administrators');
    for (const codename of ['change_form_template', 'view_form_response', 'manage_alarm_rules']) expect(catalogue).toContain(codename);
    expect(codenamesOf(administrators).filter((c) => !catalogue.includes(c))).toEqual([]);
    const res = await admin.put(`/iotapp/permission-groups/${administrators.id}/`, {
      name: 'Administrators',
      codenames: codenamesOf(administrators),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(codenamesOf(res.json()).sort()).toEqual(codenamesOf(administrators).sort());
  });

  it('refuses to take a right from the last group with an administrator in it, or an admin’s own administration rights', async () => {
    const administrators = await groupNamed('Administrators');
    const all = codenamesOf(administrators);
    const withoutForms = await admin.put(`/iotapp/permission-groups/${administrators.id}/`, {
      name: 'Administrators',
      codenames: all.filter((c) => c !== 'change_form_template'),
    });
    expect(withoutForms.statusCode).toBe(409);
    expect(withoutForms.json().detail).toBe(GROUP_MESSAGES.lastHolder('Can build forms'));
    const withoutGroups = await admin.put(`/iotapp/permission-groups/${administrators.id}/`, {
      name: 'Administrators',
      codenames: all.filter((c) => c !== 'change_group'),
    });
    expect(withoutGroups.statusCode).toBe(409);
    expect(withoutGroups.json().detail).toBe(GROUP_MESSAGES.ownAdministration);
    // Nor by moving the administrators into a group without it.
    const viewers = await groupNamed('Viewers');
    const ca = await userId(admin, 'customeradmin');
    const moved = await admin.post(`/iotapp/permission-groups/${viewers.id}/users/`, { userIds: [ca] });
    expect(moved.statusCode).toBe(409);
    expect(codenamesOf(await groupNamed('Administrators')).sort()).toEqual(all.sort());
    // Once another administrators' group holds the right, it may go from this one.
    const forms = await admin.post('/iotapp/permission-groups/', { name: 'Form admins', codenames: all });
    expect(forms.statusCode, forms.body).toBe(201);
    expect((await admin.post(`/iotapp/permission-groups/${forms.json().id}/users/`, { userIds: [ca] })).statusCode).toBe(200);
    const now = await admin.put(`/iotapp/permission-groups/${administrators.id}/`, {
      name: 'Administrators',
      codenames: all.filter((c) => c !== 'change_form_template'),
    });
    expect(now.statusCode, now.body).toBe(200);
    // put things back as they were for the other tests
    expect(
      (await admin.put(`/iotapp/permission-groups/${administrators.id}/`, { name: 'Administrators', codenames: all })).statusCode,
    ).toBe(200);
    expect((await admin.post(`/iotapp/permission-groups/${administrators.id}/users/`, { userIds: [ca] })).statusCode).toBe(200);
    expect((await admin.delete(`/iotapp/permission-groups/${forms.json().id}/`)).statusCode).toBe(204);
  });

  it('lets the system administrator restore the administrators’ group, with an activity entry', async () => {
    const administrators = await groupNamed('Administrators');
    const all = codenamesOf(administrators);
    // rights lost before the refusal existed, as a data folder may hold them
    await t.db
      .updateTable('groups')
      .set({ permissions: JSON.stringify(administrators.permissions.filter((p) => !p.codename.startsWith('view_'))) })
      .where('id', '=', administrators.id)
      .execute();
    const sysadmin = await t.login('sysadmin');
    expect((await sysadmin.get('/iotapp/permission-groups/')).statusCode).toBe(403);
    expect((await admin.post('/api/admin/administrator-rights/restore/')).statusCode).toBe(403);
    const res = await sysadmin.post('/api/admin/administrator-rights/restore/');
    expect(res.statusCode, res.body).toBe(200);
    const restored = res.json().groups.find((g: { id: number }) => g.id === administrators.id);
    expect(restored.added).toContain('view_group');
    expect(codenamesOf(await groupNamed('Administrators')).sort()).toEqual(PERMISSION_CATALOGUE.map((p) => p.codename).sort());
    expect(all.every((c) => PERMISSION_CATALOGUE.some((p) => p.codename === c))).toBe(true);
    expect((await sysadmin.get('/iotapp/permission-groups/')).statusCode).toBe(200);
    const entry = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'group.restore-admin-rights').executeTakeFirst();
    expect(entry).toBeDefined();
    expect((await t.login('customeradmin', HOST_B).then((b) => b.post('/api/admin/administrator-rights/restore/'))).statusCode).toBe(403);
  });
});

describe('migration 1310', () => {
  it("gives the administrators' groups of existing data the rights the catalogue lacked, and drops delete_ticket", async () => {
    const { up } = await import('../src/db/migrations/1310_permission_catalogue.ts');
    const inserted = await t.db
      .insertInto('groups')
      .values({
        tenant_id: t.tenantA,
        name: 'Admins of an old data folder',
        permissions: JSON.stringify([
          { codename: 'change_user', name: 'Can change user' },
          { codename: 'delete_ticket', name: 'Can delete ticket' },
        ]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await up(t.db as never);
    await up(t.db as never); // twice: nothing doubles
    const row = await t.db.selectFrom('groups').select('permissions').where('id', '=', inserted.id).executeTakeFirstOrThrow();
    expect((row.permissions as { codename: string }[]).map((p) => p.codename).sort()).toEqual(
      ['change_form_template', 'change_user', 'manage_alarm_rules', 'view_form_response'].sort(),
    );
    await t.db.deleteFrom('groups').where('id', '=', inserted.id).execute();
  });
});
