import { USER_ADMIN_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite, userId } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
let sequence = 0;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8ff3f0005fe02fea7d6a4b10000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

const groupId = async (name: string) => {
  const groups = (await admin.get('/iotapp/groups/')).json().contents as { id: number; name: string }[];
  return groups.find((g) => g.name === name)?.id as number;
};

function newUser(extra: Record<string, unknown> = {}) {
  const n = ++sequence;
  return {
    username: `person${n}`,
    email: `person${n}@demo.example.com`,
    firstname: 'Pat',
    lastname: `Person ${n}`,
    mobile: `98765${String(43000 + n).padStart(5, '0')}`,
    userRole: ['fieldexecutive'],
    groupId: null,
    assetIds: [],
    notificationConfig: { popup: true },
    password: 'Blue-Harbour-71',
    ...extra,
  };
}

async function signInAs(username: string, password = 'Blue-Harbour-71') {
  const client = t.anonymous();
  return { client, res: await client.passwordLogin(username, password) };
}

describe('creating users', () => {
  it('creates a user with a role, group and sites, who then signs in', async () => {
    const site = await makeSite(admin);
    const body = newUser({ groupId: await groupId('Operators'), assetIds: [site.id] });
    const res = await admin.post('/iotapp/users/', body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ username: body.username, userRole: ['fieldexecutive'], isActive: true, assetIds: [site.id] });
    expect(created.groups[0].name).toBe('Operators');
    const { res: login } = await signInAs(body.username);
    expect(login.statusCode, login.body).toBe(200);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', 'user.create').execute();
    expect(audit.some((a) => (a.detail as { object?: { id: number } }).object?.id === created.id)).toBe(true);
  });

  it('answers "User already exists" for a taken username, e-mail or mobile number', async () => {
    const body = newUser();
    expect((await admin.post('/iotapp/users/', body)).statusCode).toBe(201);
    for (const clash of [{ username: body.username.toUpperCase() }, { email: body.email }, { mobile: body.mobile }]) {
      const res = await admin.post('/iotapp/users/', { ...newUser(), ...clash });
      expect(res.statusCode).toBe(409);
      expect(res.json().detail ?? res.json().message).toBe(USER_ADMIN_MESSAGES.exists);
    }
  });

  it('checks the mobile number length and refuses weak passwords', async () => {
    const short = await admin.post('/iotapp/users/', newUser({ mobile: '12345' }));
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Mobile number must be 10 digits');
    expect((await admin.post('/iotapp/users/', newUser({ password: 'password' }))).statusCode).toBe(400);
  });

  it('sends a set-password e-mail when no password is given; the link works once', async () => {
    const body = newUser({ password: undefined });
    const res = await admin.post('/iotapp/users/', body);
    expect(res.statusCode, res.body).toBe(201);
    const mail = await t.db.selectFrom('mail_outbox').select(['to', 'body']).where('to', '=', body.email).executeTakeFirstOrThrow();
    const token = /token=([\w-]+)/.exec(mail.body)?.[1] as string;
    expect(token).toBeTruthy();
    expect((await signInAs(body.username)).res.statusCode).toBe(401);
    const anon = t.anonymous();
    const set = await anon.post('/iotapp/users/set-password/', { token, password: 'Blue-Harbour-71' });
    expect(set.statusCode, set.body).toBe(200);
    expect((await signInAs(body.username)).res.statusCode).toBe(200);
    expect((await anon.post('/iotapp/users/set-password/', { token, password: 'Green-Valley-72' })).statusCode).toBe(400);
    // A token of tenant A means nothing on tenant B.
    expect((await t.anonymous(HOST_B).post('/iotapp/users/set-password/', { token, password: 'Green-Valley-72' })).statusCode).toBe(400);
  });
});

describe('changing and removing users', () => {
  it('edits, deactivates (ending sessions at once), reactivates and deletes a user', async () => {
    const created = (await admin.post('/iotapp/users/', newUser())).json();
    const session = await signInAs(created.username);
    session.client.adopt(session.res.json());
    expect((await session.client.get('/api/auth/profile/')).statusCode).toBe(200);

    const edit = await admin.put(`/iotapp/users/${created.id}/`, { ...newUser(), username: created.username, userRole: ['storemanager'] });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().userRole).toEqual(['storemanager']);

    const off = await admin.put(`/iotapp/users/${created.id}/active/`, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().isActive).toBe(false);
    expect((await session.client.get('/api/auth/profile/')).statusCode).toBe(401);
    expect((await signInAs(created.username)).res.statusCode).toBe(401);
    const listed = (await admin.get('/iotapp/users/?status=deactivated&limit=100')).json();
    expect(listed.contents.map((u: { id: number }) => u.id)).toContain(created.id);

    expect((await admin.put(`/iotapp/users/${created.id}/active/`, { isActive: true })).json().isActive).toBe(true);
    expect((await admin.delete(`/iotapp/users/${created.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/users/${created.id}/`)).statusCode).toBe(404);
  });

  it('resets a password', async () => {
    const created = (await admin.post('/iotapp/users/', newUser())).json();
    const res = await admin.post(`/iotapp/users/${created.id}/reset-password/`, { password: 'Quiet-Meadow-93' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await signInAs(created.username, 'Quiet-Meadow-93')).res.statusCode).toBe(200);
    expect((await signInAs(created.username)).res.statusCode).toBe(401);
  });

  it('takes an avatar only when its content is an image', async () => {
    const created = (await admin.post('/iotapp/users/', newUser())).json();
    const ok = await admin.put(`/iotapp/users/${created.id}/avatar/`, { image: `data:image/png;base64,${PNG.toString('base64')}` });
    expect(ok.statusCode, ok.body).toBe(200);
    const url = ok.json().profile.avatar as string;
    expect(url).toMatch(new RegExp(`^/iotapp/users/${created.id}/avatar/`));
    const image = await admin.get(url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const fake = Buffer.from('<svg onload="alert(1)"></svg>').toString('base64');
    const bad = await admin.put(`/iotapp/users/${created.id}/avatar/`, { image: `data:image/png;base64,${fake}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(USER_ADMIN_MESSAGES.imageFailed);
  });

  it('shows the details page: sessions, sites and recent activity', async () => {
    const site = await makeSite(admin);
    const created = (await admin.post('/iotapp/users/', newUser({ assetIds: [site.id] }))).json();
    await signInAs(created.username);
    const res = await admin.get(`/iotapp/users/${created.id}/details/`);
    expect(res.statusCode, res.body).toBe(200);
    const details = res.json();
    expect(details.sessions).toHaveLength(1);
    expect(details.sites).toEqual([{ id: site.id, name: site.name }]);
    expect(details.activity.map((a: { action: string }) => a.action)).toContain('login.password');
    expect(details.user.lastLoginAt).not.toBeNull();
    expect(details.user.inactive).toBe(false);
    expect(details.can).toEqual({ change: true, delete: true });
  });
});

describe('privilege rules', () => {
  it('never lets an admin grant a role or group above their own rights', async () => {
    const local = await t.login('localadmin');
    // Local admins hold the Administrators group in the demo: they may add users but not customer admins.
    const res = await local.post('/iotapp/users/', newUser({ userRole: ['customeradmin'] }));
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(USER_ADMIN_MESSAGES.aboveOwnRights);
    const grantable = (await local.get('/iotapp/users/grantable/')).json();
    expect(grantable.roles).not.toContain('customeradmin');
    expect(grantable.roles).not.toContain('sysadmin');
    const ca = await userId(admin, 'customeradmin');
    expect((await local.put(`/iotapp/users/${ca}/active/`, { isActive: false })).statusCode).toBe(403);
    expect((await local.delete(`/iotapp/users/${ca}/`)).statusCode).toBe(403);
  });

  it('refuses a group whose permissions the admin does not hold', async () => {
    // An operator-level user given add_user cannot hand out the Administrators group.
    const operators = await groupId('Operators');
    await t.db
      .updateTable('groups')
      .set({
        permissions: JSON.stringify([
          { codename: 'view_device', name: 'Can view device' },
          { codename: 'add_user', name: 'Can add user' },
        ]),
      })
      .where('id', '=', operators)
      .execute();
    const lead = await t.login('citylead');
    const res = await lead.post('/iotapp/users/', newUser({ userRole: ['vendor'], groupId: await groupId('Administrators') }));
    expect(res.statusCode).toBe(403);
    expect(res.body, (await lead.get('/api/auth/profile/')).body).toContain(USER_ADMIN_MESSAGES.aboveOwnRights);
    const own = await lead.post('/iotapp/users/', newUser({ userRole: ['vendor'], groupId: operators }));
    expect(own.statusCode, own.body).toBe(201);
  });

  it('keeps the last administrator of a customer', async () => {
    const b = await t.login('customeradmin', HOST_B);
    const sys = await userId(b, 'sysadmin');
    const me = (await b.get(`/iotapp/users/${b.user?.id}/`)).json();
    const asInput = (roles: string[]) => ({
      username: me.username,
      email: me.email,
      firstname: me.firstname,
      lastname: me.lastname,
      mobile: me.mobile,
      userRole: roles,
      groupId: me.groups[0]?.id ?? null,
      assetIds: [],
      notificationConfig: me.notificationConfig,
    });
    expect((await b.delete(`/iotapp/users/${me.id}/`)).statusCode).toBe(400);
    expect((await b.put(`/iotapp/users/${me.id}/active/`, { isActive: false })).statusCode).toBe(400);
    // A customer admin cannot touch the sysadmin, whose rights are above their own.
    expect((await b.put(`/iotapp/users/${sys}/active/`, { isActive: false })).statusCode).toBe(403);
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', sys).execute();
    const last = await b.put(`/iotapp/users/${me.id}/`, asInput(['localadmin']));
    expect(last.statusCode).toBe(409);
    expect(last.body).toContain(USER_ADMIN_MESSAGES.lastAdmin);
    await t.db.updateTable('users').set({ is_active: true }).where('id', '=', sys).execute();
    const other = await b.put(`/iotapp/users/${me.id}/`, asInput(['localadmin']));
    expect(other.statusCode, other.body).toBe(200);
    await t.db
      .updateTable('users')
      .set({ roles: ['customeradmin'] })
      .where('id', '=', me.id)
      .execute();
  });

  it('lets users without view_user list names only (finding 7) and not read a user in full', async () => {
    const fe = await t.login('customer');
    const list = await fe.get('/iotapp/users/?limit=100');
    expect(list.statusCode).toBe(200);
    const first = list.json().contents[0];
    expect(Object.keys(first).sort()).toEqual(['firstname', 'id', 'lastname', 'username']);
    expect(list.body).not.toContain('@demo.example.com');
    const other = await userId(admin, 'vendor');
    expect((await fe.get(`/iotapp/users/${other}/`)).statusCode).toBe(403);
    expect((await fe.get(`/iotapp/users/${other}/details/`)).statusCode).toBe(403);
    expect((await fe.get(`/iotapp/users/${fe.user?.id}/`)).statusCode).toBe(200);
    expect((await fe.post('/iotapp/users/', newUser())).statusCode).toBe(403);
    expect((await fe.delete(`/iotapp/users/${other}/`)).statusCode).toBe(403);
  });

  it('never reaches users of another tenant', async () => {
    const b = await t.login('customeradmin', HOST_B);
    const fe = await userId(admin, 'fieldexecutive');
    for (const res of [
      await b.get(`/iotapp/users/${fe}/details/`),
      await b.put(`/iotapp/users/${fe}/active/`, { isActive: false }),
      await b.delete(`/iotapp/users/${fe}/`),
      await b.post(`/iotapp/users/${fe}/reset-password/`, { password: 'Quiet-Meadow-93' }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('the mail outbox', () => {
  it('shows the latest e-mails to sysadmins only', async () => {
    const sys = await t.login('sysadmin');
    const res = await sys.get('/iotapp/mail-outbox/');
    expect(res.statusCode).toBe(200);
    expect(res.json().contents[0]).toHaveProperty('subject');
    expect((await admin.get('/iotapp/mail-outbox/')).statusCode).toBe(403);
  });
});
