import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_TIME_MESSAGES, IDEMPOTENCY_MESSAGES } from '../src/platform/idempotency/index.ts';
import { allFieldsTemplate, createTemplate } from './forms-fixtures.ts';
import { getTicket, multipart, PNG, raise, userId } from './helpdesk-fixtures.ts';
import { makeItem, makeStore, receive } from './inventory-fixtures.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite } from './support/sites-factory.ts';

/**
 * What the phone's outbox relies on: a change sent again with the same Idempotency-Key (its answer was lost on the
 * way back) changes nothing the second time and gets the first answer, for every kind of action the outbox sends.
 */
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let site: { id: number };
let n = 0;
const key = () => `outbox-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  site = await makeSite(admin, { name: 'Idempotent Depot', latitude: 18.52, longitude: 73.85 });
  const fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  expect((await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [site.id] })).statusCode).toBe(200);
});
afterAll(() => t?.close());

/** Sends one request twice with one key, as an outbox does after a lost answer. */
async function twice(client: TestClient, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const headers = { 'idempotency-key': key() };
  const first = await client.request({ method, url, payload: payload as never, headers });
  const second = await client.request({ method, url, payload: payload as never, headers });
  return { first, second };
}

type Counted =
  | 'tickets'
  | 'ticket_comments'
  | 'ticket_history'
  | 'form_responses'
  | 'form_attachments'
  | 'attendance_records'
  | 'inventory_movements';
const count = async (table: Counted) =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key', () => {
  it('raises one ticket for two sends of the same request, and answers both alike', async () => {
    const before = await count('tickets');
    const { first, second } = await twice(field, 'POST', '/helpdesk/tickets/', {
      title: 'Generator not starting',
      event: 'Power Failure',
      locationId: site.id,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    expect(await count('tickets')).toBe(before + 1);
  });

  it('adds one comment and makes one status change', async () => {
    const ticket = await raise(field, { locationId: site.id });
    const comments = await count('ticket_comments');
    const comment = await twice(field, 'POST', `/helpdesk/tickets/${ticket.id}/comments/`, { text: 'On site, checking the panel' });
    expect(comment.first.statusCode, comment.first.body).toBe(201);
    expect(comment.second.json()).toEqual(comment.first.json());
    expect(await count('ticket_comments')).toBe(comments + 1);

    const history = await count('ticket_history');
    const current = await getTicket(field, ticket.id);
    // The second send carries the version the first one already used: without the key it would be a conflict.
    const moved = await twice(field, 'PUT', `/helpdesk/tickets/${ticket.id}/`, { version: current.version, status: 'INPROGRESS' });
    expect(moved.first.statusCode, moved.first.body).toBe(200);
    expect(moved.second.statusCode).toBe(200);
    expect(moved.second.json().version).toBe(moved.first.json().version);
    expect(await count('ticket_history')).toBe(history + 1);
  });

  it('stores one form response', async () => {
    const form = await createTemplate(admin, allFieldsTemplate());
    const before = await count('form_responses');
    const { first, second } = await twice(admin, 'POST', '/ifmapp/dynamic-forms/', {
      formTemplate: form.id,
      data: { title: 'Pump room', count: 3, score: 4 },
      attachments: [],
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(first.statusCode);
    expect(await count('form_responses')).toBe(before + 1);
  });

  it('checks in once', async () => {
    const before = await count('attendance_records');
    const { first, second } = await twice(field, 'POST', '/api/attendance/check-in/', {
      assetId: site.id,
      latitude: 18.52,
      longitude: 73.85,
      accuracy: 10,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    expect(await count('attendance_records')).toBe(before + 1);
  });

  it('checks out once: the repeat closes nothing else and gets the same record', async () => {
    const { first, second } = await twice(field, 'POST', '/api/attendance/check-out/', { latitude: 18.52, longitude: 73.85, accuracy: 12 });
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect((await field.get('/api/attendance/current/')).json().record).toBeNull();
  });

  it('ticks a checklist item and records a cost once', async () => {
    const ticket = await raise(field, { locationId: site.id });
    const current = await getTicket(field, ticket.id);
    const history = await count('ticket_history');
    const { first, second } = await twice(field, 'PUT', `/helpdesk/tickets/${ticket.id}/`, {
      version: current.version,
      checklist: [{ id: 'valve', text: 'Close the valve', done: true }],
      costIncurred: { amount: 450, currency: 'INR', note: 'Gasket' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(first.json().checklist).toMatchObject([{ id: 'valve', done: true }]);
    expect(await count('ticket_history')).toBe(history + 1);
  });

  it('rates a finished ticket once: a low rating raises one follow-up', async () => {
    const ticket = await raise(admin, { locationId: site.id });
    const current = await getTicket(admin, ticket.id);
    expect((await admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: current.version, status: 'RESOLVED' })).statusCode).toBe(200);
    const tickets = await count('tickets');
    const { first, second } = await twice(admin, 'POST', `/helpdesk/tickets/${ticket.id}/rating/`, {
      rating: 1,
      comment: 'Came back twice',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await count('tickets')).toBe(tickets + 1);
  });

  it('issues stock to a ticket once: on hand goes down once', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, store.id, 5);
    const ticket = await raise(admin, { locationId: site.id });
    const movements = await count('inventory_movements');
    const { first, second } = await twice(admin, 'POST', '/iotapp/inventory/movements/', {
      kind: 'ISSUE',
      itemId: item.id,
      storeId: store.id,
      ticketId: ticket.id,
      quantity: 2,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await count('inventory_movements')).toBe(movements + 1);
    const stock = (await admin.get(`/iotapp/inventory/items/${item.id}/`)).json() as { stock: { storeId: number; onHand: number }[] };
    expect(stock.stock.find((s) => s.storeId === store.id)?.onHand).toBe(3);
  });

  it('stores a form’s photo once, and the response naming it once', async () => {
    const form = await createTemplate(admin, allFieldsTemplate());
    const attachments = await count('form_attachments');
    const headers = { 'idempotency-key': key() };
    const body = multipart([{ name: 'meter.png', data: PNG, type: 'image/png' }]);
    const send = () =>
      admin.request({
        method: 'POST',
        url: '/ifmapp/dynamic-forms-attachments/',
        payload: body.payload,
        headers: { ...body.headers, ...headers },
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().contents[0].uid).toBe(first.json().contents[0].uid);
    expect(await count('form_attachments')).toBe(attachments + 1);
    const uid = first.json().contents[0].uid as string;
    const responses = await count('form_responses');
    const submitted = await twice(admin, 'POST', '/ifmapp/dynamic-forms/', {
      formTemplate: form.id,
      data: { title: 'Meter room', count: 1, score: 5 },
      attachments: [{ uid }],
    });
    expect(submitted.first.statusCode, submitted.first.body).toBe(201);
    expect(submitted.second.json()).toEqual(submitted.first.json());
    expect(await count('form_responses')).toBe(responses + 1);
  });

  it('answers a refusal again as a refusal, and a repeat after it changes nothing', async () => {
    const { first, second } = await twice(field, 'POST', '/helpdesk/tickets/999999/comments/', { text: 'lost' });
    expect(first.statusCode).toBe(404);
    expect(second.statusCode).toBe(404);
    expect(second.json()).toEqual(first.json());
  });

  it('refuses a key used before for a different request, and a malformed key', async () => {
    const headers = { 'idempotency-key': key() };
    const ticket = await raise(field, { locationId: site.id });
    const url = `/helpdesk/tickets/${ticket.id}/comments/`;
    expect((await field.request({ method: 'POST', url, payload: { text: 'one' }, headers })).statusCode).toBe(201);
    const reused = await field.request({ method: 'POST', url, payload: { text: 'two' }, headers });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ detail: IDEMPOTENCY_MESSAGES.reused, code: 'idempotency_key_reused' });
    const bad = await field.request({ method: 'POST', url, payload: { text: 'three' }, headers: { 'idempotency-key': 'no spaces' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ detail: IDEMPOTENCY_MESSAGES.invalidKey });
  });

  it('keeps each user’s keys apart: the same key from another user is a request of its own', async () => {
    const headers = { 'idempotency-key': key() };
    const ticket = await raise(admin, { locationId: site.id });
    const url = `/helpdesk/tickets/${ticket.id}/comments/`;
    const mine = await field.request({ method: 'POST', url, payload: { text: 'same words' }, headers });
    const theirs = await admin.request({ method: 'POST', url, payload: { text: 'same words' }, headers });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
  });
});

describe('X-Action-Time', () => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

  it('keeps the time a change was done at the site apart from its arrival, in the history, the comments and the activity log', async () => {
    const ticket = await raise(field, { locationId: site.id });
    const current = await getTicket(field, ticket.id);
    const doneAt = minutesAgo(90);
    const headers = { 'idempotency-key': key(), 'x-action-time': doneAt };
    const url = `/helpdesk/tickets/${ticket.id}/`;
    const payload = { version: current.version, status: 'INPROGRESS', note: 'Started in the basement' };
    const first = await field.request({ method: 'PUT', url, payload, headers });
    expect(first.statusCode, first.body).toBe(200);
    // the same send again (its answer was lost): one change, one history entry, one activity entry
    expect((await field.request({ method: 'PUT', url, payload, headers })).statusCode).toBe(200);

    const history = (await field.get(`/helpdesk/tickets/${ticket.id}/history/`)).json().contents as {
      action: string;
      note: string | null;
      updatedAt: string;
      performedAt: string | null;
    }[];
    const moved = history.filter((h) => h.note === 'Started in the basement');
    expect(moved).toHaveLength(1);
    expect(moved[0]?.performedAt).toBe(doneAt);
    expect(Date.parse(moved[0]?.updatedAt ?? '')).toBeGreaterThan(Date.parse(doneAt));
    expect(history.find((h) => h.action === 'created')?.performedAt).toBeNull();

    const commentAt = minutesAgo(80);
    const comment = await field.post(
      `/helpdesk/tickets/${ticket.id}/comments/`,
      { text: 'Panel replaced' },
      { headers: { 'x-action-time': commentAt } },
    );
    expect(comment.statusCode, comment.body).toBe(201);
    expect(comment.json().performedAt).toBe(commentAt);

    const log = await admin.get(`/iotapp/user-activity-logs/?objectType=ticket&action=ticket.update`);
    expect(log.statusCode, log.body).toBe(200);
    const entries = (log.json().contents as { objectId: string; performedAt: string | null }[]).filter(
      (e) => e.objectId === String(ticket.id),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.performedAt).toBe(doneAt);
  });

  it('keeps a check-in and check-out done without a connection at the time they were done, fenced at the recorded position', async () => {
    const far = await field.request({
      method: 'POST',
      url: '/api/attendance/check-in/',
      payload: { assetId: site.id, latitude: 18.6, longitude: 73.85, accuracy: 10 },
      headers: { 'idempotency-key': key(), 'x-action-time': minutesAgo(50) },
    });
    expect(far.statusCode).toBe(400);
    expect(far.json().code).toBe('outside_geofence');

    const inAt = minutesAgo(40);
    const checkIn = await field.request({
      method: 'POST',
      url: '/api/attendance/check-in/',
      payload: { assetId: site.id, latitude: 18.5201, longitude: 73.8501, accuracy: 15 },
      headers: { 'idempotency-key': key(), 'x-action-time': inAt },
    });
    expect(checkIn.statusCode, checkIn.body).toBe(201);
    expect(checkIn.json().checkInAt).toBe(inAt);
    expect(Date.parse(checkIn.json().receivedAt.checkIn)).toBeGreaterThan(Date.parse(inAt));
    // a camera still now would show the site at arrival: a late check-in has none
    expect(checkIn.json().snapshot.state).toBe('none');

    const early = await field.request({
      method: 'POST',
      url: '/api/attendance/check-out/',
      payload: { latitude: 18.52, longitude: 73.85 },
      headers: { 'x-action-time': minutesAgo(45) },
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().code).toBe('check_out_before_check_in');

    const outAt = minutesAgo(10);
    const checkOut = await field.request({
      method: 'POST',
      url: '/api/attendance/check-out/',
      payload: { latitude: 18.52, longitude: 73.85, accuracy: 8 },
      headers: { 'idempotency-key': key(), 'x-action-time': outAt },
    });
    expect(checkOut.statusCode, checkOut.body).toBe(200);
    expect(checkOut.json()).toMatchObject({ checkInAt: inAt, checkOutAt: outAt, hours: 0.5 });
    expect(Date.parse(checkOut.json().receivedAt.checkOut)).toBeGreaterThan(Date.parse(outAt));

    const log = await admin.get(`/iotapp/user-activity-logs/?objectType=attendance&action=attendance.check-out`);
    const entry = (log.json().contents as { objectId: string; performedAt: string | null }[]).find(
      (e) => e.objectId === String(checkOut.json().id),
    );
    expect(entry?.performedAt).toBe(outAt);
  });

  it('keeps the time a spare was issued, a checklist item ticked and a form submitted without a connection', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, store.id, 2);
    const ticket = await raise(admin, { locationId: site.id });
    const issuedAt = minutesAgo(30);
    const issued = await admin.post(
      '/iotapp/inventory/movements/',
      { kind: 'ISSUE', itemId: item.id, storeId: store.id, ticketId: ticket.id, quantity: 1 },
      { headers: { 'x-action-time': issuedAt } },
    );
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().movements[0].performedAt).toBe(issuedAt);
    const listed = (await admin.get(`/iotapp/inventory/movements/?ticketId=${ticket.id}`)).json().contents as {
      performedAt: string | null;
    }[];
    expect(listed[0]?.performedAt).toBe(issuedAt);

    const tickedAt = minutesAgo(20);
    const current = await getTicket(admin, ticket.id);
    const ticked = await admin.put(
      `/helpdesk/tickets/${ticket.id}/`,
      { version: current.version, checklist: [{ id: 'fuse', text: 'Replace the fuse', done: true }] },
      { headers: { 'x-action-time': tickedAt } },
    );
    expect(ticked.statusCode, ticked.body).toBe(200);
    expect(ticked.json().checklist[0].doneAt).toBe(tickedAt);

    const form = await createTemplate(admin, allFieldsTemplate());
    const submittedAt = minutesAgo(15);
    const submitted = await admin.post(
      '/ifmapp/dynamic-forms/',
      { formTemplate: form.id, data: { title: 'Basement pump', count: 2, score: 3 }, attachments: [] },
      { headers: { 'x-action-time': submittedAt } },
    );
    expect(submitted.statusCode, submitted.body).toBe(201);
    expect(submitted.json().performedAt).toBe(submittedAt);
    expect(Date.parse(submitted.json().createdAt)).toBeGreaterThan(Date.parse(submittedAt));
  });

  it('refuses a time without a zone, in the future or too old, and leaves the key free for the corrected send', async () => {
    const ticket = await raise(field, { locationId: site.id });
    const url = `/helpdesk/tickets/${ticket.id}/comments/`;
    const idempotency = key();
    const send = (at: string) =>
      field.request({
        method: 'POST',
        url,
        payload: { text: 'Checked' },
        headers: { 'idempotency-key': idempotency, 'x-action-time': at },
      });
    const cases: [string, string][] = [
      ['2026-03-01 09:12', ACTION_TIME_MESSAGES.invalid],
      ['yesterday', ACTION_TIME_MESSAGES.invalid],
      [new Date(Date.now() + 3600_000).toISOString(), ACTION_TIME_MESSAGES.future],
      [new Date(Date.now() - 40 * 24 * 3600_000).toISOString(), ACTION_TIME_MESSAGES.tooOld],
    ];
    for (const [at, message] of cases) {
      const refused = await send(at);
      expect(refused.statusCode, at).toBe(400);
      expect(refused.json()).toMatchObject({ detail: message, code: 'invalid_action_time' });
    }
    const accepted = await send(minutesAgo(5));
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});
