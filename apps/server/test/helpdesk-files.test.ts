import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ticket } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attach, getTicket, history, makeSite, multipart, PNG, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let fe: TestClient;
let vendor: TestClient;
let intruder: TestClient;
let site: { id: number };
const dataDir = mkdtempSync(join(tmpdir(), 'helpdesk-files-'));

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  fe = await t.login('fieldexecutive');
  vendor = await t.login('vendor');
  intruder = await t.login('customeradmin', HOST_B);
  site = await makeSite(admin, 'Files site');
  await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, 'customer'), assetIds: [site.id] });
  await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, 'vendor'), assetIds: [site.id] });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (client: TestClient, id: number, files: Parameters<typeof multipart>[0], url = `/helpdesk/tickets/${id}/attachments/`) => {
  const body = multipart(files);
  return client.request({ method: 'POST', url, payload: body.payload, headers: body.headers });
};

describe('attachments', () => {
  let ticket: Ticket;
  beforeAll(async () => {
    ticket = await raise(customer, { locationId: site.id });
  });

  it('stores an upload checked by its content and serves it back as an attachment', async () => {
    const res = await attach(customer, ticket.id, [{ name: 'front door.png', data: PNG }]);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as Ticket;
    expect(body.attachmentCount).toBe(1);
    expect(body.attachments[0]).toMatchObject({
      name: 'front door.png',
      type: 'image/png',
      size: PNG.length,
      updatedBy: 'customer@demo.example.com',
    });
    expect(body.thumbnail).toBe(body.attachments[0]?.src);
    const file = await customer.get(body.attachments[0]?.src as string);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="front door.png"; filename*=UTF-8''front%20door.png`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.rawPayload, PNG)).toBe(0);
    expect((await history(customer, ticket.id)).at(-1)).toMatchObject({
      action: 'attachment',
      changes: [{ field: 'attachments', to: ['front door.png'] }],
    });
  });

  it('decides the type by content: a script named .png is text, an executable is refused', async () => {
    const text = await attach(customer, ticket.id, [
      { name: 'notes.png', data: Buffer.from('<script>alert(1)</script>'), type: 'image/png' },
    ]);
    expect(text.statusCode).toBe(201);
    const stored = (text.json() as Ticket).attachments.find((a) => a.name === 'notes.png');
    expect(stored?.type).toBe('text/plain');
    const elf = await attach(customer, ticket.id, [
      { name: 'tool.pdf', data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]) },
    ]);
    expect(elf.statusCode).toBe(415);
  });

  it('refuses a file over 1 MB with the spec message', async () => {
    const big = await attach(customer, ticket.id, [{ name: 'big.png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) }]);
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe('Please Select Attatchment Size less Than 1 MB');
    const exact = await attach(customer, ticket.id, [
      { name: 'edge.png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024 - PNG.length)]) },
    ]);
    expect(exact.statusCode).toBe(201);
  });

  it('checks access on every file route: other tenants and onlookers get nothing', async () => {
    const current = await getTicket(customer, ticket.id);
    const src = current.attachments[0]?.src as string;
    expect((await intruder.get(src)).statusCode).toBe(404);
    expect((await attach(intruder, ticket.id)).statusCode).toBe(404);
    expect((await intruder.delete(src)).statusCode).toBe(404);
    const hidden = await raise(admin, {});
    expect((await attach(customer, hidden.id)).statusCode).toBe(404);
    // The vendor sees the site's tickets; the customer sees another's ticket at their site but may not edit it.
    expect((await vendor.get(src)).statusCode).toBe(200);
    const others = await raise(admin, { locationId: site.id });
    expect((await attach(customer, others.id)).statusCode).toBe(403);
    const wrongTicket = src.replace(`/tickets/${ticket.id}/`, `/tickets/${hidden.id}/`);
    expect((await admin.get(wrongTicket)).statusCode).toBe(404);
  });

  it('removes an attachment, with its history entry and the thumbnail updated', async () => {
    const current = await getTicket(customer, ticket.id);
    const png = current.attachments.find((a) => a.type === 'image/png') as Ticket['attachments'][number];
    const res = await customer.delete(png.src);
    expect(res.statusCode).toBe(200);
    const after = res.json() as Ticket;
    expect(after.attachments.map((a) => a.id)).not.toContain(png.id);
    expect(after.attachmentCount).toBe(current.attachmentCount - 1);
    expect((await customer.get(png.src)).statusCode).toBe(404);
  });

  it('needs multipart', async () => {
    const res = await customer.post(`/helpdesk/tickets/${ticket.id}/attachments/`, { file: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Send the files as multipart/form-data');
  });
});

describe('CSV import', () => {
  const csv = (text: string) => [{ name: 'tickets.csv', data: Buffer.from(text), type: 'text/csv', field: 'file' }];

  it('checks every row in a dry run: values trimmed, numbers and JSON coerced, errors by row', async () => {
    const file = [
      'Summary,Issue Type,Priority,locationId,metadata,Due Date,colour',
      `  Door sensor offline  ,Security, major ,${site.id},"{""zone"": 4}",2031-01-05,red`,
      'Camera blurred,Video,,abc,{not json},,blue',
      ',Video,MINOR,,,,',
      'Fan noise,HVAC,LOW,,"[1,2",2031-13-40,',
    ].join('\r\n');
    const res = await upload(admin, 0, csv(file), '/helpdesk/tickets/import/?dryRun=true');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dryRun: true, totalRows: 4, validRows: 1, created: [], ignoredColumns: ['colour'] });
    expect(body.columns).toEqual(['title', 'event', 'priority', 'locationId', 'metadata', 'dueDate']);
    expect(body.preview[0]).toMatchObject({
      row: 2,
      valid: true,
      title: 'Door sensor offline',
      priority: 'MAJOR',
      locationId: site.id,
      metadata: { zone: 4 },
    });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'locationId', message: 'Input Value is not a Number' },
        { row: 4, field: 'title', message: expect.any(String) },
        { row: 5, field: 'dueDate', message: 'DateTime validation failed' },
      ]),
    );
    expect(body.preview[1].metadata).toBeNull();
    expect((await admin.get('/helpdesk/tickets/?search=door%20sensor')).json().totalCount).toBe(0);
  });

  it('creates the valid rows in one go, each with its history', async () => {
    const file = `title,event,priority,dueDate\nPump leak,Plumbing,MAJOR,2031-02-01 10:30\nLight out,Electrical,,\nBad,Electrical,NOPE,\n`;
    const res = await upload(admin, 0, csv(file), '/helpdesk/tickets/import/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.validRows).toBe(2);
    expect(body.created).toHaveLength(2);
    expect(body.errors).toEqual([{ row: 4, field: null, message: 'Unknown priority: NOPE' }]);
    const pump = await getTicket(admin, body.created[0].id);
    expect(pump).toMatchObject({ title: 'Pump leak', priority: 'MAJOR', dueDate: '2031-02-01T10:30:00.000Z', status: 'OPEN' });
    expect((await history(admin, pump.id))[0]).toMatchObject({ action: 'created', note: 'Imported from a CSV file' });
  });

  it('says when a file holds nothing to import, and keeps import for those who may add tickets', async () => {
    const empty = await upload(admin, 0, csv('title,event\n'), '/helpdesk/tickets/import/');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('File contains no valid data for importing');
    const noColumns = await upload(admin, 0, csv('foo,bar\n1,2\n'), '/helpdesk/tickets/import/');
    expect(noColumns.json().detail).toContain('File contains no valid data for importing');
    expect((await upload(customer, 0, csv('title,event\nx,y\n'), '/helpdesk/tickets/import/')).statusCode).toBe(403);
  });

  it('imports a big file in the background, batch by batch, with progress and errors kept', async () => {
    const rows = Array.from({ length: 450 }, (_, i) => (i === 10 ? 'Broken row,,,' : `Bulk ticket ${i},Bulk,LOW,`));
    const res = await upload(fe, 0, csv(`title,event,priority,locationId\n${rows.join('\n')}\n`), '/helpdesk/imports/');
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    expect(started).toMatchObject({ status: 'queued', totalRows: 450, processedRows: 0 });
    await t.app.jobs.drain();
    const done = (await fe.get(`/helpdesk/imports/${started.id}/`)).json();
    expect(done).toMatchObject({ status: 'completed', processedRows: 450, createdCount: 449, errorCount: 1 });
    expect(done.errors[0]).toMatchObject({ row: 12, field: 'event' });
    expect((await fe.get('/helpdesk/tickets/?search=bulk&limit=1')).json().totalCount).toBe(449);
    expect((await intruder.get(`/helpdesk/imports/${started.id}/`)).statusCode).toBe(404);
    expect((await admin.get('/helpdesk/imports/')).json().contents[0].id).toBe(started.id);
  });
});

describe('issue types', () => {
  it('are managed by admins and, once defined, govern the issue type of new tickets', async () => {
    const created = await admin.post('/helpdesk/issue-types/', {
      name: 'Power Failure',
      subTypes: ['Mains', 'Generator'],
      ticketTypes: ['TICKET', 'WORKORDERTICKET'],
      defaultPriority: 'MAJOR',
      slaHours: 4,
    });
    expect(created.statusCode, created.body).toBe(201);
    const issue = created.json();
    expect((await fe.post('/helpdesk/issue-types/', { name: 'X' })).statusCode).toBe(403);
    expect((await admin.post('/helpdesk/issue-types/', { name: 'power failure' })).statusCode).toBe(409);
    expect((await admin.post('/helpdesk/issue-types/', { name: 'Y', defaultPriority: 'NOPE' })).statusCode).toBe(400);

    const ticket = await raise(customer, { event: 'power failure', subEvent: 'generator' });
    expect(ticket).toMatchObject({ event: 'Power Failure', priority: 'MAJOR' });
    expect(new Date(ticket.dueDate as string).getTime() - Date.now()).toBeLessThan(4 * 3600_000 + 60_000);
    const unknown = await customer.post('/helpdesk/tickets/', { title: 'x', event: 'Alien invasion' });
    expect(unknown.json().detail).toBe('Unknown issue type: Alien invasion');
    const badSub = await customer.post('/helpdesk/tickets/', { title: 'x', event: 'Power Failure', subEvent: 'Solar' });
    expect(badSub.json().detail).toBe('Unknown issue sub type for this issue type: Solar');
    expect((await put(customer, ticket.id, { subEvent: 'Solar' })).statusCode).toBe(400);

    const list = (await customer.get('/helpdesk/issue-types/?ticketType=TICKET&search=power')).json();
    expect(list.contents.map((i: { name: string }) => i.name)).toEqual(['Power Failure']);
    expect((await customer.get('/helpdesk/issue-types/?ticketType=AlarmTicket')).json().totalCount).toBe(0);
    const edited = await admin.put(`/helpdesk/issue-types/${issue.id}/`, { ...issue, subTypes: ['Mains', 'Generator', 'Solar'] });
    expect(edited.json().subTypes).toEqual(['Mains', 'Generator', 'Solar']);
    expect((await intruder.get(`/helpdesk/issue-types/${issue.id}/`)).statusCode).toBe(404);
    expect((await intruder.delete(`/helpdesk/issue-types/${issue.id}/`)).statusCode).toBe(404);
    expect((await admin.delete(`/helpdesk/issue-types/${issue.id}/`)).statusCode).toBe(204);
  });
});
