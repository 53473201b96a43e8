import { HELPDESK_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDevice, makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/** A user limited to some sites can place tickets only at those sites, on devices that are there. */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let mine: { id: number; name: string };
let hidden: { id: number; name: string };
let myDevice: { id: number; label: string };
let hiddenDevice: { id: number; label: string };
let otherVisible: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  mine = await makeSite(admin, 'Visible Depot');
  otherVisible = await makeSite(admin, 'Second Depot');
  hidden = await makeSite(admin, 'Secret Vault');
  myDevice = await makeDevice(admin, mine.id, 'GEN-VISIBLE');
  hiddenDevice = await makeDevice(admin, hidden.id, 'GEN-SECRET');
  const res = await admin.post('/iotapp/user-assets/', {
    userId: await userId(t, t.tenantA, 'customer'),
    assetIds: [mine.id, otherVisible.id],
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) =>
  customer.post('/helpdesk/tickets/', { title: 'Generator not starting', event: 'Power Failure', ...body });

describe('ticket site scope', () => {
  it('refuses a hidden site or device on create with the same answer as a missing one, naming neither', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ locationId: hidden.id }, HELPDESK_MESSAGES.unknownLocation],
      [{ entityId: hiddenDevice.id }, HELPDESK_MESSAGES.unknownEntity],
      [{ locationId: mine.id, entityId: hiddenDevice.id }, HELPDESK_MESSAGES.unknownEntity],
      [{ locationId: 999_999 }, HELPDESK_MESSAGES.unknownLocation],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toBe(message);
      expect(res.body).not.toContain('Secret');
      expect(res.body).not.toContain('GEN-SECRET');
    }
  });

  it('refuses a device that is not at the given site', async () => {
    const res = await create({ locationId: otherVisible.id, entityId: myDevice.id });
    expect(res.statusCode).toBe(400);
    // says which device is where, in words the user can act on
    expect(res.json().detail).toBe(HELPDESK_MESSAGES.deviceAtOtherSite('GEN-VISIBLE · Visible Depot', 'Second Depot'));
    const ok = await raise(customer, { locationId: mine.id, entityId: myDevice.id });
    expect(ok.additionalInformation).toMatchObject({ assetLabel: 'Visible Depot', deviceLabel: 'GEN-VISIBLE' });
  });

  it('refuses moving a ticket to a hidden site or device on update', async () => {
    const ticket = await raise(customer, { locationId: mine.id });
    const toSite = await put(customer, ticket.id, { locationId: hidden.id });
    expect(toSite.statusCode).toBe(400);
    expect(toSite.body).not.toContain('Secret');
    const toDevice = await put(customer, ticket.id, { entityId: hiddenDevice.id });
    expect(toDevice.statusCode).toBe(400);
    expect(toDevice.body).not.toContain('GEN-SECRET');
    // admins see every site
    expect((await put(admin, ticket.id, { locationId: hidden.id, entityId: hiddenDevice.id })).statusCode).toBe(200);
  });
});

describe('lists asked for together', () => {
  const page = '/helpdesk/tickets/?page=1&limit=25';
  const idsOf = (body: string) => (JSON.parse(body) as { contents: Array<{ id: number }> }).contents.map((c) => c.id);

  it('answers each caller with its own visible tickets, and a change made before a call is in its answer', async () => {
    const hiddenTicket = await raise(admin, { title: 'Vault door forced', locationId: hidden.id });
    const visibleTicket = await raise(customer, { locationId: mine.id });
    // a scoped user and an admin asking at once share nothing: their statements differ
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => customer.get(page)),
      ...Array.from({ length: 4 }, () => admin.get(page)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const customerLists = answers.slice(0, 4).map((res) => res.body);
    const adminLists = answers.slice(4).map((res) => res.body);
    expect(new Set(customerLists).size).toBe(1);
    expect(new Set(adminLists).size).toBe(1);
    expect(idsOf(customerLists[0] as string)).toContain(visibleTicket.id);
    expect(idsOf(customerLists[0] as string)).not.toContain(hiddenTicket.id);
    expect(customerLists[0]).not.toContain('Vault door forced');
    expect(idsOf(adminLists[0] as string)).toContain(hiddenTicket.id);
    // the status counts and the day counts, asked together, agree with one another as well
    const stats = await Promise.all(Array.from({ length: 3 }, () => customer.get('/helpdesk/tickets/stats/')));
    expect(new Set(stats.map((res) => res.body)).size).toBe(1);
    const days = await Promise.all(Array.from({ length: 3 }, () => customer.get('/helpdesk/tickets/days/?timeZone=UTC')));
    expect(new Set(days.map((res) => res.body)).size).toBe(1);

    // a list under way when a ticket is raised may miss it; a list asked after the raise answered has it
    const during = customer.get(page);
    const raised = await raise(customer, { locationId: mine.id, title: 'Raised while a list was read' });
    const after = await Promise.all([customer.get(page), customer.get(page)]);
    expect((await during).statusCode).toBe(200);
    for (const res of after) expect(idsOf(res.body)).toContain(raised.id);
  });
});
