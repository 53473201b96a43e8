import { expect } from 'vitest';
import { multipart, PNG } from './helpdesk-fixtures.ts';
import type { TestApp, TestClient } from './support/harness.ts';

let seq = 0;

/** A template with one field of every SPEC 3 type, the value fields in a Group. */
export function allFieldsTemplate(name = `Audit ${++seq}`) {
  return {
    name,
    label: `${name} form`,
    description: 'Monthly site audit',
    views: ['/tickets', '/assets/view/{id}'],
    metadata: {
      schema: {
        type: 'object',
        properties: {
          title: { type: 'string', label: 'Title', description: 'What you audited' },
          site: { type: 'assetApiSelect', label: 'Site' },
          device: { type: 'deviceApiSelect', label: 'Device' },
          outcome: { type: 'button', label: 'Outcome', enum: ['Pass', 'Fail'] },
          powered: { type: 'toggle', label: 'Powered' },
          spent: { type: 'duration', label: 'Time spent' },
          shift: { type: 'radio', label: 'Shift', enum: ['Day', 'Night'], inline: true },
          score: { type: 'rating', label: 'Score', max: 5 },
          visited: { type: 'dateTime', label: 'Visited', withTime: true },
          ref: { type: 'randomid', label: 'Reference' },
          period: { type: 'daterange', label: 'Period' },
          photos: { type: 'filerenderer', label: 'Photos' },
          arrival: { type: 'time', label: 'Arrival' },
          area: { type: 'multiLevelSelect', label: 'Area', options: [{ label: 'Power', children: [{ label: 'UPS' }] }] },
          note: { type: 'labelrenderer', label: 'Read the checklist first' },
          count: { type: 'string', label: 'People on site', inputType: 'number', validation: { kind: 'number', min: 0, max: 50 } },
        },
        required: ['title', 'score'],
      },
      uiSchema: {
        type: 'VerticalLayout',
        elements: [
          { type: 'Control', scope: '#/properties/note' },
          { type: 'Control', scope: '#/properties/title' },
          {
            type: 'Group',
            label: 'Details',
            elements: 'site device outcome powered spent shift score visited ref period photos arrival area count'
              .split(' ')
              .map((k) => ({ type: 'Control', scope: `#/properties/${k}` })),
          },
        ],
      },
    },
  };
}

export async function createTemplate(admin: TestClient, body: Record<string, unknown> = allFieldsTemplate()) {
  const res = await admin.post('/ifmapp/dynamic-form-templates/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; version: number; metadata: { schema: { properties: Record<string, unknown> } } };
}

export async function upload(client: TestClient, files = [{ name: 'photo.png', data: PNG }]) {
  const body = multipart(files);
  return client.request({ method: 'POST', url: '/ifmapp/dynamic-forms-attachments/', payload: body.payload, headers: body.headers });
}

export async function submit(client: TestClient, formTemplate: number, data: Record<string, unknown>, attachments: string[] = []) {
  return client.post('/ifmapp/dynamic-forms/', { formTemplate, data, attachments: attachments.map((uid) => ({ uid })) });
}

type Fixture = (t: TestApp) => Promise<{ params: Record<string, string | number>; payload?: unknown }>;

async function tenantAForm(t: TestApp) {
  const admin = await t.login('customeradmin');
  const form = await createTemplate(admin);
  const res = await submit(admin, form.id, { title: 'A only', score: 4 });
  expect(res.statusCode, res.body).toBe(201);
  return { admin, form, response: res.json() as { id: number } };
}

const T = '/ifmapp/dynamic-form-templates';
export const formsObjectRoutes: Record<string, Fixture> = {
  [`GET ${T}/:id/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  [`PUT ${T}/:id/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id }, payload: allFieldsTemplate() }),
  [`DELETE ${T}/:id/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  [`GET ${T}/:id/versions/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  [`GET ${T}/:id/versions/:version/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id, version: 1 } }),
  [`POST ${T}/:id/versions/:version/restore/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id, version: 1 } }),
  [`GET ${T}/:id/responses/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  [`GET ${T}/:id/responses/:responseId/`]: async (t) => {
    const { form, response } = await tenantAForm(t);
    return { params: { id: form.id, responseId: response.id } };
  },
  [`GET ${T}/:id/draft/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  [`PUT ${T}/:id/draft/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id }, payload: { data: { title: 'x' } } }),
  [`DELETE ${T}/:id/draft/`]: async (t) => ({ params: { id: (await tenantAForm(t)).form.id } }),
  'GET /ifmapp/dynamic-forms-attachments/:uid/': async (t) => {
    const admin = await t.login('customeradmin');
    const res = await upload(admin);
    expect(res.statusCode, res.body).toBe(201);
    return { params: { uid: res.json().contents[0].uid } };
  },
};
