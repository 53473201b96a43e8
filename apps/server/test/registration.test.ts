import { REGISTRATION_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA, createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
let sequence = 0;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

async function register(extra: Record<string, unknown> = {}, host?: string) {
  const n = `${Date.now().toString(36)}${++sequence}`;
  const client = t.anonymous(host);
  const body = {
    username: `newcomer${n}`,
    email: `newcomer${n}@demo.example.com`,
    firstname: 'Nia',
    lastname: `Newcomer ${n}`,
    mobile: null,
    password: 'Blue-Harbour-71',
    captchaId: await client.captcha(),
    captcha: CAPTCHA,
    ...extra,
  };
  return { client, body, res: await client.post('/iotapp/registration-requests/register/', body) };
}

const tokenFor = async (email: string) => {
  const mail = await t.db.selectFrom('mail_outbox').select('body').where('to', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return /token=([\w-]+)/.exec(mail.body)?.[1] as string;
};

async function registeredAndConfirmed() {
  const r = await register();
  expect(r.res.statusCode, r.res.body).toBe(201);
  const confirm = await r.client.post('/iotapp/registration-requests/confirm/', { token: await tokenFor(r.body.email) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  const pending = (await admin.get('/iotapp/registration-requests/?status=pending')).json();
  const request = pending.contents.find((p: { email: string }) => p.email === r.body.email);
  return { ...r, request };
}

describe('registration', () => {
  it('registers, confirms the e-mail, is approved with role, group and sites, and signs in', async () => {
    const r = await register();
    expect(r.res.statusCode, r.res.body).toBe(201);
    expect(r.res.json().message).toBe(REGISTRATION_MESSAGES.requested);
    // Unconfirmed requests are not in the admins' list yet.
    const before = (await admin.get('/iotapp/registration-requests/')).json();
    expect(before.contents.some((p: { email: string }) => p.email === r.body.email)).toBe(false);
    const token = await tokenFor(r.body.email);
    expect((await r.client.post('/iotapp/registration-requests/confirm/', { token })).json().message).toBe(REGISTRATION_MESSAGES.confirmed);
    expect((await r.client.post('/iotapp/registration-requests/confirm/', { token })).statusCode).toBe(400);
    const pending = (await admin.get('/iotapp/registration-requests/?status=pending')).json();
    const request = pending.contents.find((p: { email: string }) => p.email === r.body.email);
    expect(request).toMatchObject({ status: 'pending', username: r.body.username });
    expect((await admin.get(`/iotapp/registration-requests/${request.id}/`)).json().id).toBe(request.id);

    const site = await makeSite(admin);
    const groups = (await admin.get('/iotapp/groups/')).json().contents as { id: number; name: string }[];
    const operators = groups.find((g) => g.name === 'Operators')?.id;
    const approved = await admin.post(`/iotapp/registration-requests/${request.id}/approve/`, {
      userRole: ['fieldexecutive'],
      groupId: operators,
      assetIds: [site.id],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved' });
    const user = (await admin.get(`/iotapp/users/${approved.json().userId}/`)).json();
    expect(user).toMatchObject({ username: r.body.username, userRole: ['fieldexecutive'], assetIds: [site.id] });
    expect(user.groups[0].name).toBe('Operators');
    const login = await t.anonymous().passwordLogin(r.body.username, 'Blue-Harbour-71');
    expect(login.statusCode, login.body).toBe(200);
    // Decided once only.
    expect((await admin.post(`/iotapp/registration-requests/${request.id}/reject/`, { reason: 'late' })).statusCode).toBe(409);
    const actions = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'registration.%').execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['registration.request', 'registration.confirm', 'registration.approve']),
    );
  });

  it('rejects a request with a reason', async () => {
    const { request, body } = await registeredAndConfirmed();
    expect((await admin.post(`/iotapp/registration-requests/${request.id}/reject/`, { reason: '' })).statusCode).toBe(400);
    const res = await admin.post(`/iotapp/registration-requests/${request.id}/reject/`, { reason: 'Not an employee' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', reason: 'Not an employee' });
    expect((await t.anonymous().passwordLogin(body.username, 'Blue-Harbour-71')).statusCode).toBe(401);
  });

  it('keeps to the e-mail domain allow-list with the SPEC message', async () => {
    const set = await admin.put('/iotapp/customer-settings/', { registrationEmailDomains: ['demo.example.com'] });
    expect(set.statusCode, set.body).toBe(200);
    const outside = await register({ email: `someone${Date.now()}@elsewhere.org` });
    expect(outside.res.statusCode).toBe(400);
    expect(outside.res.json().detail).toBe(REGISTRATION_MESSAGES.domainNotAllowed);
    expect((await register()).res.statusCode).toBe(201);
    await admin.put('/iotapp/customer-settings/', { registrationEmailDomains: [] });
  });

  it('checks the captcha and refuses taken names', async () => {
    expect((await register({ captcha: 'WRONG' })).res.statusCode).toBe(400);
    const taken = await register({ username: 'vendor' });
    expect(taken.res.statusCode).toBe(409);
    expect(taken.res.json().detail).toBe(REGISTRATION_MESSAGES.exists);
    const first = await register();
    const again = await register({ username: `${first.body.username}x`, email: first.body.email });
    expect(again.res.statusCode).toBe(409);
  });

  it('never lets a newcomer be approved above the approver, nor by users without add_user or another tenant', async () => {
    const { request } = await registeredAndConfirmed();
    const local = await t.login('localadmin');
    expect((await local.post(`/iotapp/registration-requests/${request.id}/approve/`, { userRole: ['customeradmin'] })).statusCode).toBe(
      403,
    );
    const customer = await t.login('customer');
    expect((await customer.get('/iotapp/registration-requests/')).statusCode).toBe(403);
    expect((await customer.post(`/iotapp/registration-requests/${request.id}/approve/`, { userRole: ['vendor'] })).statusCode).toBe(403);
    const b = await t.login('customeradmin', HOST_B);
    expect((await b.get(`/iotapp/registration-requests/${request.id}/`)).statusCode).toBe(404);
    expect((await b.post(`/iotapp/registration-requests/${request.id}/approve/`, { userRole: ['vendor'] })).statusCode).toBe(404);
    // The request is still pending after all of that.
    expect((await admin.get(`/iotapp/registration-requests/${request.id}/`)).json().status).toBe('pending');
  });
});
