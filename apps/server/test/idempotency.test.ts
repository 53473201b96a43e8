import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_TIME_MESSAGES, IDEMPOTENCY_MESSAGES } from '../src/platform/idempotency/index.ts';
import { allFieldsTemplate, createTemplate } from './forms-fixtures.ts';
import { getTicket, raise, userId } from './helpdesk-fixtures.ts';
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

const count = async (table: 'tickets' | 'ticket_comments' | 'ticket_history' | 'form_responses' | 'attendance_records') =>
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
