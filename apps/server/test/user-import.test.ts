import { csvLine, USER_ADMIN_MESSAGES, USER_IMPORT_COLUMNS, USER_IMPORT_MESSAGES, USER_IMPORT_TEMPLATE } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
let sequence = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

const unique = () => `imp${Date.now().toString(36)}${++sequence}`;
const person = (extra: Partial<Record<(typeof USER_IMPORT_COLUMNS)[number], string>> = {}) => {
  const n = unique();
  return {
    username: n,
    email: `${n}@demo.example.com`,
    firstname: 'Imported',
    lastname: `Person ${sequence}`,
    mobile: '',
    role: 'fieldexecutive',
    group: '',
    sites: '',
    ...extra,
  };
};
const csvOf = (rows: ReturnType<typeof person>[]) =>
  csvLine(USER_IMPORT_COLUMNS) + rows.map((r) => csvLine(USER_IMPORT_COLUMNS.map((c) => r[c]))).join('');
const preview = (client: TestClient, content: string) => client.post('/iotapp/users/import/preview/', { content, fileName: 'people.csv' });
const run = (client: TestClient, content: string, query = '') => client.post(`/iotapp/users/import/${query}`, { content });

describe('users CSV import', () => {
  it('reads its own template', async () => {
    const res = await preview(admin, USER_IMPORT_TEMPLATE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows[0]).toMatchObject({ row: 2, username: 'jdoe', roles: ['fieldexecutive'], sites: ['Site A', 'SITE-B'] });
    // The template's sites do not exist in this tenant.
    expect(res.json().rows[0].errors).toContainEqual({ field: 'sites', message: 'Unknown site "Site A"' });
  });

  it('previews every row with its errors, then creates the valid ones with their set-password e-mail', async () => {
    const site = await makeSite(admin, { metadata: { assetCode: `CODE-${unique()}` } });
    const code = String(site.metadata.assetCode);
    const good = person({ sites: `${site.name};${code.toLowerCase()}`, mobile: '9123456780', group: 'Operators' });
    const labelled = person({ role: 'Vendor' });
    const rows = [
      good,
      labelled,
      person({ mobile: '12345' }),
      person({ role: 'wizard' }),
      person({ group: 'No such group' }),
      person({ sites: 'Nowhere' }),
      person({ email: 'not-an-email' }),
      person({ username: good.username.toUpperCase() }),
      person({ username: 'customeradmin' }),
      person({ firstname: '' }),
      person({ role: '' }),
    ];
    const content = csvOf(rows);
    const res = await preview(admin, content);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ totalRows: 11, validRows: 2 });
    const errorsOf = (row: number) => body.rows.find((r: { row: number }) => r.row === row).errors;
    expect(errorsOf(2)).toEqual([]);
    expect(errorsOf(4)).toContainEqual({ field: 'mobile', message: 'Mobile number must be 10 digits' });
    expect(errorsOf(5)).toContainEqual({ field: 'role', message: 'Unknown role "wizard"' });
    expect(errorsOf(6)).toContainEqual({ field: 'group', message: 'Unknown group "No such group"' });
    expect(errorsOf(7)).toContainEqual({ field: 'sites', message: 'Unknown site "Nowhere"' });
    expect(errorsOf(8)).toContainEqual({ field: 'email', message: 'Enter a valid e-mail address' });
    expect(errorsOf(9)).toContainEqual({ field: 'username', message: `${USER_ADMIN_MESSAGES.exists}: the same username as row 2` });
    expect(errorsOf(10)).toContainEqual({ field: 'username', message: USER_ADMIN_MESSAGES.exists });
    expect(errorsOf(11)).toContainEqual({ field: 'firstname', message: 'First name is required' });
    expect(errorsOf(12)).toContainEqual({ field: 'role', message: 'Choose at least one role' });
    // The preview creates nothing.
    expect(await t.db.selectFrom('users').select('id').where('username', '=', good.username).executeTakeFirst()).toBeUndefined();

    const imported = await run(admin, content);
    expect(imported.statusCode, imported.body).toBe(200);
    const result = imported.json();
    expect(result.created.map((c: { row: number }) => c.row)).toEqual([2, 3]);
    expect(result.failed).toHaveLength(9);
    expect(result.failed[0]).toMatchObject({ row: 4, errors: [{ field: 'mobile', message: 'Mobile number must be 10 digits' }] });

    const user = (await admin.get(`/iotapp/users/${result.created[0].id}/`)).json();
    expect(user).toMatchObject({ username: good.username, mobile: '9123456780', userRole: ['fieldexecutive'], assetIds: [site.id] });
    expect(user.groups[0].name).toBe('Operators');
    expect((await admin.get(`/iotapp/users/${result.created[1].id}/`)).json().userRole).toEqual(['vendor']);

    // Each created user has the activity entry of a single creation and can set a password from the e-mail.
    const audit = await t.db.selectFrom('user_activity_logs').select(['object_id']).where('action', '=', 'user.create').execute();
    expect(audit.map((a) => a.object_id)).toEqual(expect.arrayContaining(result.created.map((c: { id: number }) => String(c.id))));
    const mail = await t.db.selectFrom('mail_outbox').select('body').where('to', '=', good.email).executeTakeFirstOrThrow();
    const token = /token=([\w-]+)/.exec(mail.body)?.[1];
    const anon = t.anonymous();
    expect((await anon.post('/iotapp/users/set-password/', { token, password: 'Blue-Harbour-71' })).statusCode).toBe(200);
    expect((await t.anonymous().passwordLogin(good.username, 'Blue-Harbour-71')).statusCode).toBe(200);

    // Importing the same file again creates nobody: the rows now clash with existing users.
    const again = (await run(admin, content)).json();
    expect(again.created).toEqual([]);
    expect(again.failed.find((f: { row: number }) => f.row === 2).errors).toContainEqual({
      field: 'username',
      message: USER_ADMIN_MESSAGES.exists,
    });
  });

  it('creates a chunk of rows at a time; duplicates across chunks are still found', async () => {
    const first = person();
    const rows = [first, person(), person({ email: first.email.toUpperCase() }), person()];
    const content = csvOf(rows);
    const a = (await run(admin, content, '?from=0&count=2')).json();
    expect(a).toMatchObject({ totalRows: 4, from: 0, processedRows: 2 });
    expect(a.created).toHaveLength(2);
    const b = (await run(admin, content, '?from=2&count=2')).json();
    expect(b.created.map((c: { row: number }) => c.row)).toEqual([5]);
    expect(b.failed).toMatchObject([{ row: 4, errors: [{ field: 'email' }] }]);
  });

  it('refuses, per row, a role or group above the importer’s rights', async () => {
    const local = await t.login('localadmin');
    const rows = [person({ role: 'customeradmin' }), person({ role: 'sysadmin;vendor' }), person({ role: 'vendor' })];
    const res = (await run(local, csvOf(rows))).json();
    expect(res.created.map((c: { row: number }) => c.row)).toEqual([4]);
    expect(res.failed).toEqual([
      expect.objectContaining({ row: 2, errors: [{ field: 'role', message: USER_ADMIN_MESSAGES.aboveOwnRights }] }),
      expect.objectContaining({ row: 3, errors: [{ field: 'role', message: USER_ADMIN_MESSAGES.aboveOwnRights }] }),
    ]);
    const lower = await t.login('citylead');
    // Without add_user: no preview, no import.
    expect((await preview(lower, csvOf([person()]))).statusCode).toBe(403);
    expect((await run(lower, csvOf([person()]))).statusCode).toBe(403);
  });

  it('keeps to the tenant: another tenant sees none of its groups, sites or users', async () => {
    const site = await makeSite(admin);
    const b = await t.login('customeradmin', HOST_B);
    const taken = person();
    await run(admin, csvOf([taken]));
    const res = (await preview(b, csvOf([person({ sites: site.name }), { ...person(), username: taken.username }]))).json();
    expect(res.rows[0].errors).toContainEqual({ field: 'sites', message: `Unknown site "${site.name}"` });
    // The same username in another tenant is free.
    expect(res.rows[1].errors).toEqual([]);
  });

  it('answers 400, never 500, for files it cannot read', async () => {
    const header = csvLine(USER_IMPORT_COLUMNS);
    const cases: [unknown, number, string | null][] = [
      [{ content: header }, 400, USER_IMPORT_MESSAGES.noData],
      [{ content: 'a,b\n1,2\n' }, 400, USER_IMPORT_MESSAGES.missingColumns],
      [{ content: `${header}x\u0001y,,,,,,,\n` }, 400, USER_IMPORT_MESSAGES.notText],
      [{ content: `${header}x\u0000y,,,,,,,\n` }, 400, null],
      [{ content: header + 'a,b,c,d,e,f,g,h\n'.repeat(5001) }, 400, USER_IMPORT_MESSAGES.tooManyRows],
      [{ content: header + `${'x'.repeat(200)},b\n`.repeat(6000) }, 400, null],
      [{ content: 12 }, 400, null],
      [{}, 400, null],
      [{ content: header, extra: true }, 400, null],
    ];
    for (const [body, status, message] of cases) {
      const res = await admin.post('/iotapp/users/import/preview/', body);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(res.json().detail).toContain(message);
    }
    // Multi-byte text over 1 MB once encoded.
    const wide = await admin.post('/iotapp/users/import/preview/', { content: header + 'é'.repeat(600_000) });
    expect(wide.statusCode).toBe(413);
    for (const query of ['?from=-1', '?count=0', '?count=abc', '?other=1']) {
      expect((await run(admin, csvOf([person()]), query)).statusCode, query).toBe(400);
    }
  });
});
