import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, HOST_A, HOST_B, type TestApp } from './support/harness.ts';

let t: TestApp;
/** The app's clock: session lifetimes are stepped over, not waited for (only the last tests step it). */
const clock = createTestClock();
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t?.close());

const auditOf = (username: string) =>
  t.db.selectFrom('audit_log').select(['action', 'outcome', 'detail']).where('username', '=', username).orderBy('id').execute();

describe('password sign-in', () => {
  it('signs in with username, password and captcha, sets an httpOnly session cookie and audits it', async () => {
    const client = t.anonymous();
    const res = await client.passwordLogin('customeradmin');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Login Successful');
    expect(body.user).toMatchObject({ username: 'customeradmin', userRole: ['customeradmin'] });
    expect(body.user.groups[0].permissions.map((p: { codename: string }) => p.codename)).toContain('edit_alarm_config');
    expect(typeof body.access).toBe('string');
    expect(typeof body.refresh).toBe('string');
    const cookie = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find((c) => c.name === 'sw_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await auditOf('customeradmin')).toContainEqual(expect.objectContaining({ action: 'login.password', outcome: 'success' }));
  });

  it('refuses a wrong captcha and a captcha used twice', async () => {
    const client = t.anonymous();
    const wrong = await client.passwordLogin('customer', undefined, { captcha: 'WRONG' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe('Invalid Captcha');
    const captchaId = await client.captcha();
    const payload = { username: 'customer', password: 'x', captchaId, captcha: 'TESTA', role: 'auth' };
    await client.post('/api/auth/login/', payload);
    const again = await client.post('/api/auth/login/', payload);
    expect(again.json().detail).toBe('Captcha Verification Failed!');
  });

  it('answers the same text for an unknown user and a wrong password, and flags a malformed username', async () => {
    const client = t.anonymous();
    const unknown = await client.passwordLogin('nobody-here');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().detail).toBe('Invalid credentials');
    const malformed = await client.passwordLogin('bad name!');
    expect(malformed.json().detail).toBe('Invalid UserName');
  });

  it('locks the account after repeated wrong passwords, even for the right password', async () => {
    const client = t.anonymous();
    for (let i = 0; i < 4; i++) {
      const res = await client.passwordLogin('storemanager', 'wrong-password');
      expect(res.json().detail).toBe('Invalid credentials');
    }
    const fifth = await client.passwordLogin('storemanager', 'wrong-password');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().detail).toBe('Account Locked! Please try again later');
    const right = await client.passwordLogin('storemanager');
    expect(right.json().detail).toBe('Account Locked! Please try again later');
    const audit = await auditOf('storemanager');
    expect(audit.filter((a) => a.outcome === 'failure')).toHaveLength(5);
    expect(audit.at(-1)).toMatchObject({ outcome: 'denied', detail: { reason: 'locked' } });
  });

  it('refuses a sign-in whose login role the user does not hold', async () => {
    const client = t.anonymous();
    const denied = await client.passwordLogin('customer', undefined, { role: 'vendor' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe('Unauthorized');
    expect(await auditOf('customer')).toContainEqual(expect.objectContaining({ outcome: 'denied', detail: { reason: 'role_mismatch' } }));
    const allowed = await client.passwordLogin('vendor', undefined, { role: 'vendor' });
    expect(allowed.statusCode).toBe(200);
  });

  it('validates the body with a clear message', async () => {
    const res = await t.anonymous().post('/api/auth/login/', { username: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
    // SPEC 5 words, not the schema path or zod's text.
    expect(res.json().detail).toMatch(/^(Password|Captcha|Captcha ID) is required$/);
    expect(res.json().errors[0].path).toMatch(/^body\./);
  });
});

describe('mobile one-time code', () => {
  it('tells an unregistered number, sends a code to a registered one and signs in with it', async () => {
    const client = t.anonymous();
    const unknown = await client.post('/api/auth/otp/send/', { mobile: '9999999999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('This mobile number is not registered!');

    const sent = await client.post('/api/auth/otp/send/', { mobile: '9000000005' });
    expect(sent.json().message).toBe('OTP sent successfully to your mobile number');
    const outbox = await t.db
      .selectFrom('sms_outbox')
      .select('body')
      .where('to', '=', '9000000005')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(outbox.body)?.[1] as string;

    const wrong = await client.post('/api/auth/otp/verify/', { mobile: '9000000005', otp: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe('The OTP you entered is incorrect. Please try again.');
    const ok = await client.post('/api/auth/otp/verify/', { mobile: '9000000005', otp: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.username).toBe('vendor');
    const reused = await client.post('/api/auth/otp/verify/', { mobile: '9000000005', otp: code });
    expect(reused.statusCode).toBe(400);
  });

  it('lets only a sysadmin read the SMS outbox', async () => {
    const admin = await t.login('sysadmin');
    expect((await admin.get('/api/auth/outbox/')).statusCode).toBe(200);
    const user = await t.login('customer');
    expect((await user.get('/api/auth/outbox/')).statusCode).toBe(403);
  });
});

describe('second factor', () => {
  it('enables TOTP for a user and then asks for the code at sign-in', async () => {
    const client = await t.login('citylead');
    const setup = await client.post('/api/auth/totp/setup/');
    const { secret } = setup.json();
    const enabled = await client.post('/api/auth/totp/enable/', { code: await generate({ secret }) });
    expect(enabled.json().mfaEnabled).toBe(true);

    const next = t.anonymous();
    const first = await next.passwordLogin('citylead');
    expect(first.json()).toMatchObject({ mfaRequired: true, setupRequired: false });
    expect(first.cookies.find((c: { name: string }) => c.name === 'sw_session')).toBeUndefined();
    const bad = await next.post('/api/auth/totp/verify/', { mfaToken: first.json().mfaToken, code: '000000' });
    expect(bad.statusCode).toBe(400);
    const good = await next.post('/api/auth/totp/verify/', { mfaToken: first.json().mfaToken, code: await generate({ secret }) });
    expect(good.statusCode).toBe(200);
    expect(good.json().user.username).toBe('citylead');
  });

  it('makes users of a role set up TOTP during sign-in when the tenant requires it', async () => {
    const admin = await t.login('customeradmin');
    expect((await admin.put('/iotapp/customer-settings/', { mfaRequiredRoles: ['areahead'] })).statusCode).toBe(200);
    const client = t.anonymous();
    const first = await client.passwordLogin('areahead');
    expect(first.json()).toMatchObject({ mfaRequired: true, setupRequired: true });
    const { secret } = (await client.post('/api/auth/totp/enrol/start/', { mfaToken: first.json().mfaToken })).json();
    const done = await client.post('/api/auth/totp/enrol/', { mfaToken: first.json().mfaToken, code: await generate({ secret }) });
    expect(done.statusCode).toBe(200);
    expect(done.json().user.mfaEnabled).toBe(true);
    await admin.put('/iotapp/customer-settings/', { mfaRequiredRoles: [] });
  });
});

describe('session and tokens', () => {
  it('answers /current-login/ only with a session, by cookie or by bearer token', async () => {
    expect((await t.anonymous().get('/current-login/')).statusCode).toBe(401);
    const client = await t.login('localadmin');
    const byBoth = await client.get('/current-login/');
    expect(byBoth.statusCode).toBe(200);
    expect(byBoth.json()).toMatchObject({ user: { username: 'localadmin' } });
    const bearerOnly = t.anonymous();
    bearerOnly.access = byBoth.json().access;
    expect((await bearerOnly.get('/current-login/')).statusCode).toBe(200);
    const cookieOnly = await client.get('/current-login/', { bearer: false } as never);
    expect(cookieOnly.statusCode).toBe(200);
  });

  it('rotates the refresh token and ends the session when an old one is reused', async () => {
    const client = await t.login('regionalhead');
    const old = client.refresh as string;
    const rotated = await client.post('/api/token/refresh/', { refresh: old });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().refresh).not.toBe(old);
    const reuse = await client.post('/api/token/refresh/', { refresh: old });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('token_reused');
    client.access = rotated.json().access;
    expect((await client.get('/current-login/')).statusCode).toBe(401);
    // the CSRF token was bound to the ended session; with a new one the refresh is refused for what it is
    expect((await client.post('/api/token/refresh/', { refresh: rotated.json().refresh })).json().code).toBe('csrf_failed');
    await client.get('/api/auth/csrf/');
    expect((await client.post('/api/token/refresh/', { refresh: rotated.json().refresh })).statusCode).toBe(401);
  });

  it('requires the CSRF header on unsafe methods', async () => {
    const client = await t.login('infraadmin');
    const missing = await client.post('/api/auth/totp/setup/', undefined, { csrf: false } as never);
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe('csrf_failed');
    const forged = await client.request({
      method: 'POST',
      url: '/api/auth/totp/setup/',
      csrf: false,
      headers: { 'x-csrftoken': 'abc.def' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await client.post('/api/auth/totp/setup/')).statusCode).toBe(200);
  });

  it('issues the CSRF cookie from /api/auth/csrf/ only, and a new one for an invalid cookie', async () => {
    const client = t.anonymous();
    const setCookies = (res: { cookies: unknown }) => (res.cookies as { name: string }[]).map((c) => c.name);
    expect(setCookies(await client.get('/app-version/'))).toEqual([]);
    const bearer = await t.login('infraadmin');
    const api = await t.app.inject({
      method: 'GET',
      url: '/iotapp/customer-settings/',
      headers: { host: bearer.host, authorization: `Bearer ${bearer.access}` },
    });
    expect(api.statusCode).toBe(200);
    expect(setCookies(api)).toEqual([]);
    const issued = await client.get('/api/auth/csrf/');
    const cookie = (issued.cookies as { name: string; value: string; httpOnly?: boolean }[]).find((c) => c.name === 'csrftoken');
    expect(cookie?.httpOnly).not.toBe(true);
    expect(issued.json().csrfToken).toBe(cookie?.value);
    // a valid cookie is kept; a forged one is replaced
    expect(setCookies(await client.get('/api/auth/csrf/'))).toEqual([]);
    const forged = await t.anonymous().request({ method: 'GET', url: '/api/auth/csrf/', headers: { cookie: 'csrftoken=abc.def' } });
    expect(forged.json().csrfToken).not.toBe('abc.def');
    expect(setCookies(forged)).toEqual(['csrftoken']);
  });

  it('logs out, revokes the session and returns the login page of the role', async () => {
    const client = t.anonymous();
    client.adopt((await client.passwordLogin('fieldexecutive', undefined, { role: 'fieldexecutive' })).json());
    const out = await client.get('/logout/');
    expect(out.json().redirectURL).toBe('/fieldexecutive/login/');
    expect((await client.get('/current-login/')).statusCode).toBe(401);
  });

  it('lists and revokes the user’s own sessions only', async () => {
    const first = await t.login('localadmin');
    const second = await t.login('localadmin');
    const list = (await first.get('/api/auth/sessions/')).json();
    expect(list.contents.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const other = list.contents.find((s: { current: boolean }) => !s.current);
    expect((await first.delete(`/api/auth/sessions/${other.id}/`)).statusCode).toBe(204);
    expect((await second.get('/current-login/')).statusCode).toBe(401);
    const stranger = await t.login('vendor');
    const mine = (await stranger.get('/api/auth/sessions/')).json().contents[0].id;
    expect((await first.delete(`/api/auth/sessions/${mine}/`)).statusCode).toBe(404);
  });

  it('signs out every other session of the user, keeping the current one and other users’ sessions', async () => {
    const here = await t.login('infraadmin');
    const phone = await t.login('infraadmin');
    const laptop = await t.login('infraadmin');
    const someoneElse = await t.login('regionalhead');
    const res = await here.post('/api/auth/sessions/sign-out-others/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ended).toBeGreaterThanOrEqual(2);
    expect((await phone.get('/current-login/')).statusCode).toBe(401);
    expect((await laptop.get('/current-login/')).statusCode).toBe(401);
    expect((await here.get('/current-login/')).statusCode).toBe(200);
    expect((await someoneElse.get('/current-login/')).statusCode).toBe(200);
    const left = (await here.get('/api/auth/sessions/')).json();
    expect(left.contents).toHaveLength(1);
    expect(left.contents[0].current).toBe(true);
    expect((await t.anonymous().post('/api/auth/sessions/sign-out-others/')).statusCode).toBe(401);
  });

  it('changes the password, refusing a wrong current one and a common new one, and ends other sessions', async () => {
    const client = await t.login('customer');
    const other = await t.login('customer');
    const wrong = await client.post('/api/auth/change-password/', {
      oldPassword: 'nope',
      newPassword: 'N3w-Passw0rd!',
      confirmPassword: 'N3w-Passw0rd!',
    });
    expect(wrong.statusCode).toBe(400);
    const weak = await client.post('/api/auth/change-password/', {
      oldPassword: 'Demo@2026!',
      newPassword: 'password123',
      confirmPassword: 'password123',
    });
    expect(weak.statusCode).toBe(400);
    const mismatch = await client.post('/api/auth/change-password/', {
      oldPassword: 'Demo@2026!',
      newPassword: 'N3w-Passw0rd!',
      confirmPassword: 'other',
    });
    expect(mismatch.statusCode).toBe(400);
    const ok = await client.post('/api/auth/change-password/', {
      oldPassword: 'Demo@2026!',
      newPassword: 'N3w-Passw0rd!',
      confirmPassword: 'N3w-Passw0rd!',
    });
    expect(ok.statusCode).toBe(200);
    expect((await other.get('/current-login/')).statusCode).toBe(401);
    expect((await client.get('/current-login/')).statusCode).toBe(200);
    expect((await t.anonymous().passwordLogin('customer', 'N3w-Passw0rd!')).statusCode).toBe(200);
  });

  it('updates the profile', async () => {
    const client = await t.login('sysadmin');
    const res = await client.put('/api/auth/profile/', {
      firstname: 'Sam',
      lastname: 'Admin',
      email: 'sam@demo.example.com',
      mobile: '9000000001',
      notificationConfig: { popup: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstname: 'Sam', notificationConfig: { popup: false } });
  });

  it('holds a mobile number to the tenant’s length (10 digits by default)', async () => {
    const client = await t.login('sysadmin');
    const body = { firstname: 'Sam', lastname: 'Admin', email: 'sam@demo.example.com', notificationConfig: { popup: true } };
    const short = await client.put('/api/auth/profile/', { ...body, mobile: '12345678' });
    expect(short.statusCode).toBe(400);
    expect(short.json().detail).toBe('Mobile number must be 10 digits');
    expect((await client.put('/api/auth/profile/', { ...body, mobile: '9000000001' })).statusCode).toBe(200);
  });
});

describe('tenancy', () => {
  it('answers 421 for an unknown host', async () => {
    const res = await t.anonymous('unknown.example.com').get('/iotapp/customer-logo/');
    expect(res.statusCode).toBe(421);
  });

  it('selects the tenant from the subdomain', async () => {
    expect((await t.anonymous(HOST_B).get('/iotapp/customer-logo/')).json().name).toBe('Acme Retail');
    expect((await t.anonymous(HOST_A).get('/iotapp/customer-logo/')).json().name).toBe('Northwind Facilities');
  });

  it('makes one tenant’s session useless on another tenant’s host', async () => {
    const b = await t.login('customeradmin', HOST_B);
    const stolen = t.anonymous(HOST_A);
    stolen.cookies = new Map(b.cookies);
    stolen.access = b.access;
    expect((await stolen.get('/current-login/')).statusCode).toBe(401);
    expect((await stolen.get('/iotapp/customer-settings/')).statusCode).toBe(401);
    // acme's CSRF token is not good on the other tenant's host
    expect((await stolen.post('/api/token/refresh/', { refresh: b.refresh })).json().code).toBe('csrf_failed');
    await stolen.get('/api/auth/csrf/');
    expect((await stolen.post('/api/token/refresh/', { refresh: b.refresh })).statusCode).toBe(401);
  });

  it('binds the CSRF token to the tenant and the session: another tenant’s or another session’s token is refused', async () => {
    const acme = await t.login('customeradmin', HOST_B);
    const demo = await t.login('customeradmin', HOST_A);
    const other = await t.login('customeradmin', HOST_A);
    const post = (client: typeof demo, token: string) =>
      client.post('/api/auth/sessions/sign-out-others/', undefined, {
        csrf: false,
        headers: { 'x-csrftoken': token, cookie: `sw_session=${client.cookies.get('sw_session')}; csrftoken=${token}` },
        bearer: false,
      } as never);
    const acmeToken = acme.cookies.get('csrftoken') as string;
    const otherToken = other.cookies.get('csrftoken') as string;
    const demoToken = demo.cookies.get('csrftoken') as string;
    expect((await post(demo, acmeToken)).json().code).toBe('csrf_failed');
    expect((await post(demo, otherToken)).json().code).toBe('csrf_failed');
    // an anonymous visitor's token stops working once the visitor signs in: the sign-in answer brings a new one
    const visitor = t.anonymous();
    await visitor.get('/api/auth/csrf/');
    const before = visitor.cookies.get('csrftoken') as string;
    await visitor.signIn('customeradmin');
    expect(visitor.cookies.get('csrftoken')).not.toBe(before);
    expect((await post(visitor, before)).json().code).toBe('csrf_failed');
    expect((await post(demo, demoToken)).statusCode).toBe(200);
  });
});

describe('session lifetime', () => {
  const MINUTE = 60_000;
  const idleMinutes = 120;
  const maxHours = 12;

  it('ends a session left idle past the limit, and keeps one in use', async () => {
    const used = await t.login('localadmin');
    const idle = await t.login('localadmin');
    clock.advance((idleMinutes - 1) * MINUTE);
    expect((await used.get('/current-login/')).statusCode).toBe(200);
    clock.advance(2 * MINUTE);
    expect((await used.get('/current-login/')).statusCode).toBe(200);
    expect((await idle.get('/current-login/')).statusCode).toBe(401);
  });

  it('ends a session at its maximum age however often it is used, and lists only live sessions', async () => {
    const client = await t.login('infraadmin');
    const started = clock.now().getTime();
    while (clock.now().getTime() - started < maxHours * 3600_000 - idleMinutes * MINUTE) {
      clock.advance((idleMinutes - 10) * MINUTE);
      expect((await client.get('/current-login/')).statusCode).toBe(200);
    }
    const fresh = await t.login('infraadmin');
    const before = (await fresh.get('/api/auth/sessions/')).json().contents as Array<{ current: boolean }>;
    expect(before.length).toBeGreaterThanOrEqual(2);
    clock.advance(maxHours * 3600_000 - (clock.now().getTime() - started) + MINUTE);
    expect((await client.get('/current-login/')).statusCode).toBe(401);
    const after = (await fresh.get('/api/auth/sessions/')).json().contents as Array<{ current: boolean }>;
    expect(after).toHaveLength(before.length - 1);
    expect(after.some((s) => s.current)).toBe(true);
  });
});
