import { CAPTCHA, type TestApp, type TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** Tenant-A objects of user administration for the route-walking test. */

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

let sequence = 0;
const userInput = () => {
  const n = `${Date.now().toString(36)}${++sequence}`;
  return {
    username: `fixture${n}`,
    email: `fixture${n}@demo.example.com`,
    firstname: 'Fixture',
    lastname: 'User',
    mobile: null,
    userRole: ['vendor'],
    groupId: null,
    assetIds: [],
    notificationConfig: { popup: true },
  };
};

/** One object of each kind per app: tenant B's calls must all fail, so they can share it (and the test stays quick). */
function once(make: ObjectFixture): ObjectFixture {
  const made = new WeakMap<TestApp, ReturnType<ObjectFixture>>();
  return (t) => {
    if (!made.has(t)) made.set(t, make(t));
    return made.get(t) as ReturnType<ObjectFixture>;
  };
}

// Without a password: a set-password e-mail is sent instead, sparing the password hashing.
const user: ObjectFixture = once(async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/users/', userInput());
  return { params: { id: res.json().id }, payload: userInput() };
});

const group: ObjectFixture = once(async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/permission-groups/', {
    name: `Fixture group ${Date.now()}${++sequence}`,
    codenames: [],
  });
  return { params: { id: res.json().id }, payload: { name: 'renamed by B', codenames: [] } };
});

/** A confirmed (pending) registration request of tenant A. */
const registration: ObjectFixture = once(async (t) => {
  const n = `${Date.now().toString(36)}${++sequence}`;
  const anon = t.anonymous();
  const email = `applicant${n}@demo.example.com`;
  await anon.post('/iotapp/registration-requests/register/', {
    username: `applicant${n}`,
    email,
    firstname: 'Applicant',
    lastname: 'Fixture',
    mobile: null,
    password: 'Blue-Harbour-71',
    captchaId: await anon.captcha(),
    captcha: CAPTCHA,
  });
  const mail = await t.db.selectFrom('mail_outbox').select('body').where('to', '=', email).executeTakeFirstOrThrow();
  await anon.post('/iotapp/registration-requests/confirm/', { token: /token=([\w-]+)/.exec(mail.body)?.[1] });
  const row = await t.db.selectFrom('registration_requests').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { params: { id: row.id }, payload: { userRole: ['vendor'], reason: 'fixture' } };
});

export const peopleObjectRoutes: Record<string, ObjectFixture> = {
  'GET /iotapp/users/:id/details/': user,
  'PUT /iotapp/users/:id/': user,
  'DELETE /iotapp/users/:id/': user,
  'PUT /iotapp/users/:id/active/': async (t) => ({ ...(await user(t)), payload: { isActive: false } }),
  'POST /iotapp/users/:id/reset-password/': async (t) => ({ ...(await user(t)), payload: { password: 'Quiet-Meadow-93' } }),
  'POST /iotapp/users/:id/set-password-email/': user,
  'PUT /iotapp/users/:id/avatar/': async (t) => ({
    ...(await user(t)),
    payload: { image: `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}` },
  }),
  'GET /iotapp/users/:id/avatar/': user,
  'PUT /iotapp/permission-groups/:id/': group,
  'DELETE /iotapp/permission-groups/:id/': group,
  'GET /iotapp/permission-groups/:id/users/': group,
  'GET /iotapp/registration-requests/:id/': registration,
  'POST /iotapp/registration-requests/:id/approve/': async (t) => ({ ...(await registration(t)), payload: { userRole: ['vendor'] } }),
  'POST /iotapp/registration-requests/:id/reject/': async (t) => ({ ...(await registration(t)), payload: { reason: 'fixture' } }),
  'POST /iotapp/permission-groups/:id/users/': async (t) => ({ ...(await group(t)), payload: { userIds: [1] } }),
};
