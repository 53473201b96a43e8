import { FORM_LIMITS, FORM_MESSAGES, VALIDATION_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFieldsTemplate, createTemplate, submit, upload } from './forms-fixtures.ts';
import { getTicket, makeDevice, makeSite, PNG } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let viewer: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  viewer = await t.login('customer');
});
afterAll(async () => {
  await t?.close();
});

const T = '/ifmapp/dynamic-form-templates';

/** A demo user's id and name as the forms show it (the tests read the users table directly). */
async function person(username: string) {
  const u = await t.db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname'])
    .where('tenant_id', '=', t.tenantA)
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { id: u.id, name: `${u.firstname} ${u.lastname}` };
}

describe('templates', () => {
  it('creates a form with every field type, reads it by name and by bound view', async () => {
    const form = await createTemplate(admin, allFieldsTemplate('Site Audit Test'));
    expect(form.version).toBe(1);
    expect(Object.keys(form.metadata.schema.properties)).toHaveLength(16);
    const byName = await viewer.get(`${T}/?name=site%20audit%20test`);
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json()).toMatchObject({ id: form.id, label: 'Site Audit Test form', responseCount: 0 });
    const bound = (await viewer.get(`${T}/?view=/tickets`)).json();
    expect(bound.contents.map((f: { id: number }) => f.id)).toContain(form.id);
    expect((await viewer.get(`${T}/?view=/devices`)).json().contents.map((f: { id: number }) => f.id)).not.toContain(form.id);
    const missing = await viewer.get(`${T}/?name=nothing-here`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe(FORM_MESSAGES.notFound);
  });

  it('refuses unknown field types and broken rules with a 400 naming the field', async () => {
    const bad = allFieldsTemplate();
    (bad.metadata.schema.properties as Record<string, unknown>).colour = { type: 'colourPicker', label: 'Colour' };
    const res = await admin.post(`${T}/`, bad);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Field "colour" has an unknown type "colourPicker"');
    const rule = allFieldsTemplate();
    (rule.metadata.schema.properties as Record<string, unknown>).count = { type: 'string', validation: { kind: 'number', min: 9, max: 1 } };
    const res2 = await admin.post(`${T}/`, rule);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().errors[0]).toMatchObject({ path: 'metadata.schema.properties.count.validation' });
    const deep = allFieldsTemplate();
    let layout: Record<string, unknown> = { type: 'Control', scope: '#/properties/title' };
    for (let level = 0; level <= FORM_LIMITS.groupDepth; level++) layout = { type: 'Group', label: `Level ${level}`, elements: [layout] };
    deep.metadata.uiSchema.elements = [layout] as never;
    const res3 = await admin.post(`${T}/`, deep);
    expect(res3.statusCode).toBe(400);
    expect(res3.json().detail).toBe(FORM_MESSAGES.groupTooDeep);
  });

  it('lets only form builders create and change forms', async () => {
    expect((await viewer.post(`${T}/`, allFieldsTemplate())).statusCode).toBe(403);
    const form = await createTemplate(admin);
    expect((await viewer.put(`${T}/${form.id}/`, allFieldsTemplate())).statusCode).toBe(403);
    expect((await viewer.get(`${T}/${form.id}/versions/`)).statusCode).toBe(403);
    expect((await admin.post(`${T}/`, { ...allFieldsTemplate(), name: form.name })).statusCode).toBe(409);
  });

  it('saves an edited description as a new version, lists versions and restores an old one', async () => {
    const body = allFieldsTemplate();
    const form = await createTemplate(admin, body);
    body.metadata.schema.properties.title.description = 'Edited in place';
    const put = await admin.put(`${T}/${form.id}/`, { ...body, version: 1 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ version: 2 });
    expect(put.json().metadata.schema.properties.title.description).toBe('Edited in place');
    expect((await admin.put(`${T}/${form.id}/`, { ...body, version: 1 })).statusCode).toBe(409);
    const versions = (await admin.get(`${T}/${form.id}/versions/`)).json().contents;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions[0].fieldCount).toBe(16);
    expect(versions.map((v: { createdBy: string | null }) => v.createdBy)).toEqual(Array(2).fill((await person('customeradmin')).name));
    const v1 = (await admin.get(`${T}/${form.id}/versions/1/`)).json();
    expect(v1.metadata.schema.properties.title.description).toBe('What you audited');
    const restored = await admin.post(`${T}/${form.id}/versions/1/restore/`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().version).toBe(3);
    expect(restored.json().metadata.schema.properties.title.description).toBe('What you audited');
    expect((await admin.get(`${T}/${form.id}/versions/9/`)).statusCode).toBe(404);
  });

  it('hides one tenant’s forms from another', async () => {
    const form = await createTemplate(admin);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`${T}/${form.id}/`)).statusCode).toBe(404);
    expect((await other.get(`${T}/?name=${encodeURIComponent(form.name)}`)).statusCode).toBe(404);
    expect((await other.post('/ifmapp/dynamic-forms/', { formTemplate: form.id, data: {} })).statusCode).toBe(404);
  });
});

describe('attachments', () => {
  it('stores an image checked by its content and refuses large or unknown files', async () => {
    const ok = await upload(viewer);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().contents[0]).toMatchObject({ name: 'photo.png', type: 'image/png', size: PNG.length });
    const file = await viewer.get(`/ifmapp/dynamic-forms-attachments/${ok.json().contents[0].uid}/`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    expect((await admin.get(`/ifmapp/dynamic-forms-attachments/${ok.json().contents[0].uid}/`)).statusCode).toBe(404);
    const big = await upload(viewer, [{ name: 'big.png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) }]);
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe(FORM_MESSAGES.attachmentTooLarge);
    const exe = await upload(viewer, [{ name: 'photo.png', data: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]) }]);
    expect(exe.statusCode).toBe(415);
  });
});

describe('responses', () => {
  it('refuses a response that breaks its template with the SPEC messages, accepts a valid one with its attachment', async () => {
    const form = await createTemplate(admin);
    const bad = await submit(viewer, form.id, { count: 'many', score: 9 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe(VALIDATION_MESSAGES.fillRequired);
    expect(bad.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'title', message: 'Title is required' },
        { path: 'count', message: VALIDATION_MESSAGES.notANumber },
        { path: 'score', message: 'Choose a rating from 1 to 5' },
      ]),
    );
    const uid = (await upload(viewer)).json().contents[0].uid;
    const data = {
      title: 'Main gate',
      outcome: 'Pass',
      powered: true,
      spent: '1hr 5min 0sec',
      shift: 'Day',
      score: 4,
      visited: '2026-11-23 09:30',
      ref: '17639000000001234',
      period: '2026/11/01 - 2026/11/23',
      photos: [uid],
      arrival: '09:15',
      area: ['Power', 'UPS'],
      count: 3,
    };
    const res = await submit(viewer, form.id, data);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ formTemplate: form.id, version: 1, data, ticketIds: [] });
    expect(res.json().attachments).toHaveLength(1);
    // The same upload cannot be used twice.
    expect((await submit(viewer, form.id, data)).statusCode).toBe(400);
  });

  it('checks asset and device answers against the sites the submitter may see', async () => {
    const form = await createTemplate(admin);
    const site = await makeSite(admin);
    const device = await makeDevice(admin, site.id);
    const own = await submit(admin, form.id, {
      title: 'x',
      score: 5,
      site: { id: site.id, label: site.name },
      device: { id: device.id, label: device.label },
    });
    expect(own.statusCode, own.body).toBe(201);
    const denied = await submit(viewer, form.id, { title: 'x', score: 5, site: { id: site.id, label: site.name } });
    expect(denied.statusCode).toBe(400);
    expect(denied.json().errors).toEqual([{ path: 'site', message: 'Choose from the list' }]);
  });

  it('lists responses newest first by keyset pages; others see only their own', async () => {
    const form = await createTemplate(admin);
    for (const title of ['one', 'two', 'three']) expect((await submit(admin, form.id, { title, score: 5 })).statusCode).toBe(201);
    expect((await submit(viewer, form.id, { title: 'mine', score: 5 })).statusCode).toBe(201);
    const first = (await admin.get(`${T}/${form.id}/responses/?limit=2`)).json();
    expect(first.totalCount).toBe(4);
    expect(first.contents.map((r: { data: { title: string } }) => r.data.title)).toEqual(['mine', 'three']);
    expect(first.contents.map((r: { submittedBy: unknown }) => r.submittedBy)).toEqual([
      await person('customer'),
      await person('customeradmin'),
    ]);
    expect((await admin.get(`${T}/${form.id}/responses/${first.contents[0].id}/`)).json().response.submittedBy).toEqual(
      await person('customer'),
    );
    const second = (await admin.get(`${T}/${form.id}/responses/?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.contents.map((r: { data: { title: string } }) => r.data.title)).toEqual(['two', 'one']);
    expect(second.nextCursor).toBeNull();
    const searched = (await admin.get(`${T}/${form.id}/responses/?search=thr`)).json();
    expect(searched).toMatchObject({ totalCount: 1 });
    const mine = (await viewer.get(`${T}/${form.id}/responses/`)).json();
    expect(mine.contents.map((r: { data: { title: string } }) => r.data.title)).toEqual(['mine']);
    const theirs = first.contents[1].id;
    expect((await viewer.get(`${T}/${form.id}/responses/${theirs}/`)).statusCode).toBe(404);
    expect((await admin.get(`${T}/${form.id}/`)).json().responseCount).toBe(4);
  });

  it('shows a response with the version it was filled against', async () => {
    const body = allFieldsTemplate();
    const form = await createTemplate(admin, body);
    const res = (await submit(viewer, form.id, { title: 'Before the change', score: 3 })).json();
    body.metadata.schema.properties.title.label = 'Renamed';
    await admin.put(`${T}/${form.id}/`, body);
    const view = (await viewer.get(`${T}/${form.id}/responses/${res.id}/`)).json();
    expect(view.response.version).toBe(1);
    expect(view.template).toMatchObject({ version: 1 });
    expect(view.template.metadata.schema.properties.title.label).toBe('Title');
  });

  it('refuses answers filled against an older version of the form, naming the change; the current version is accepted', async () => {
    const body = allFieldsTemplate();
    const form = await createTemplate(admin, body);
    const answers = { title: 'Filled offline', score: 4 };
    const atOne = await viewer.post('/ifmapp/dynamic-forms/', { formTemplate: form.id, data: answers, version: 1 });
    expect(atOne.statusCode, atOne.body).toBe(201);
    // published again while a phone kept a response filled against version 1
    (body.metadata.schema.properties as Record<string, unknown>).meter = { type: 'string', label: 'Meter reading' };
    (body.metadata.uiSchema.elements as unknown[]).push({ type: 'Control', scope: '#/properties/meter' });
    expect((await admin.put(`${T}/${form.id}/`, body)).statusCode).toBe(200);
    const stale = await viewer.post('/ifmapp/dynamic-forms/', { formTemplate: form.id, data: answers, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'form_changed',
      detail: FORM_MESSAGES.versionChanged(body.label, 1, 2, 'added Meter reading'),
    });
    expect((await admin.get(`${T}/${form.id}/`)).json().responseCount).toBe(1);
    const current = await viewer.post('/ifmapp/dynamic-forms/', { formTemplate: form.id, data: answers, version: 2 });
    expect(current.statusCode, current.body).toBe(201);
    expect(current.json().version).toBe(2);
  });

  it('keeps a draft on the server that resumes on another device and ends with the submission', async () => {
    const form = await createTemplate(admin);
    expect((await viewer.get(`${T}/${form.id}/draft/`)).json().data).toBeNull();
    expect((await viewer.put(`${T}/${form.id}/draft/`, { data: { title: 'Half done' } })).statusCode).toBe(200);
    const otherDevice = await t.login('customer');
    expect((await otherDevice.get(`${T}/${form.id}/draft/`)).json().data).toEqual({ title: 'Half done' });
    expect((await admin.get(`${T}/${form.id}/draft/`)).json().data).toBeNull();
    expect((await submit(otherDevice, form.id, { title: 'Done', score: 5 })).statusCode).toBe(201);
    expect((await viewer.get(`${T}/${form.id}/draft/`)).json().data).toBeNull();
  });
});

describe('submissions that act', () => {
  it('raises a ticket for a rating below the threshold, linked back to the form', async () => {
    const form = await createTemplate(admin, { ...allFieldsTemplate(), actions: { lowRating: { enabled: true } } });
    const good = (await submit(viewer, form.id, { title: 'Fine', score: 3 })).json();
    expect(good.ticketIds).toEqual([]);
    const low = (await submit(viewer, form.id, { title: 'Bad', score: 2 })).json();
    expect(low.ticketIds).toHaveLength(1);
    const ticket = await getTicket(admin, low.ticketIds[0]);
    expect(ticket.title).toBe(`Low rating (2/5) on ${form.name} form`);
    expect(ticket.additionalInformation).toMatchObject({ formId: form.id });
  });

  it('opens a work order with fields mapped from the answers', async () => {
    const site = await makeSite(admin);
    const form = await createTemplate(admin, {
      ...allFieldsTemplate(),
      actions: { openTicket: { enabled: true, type: 'WORKORDERTICKET', titleField: 'title', assetField: 'site' } },
    });
    const res = (
      await submit(admin, form.id, { title: 'Replace the UPS battery', score: 5, site: { id: site.id, label: site.name } })
    ).json();
    const ticket = await getTicket(admin, res.ticketIds[0]);
    expect(ticket).toMatchObject({ type: 'WORKORDERTICKET', title: 'Replace the UPS battery', locationId: site.id });
  });
});

describe('export', () => {
  /** The CSV of a finished form-responses export, as rows of cells (the test values hold no commas or quotes). */
  async function exportCsv(formTemplate: number) {
    const start = await admin.post('/api/exports/', { kind: 'form-responses', name: 'Audit responses', params: { formTemplate } });
    expect(start.statusCode, start.body).toBe(201);
    await t.app.jobs.drain();
    const job = (await admin.get('/api/batch-playback-download/'))
      .json()
      .jobs.find((j: { jobId: number }) => j.jobId === start.json().jobId);
    expect(job.status).toBe('ready-to-download');
    const csv = (await admin.get(job.tasks[0].path)).body as string;
    return csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
  }

  it('exports the responses of a form as CSV with one column per field of every version', async () => {
    const control = (k: string) => ({ type: 'Control', scope: `#/properties/${k}` });
    const body = allFieldsTemplate();
    // Groups nested three deep: the export flattens them in layout order.
    body.metadata.uiSchema.elements = [
      control('note'),
      control('title'),
      {
        type: 'Group',
        label: 'Details',
        elements: [
          ...'site device outcome powered spent shift score'.split(' ').map(control),
          {
            type: 'Group',
            label: 'Timing',
            elements: [...'visited ref period'.split(' ').map(control), { type: 'Group', label: 'Proof', elements: [control('photos')] }],
          },
          ...'arrival area count'.split(' ').map(control),
        ],
      },
    ] as never;
    const form = await createTemplate(admin, body);
    expect((await admin.get(`${T}/${form.id}/`)).json().metadata.uiSchema).toEqual(body.metadata.uiSchema);
    const uid = (await upload(admin)).json().contents[0].uid;
    const first = await submit(admin, form.id, { title: '=cmd', score: 5, area: ['Power', 'UPS'], count: 3, photos: [uid], powered: true });
    expect(first.statusCode, first.body).toBe(201);
    // Version 2 drops "count" and adds "weather" after the title.
    const { count: _dropped, ...properties } = body.metadata.schema.properties;
    const v2 = {
      ...body,
      metadata: {
        schema: { ...body.metadata.schema, properties: { ...properties, weather: { type: 'string', label: '=Weather' } } },
        uiSchema: JSON.parse(JSON.stringify(body.metadata.uiSchema).replace('"#/properties/count"', '"#/properties/weather"')),
      },
    };
    v2.metadata.uiSchema.elements.splice(2, 0, v2.metadata.uiSchema.elements[2].elements.pop());
    const put = await admin.put(`${T}/${form.id}/`, { ...v2, version: 1 });
    expect(put.statusCode, put.body).toBe(200);
    const second = await submit(admin, form.id, { title: 'Second', score: 2, weather: 'Rain', shift: 'Night' });
    expect(second.statusCode, second.body).toBe(201);

    expect((await viewer.post('/api/exports/', { kind: 'form-responses', name: 'x', params: { formTemplate: form.id } })).statusCode).toBe(
      403,
    );
    const [header, ...rows] = await exportCsv(form.id);
    expect(header?.join(',')).toBe(
      "Response ID,Form,Version,Submitted By,Submitted At,Title,'=Weather,Site,Device,Outcome,Powered,Time spent,Shift,Score,Visited,Reference,Period,Photos,Arrival,Area,People on site",
    );
    expect(rows).toHaveLength(2);
    const named = (row: string[] | undefined) => Object.fromEntries((header ?? []).map((h, i) => [h, row?.[i]]));
    const who = (await person('customeradmin')).name;
    expect(named(rows[0])).toMatchObject({
      'Response ID': String(second.json().id),
      Form: `${body.label}`,
      Version: '2',
      'Submitted By': who,
      Title: 'Second',
      "'=Weather": 'Rain',
      Shift: 'Night',
      Score: '2',
      'People on site': '',
    });
    expect(named(rows[1])).toMatchObject({
      'Response ID': String(first.json().id),
      Version: '1',
      Title: "'=cmd",
      "'=Weather": '',
      Powered: 'true',
      Score: '5',
      Photos: '1 file(s)',
      Area: 'Power > UPS',
      'People on site': '3',
    });
    expect(named(rows[1])['Submitted At']).toBe(new Date(first.json().createdAt).toISOString());
  });
});

describe('existing tenants', () => {
  it('get the forms permissions and menu once', async () => {
    const { up } = await import('../src/db/migrations/0601_forms_access.ts');
    const tenant = await t.db
      .insertInto('tenants')
      .values({
        slug: `old-${Date.now()}`,
        name: 'Old',
        logo: null,
        version_info: '{}',
        settings: JSON.stringify({ menu: [{ label: 'Home', value: '/' }] }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('groups')
      .values([
        { tenant_id: tenant.id, name: 'Admins', permissions: JSON.stringify([{ codename: 'add_user', name: 'Can add user' }]) },
        { tenant_id: tenant.id, name: 'Viewers', permissions: JSON.stringify([{ codename: 'view_ticket', name: 'Can view ticket' }]) },
      ])
      .execute();
    await up(t.db as never);
    await up(t.db as never);
    const settings = (await t.db.selectFrom('tenants').select('settings').where('id', '=', tenant.id).executeTakeFirstOrThrow())
      .settings as {
      menu: Array<{ label: string }>;
    };
    expect(settings.menu.map((m) => m.label)).toEqual(['Home', 'Forms']);
    const groups = await t.db
      .selectFrom('groups')
      .select(['name', 'permissions'])
      .where('tenant_id', '=', tenant.id)
      .orderBy('name')
      .execute();
    const codes = (g: (typeof groups)[number]) => (g.permissions as Array<{ codename: string }>).map((p) => p.codename);
    expect(codes(groups[0] as (typeof groups)[number])).toEqual(['add_user', 'change_form_template', 'view_form_response']);
    expect(codes(groups[1] as (typeof groups)[number])).toEqual(['view_ticket']);
  });
});
