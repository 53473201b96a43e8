import { VENDOR_MESSAGES, type Vendor, type VendorList } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTicket, history, makeSite, put, raise as raiseTicket, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, PASSWORD, type TestApp, type TestClient } from './support/harness.ts';
import { vendorInput } from './vendors-fixtures.ts';

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let fe: TestClient;
let vendorUser: TestClient;
let intruder: TestClient;
let limited: TestClient;
let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
let issueTypeId: number;
const ids: Record<string, number> = {};

// The tenant has issue types once this file makes one: tickets name it.
const raise = (client: TestClient, body: Record<string, unknown>) => raiseTicket(client, { event: 'Vendor Plumbing', ...body });

async function create(client: TestClient, extra: Record<string, unknown> = {}) {
  const res = await client.post('/iotapp/vendors/', vendorInput(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Vendor;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  fe = await t.login('fieldexecutive');
  vendorUser = await t.login('vendor');
  intruder = await t.login('customeradmin', HOST_B);
  for (const name of ['customeradmin', 'customer', 'fieldexecutive', 'vendor']) ids[name] = await userId(t, t.tenantA, name);
  siteA = await makeSite(admin, 'Vendor Site A');
  siteB = await makeSite(admin, 'Vendor Site B');
  const type = await admin.post('/helpdesk/issue-types/', {
    name: 'Vendor Plumbing',
    subTypes: ['Leak'],
    ticketTypes: ['TICKET', 'WORKORDERTICKET'],
    defaultPriority: null,
    slaHours: null,
    description: '',
    active: true,
  });
  expect(type.statusCode, type.body).toBe(201);
  issueTypeId = type.json().id;
  // A site-bound vendor manager: sees and manages vendors of site A only.
  const group = await admin.post('/iotapp/permission-groups/', {
    name: 'Vendor managers',
    codenames: ['view_vendor', 'add_vendor', 'change_vendor', 'view_ticket', 'change_ticket'],
  });
  expect(group.statusCode, group.body).toBe(201);
  const user = await admin.post('/iotapp/users/', {
    username: 'vendormanager',
    email: 'vendormanager@demo.example.com',
    firstname: 'Val',
    lastname: 'Manager',
    mobile: null,
    userRole: ['areahead'],
    groupId: group.json().id,
    assetIds: [siteA.id],
    notificationConfig: { popup: true },
    password: PASSWORD,
  });
  expect(user.statusCode, user.body).toBe(201);
  limited = await t.login('vendormanager');
});
afterAll(() => t?.close());

describe('creating and validating vendors', () => {
  it('creates a vendor with sites, issue types and user accounts, and logs it', async () => {
    const v = await create(admin, {
      company: 'Aqua Fixers',
      assetIds: [siteA.id, siteB.id],
      issueTypeIds: [issueTypeId],
      userIds: [ids.vendor],
    });
    expect(v).toMatchObject({ company: 'Aqua Fixers', phone: '9876543210', active: true, openTickets: 0 });
    expect(v.sites.map((s) => s.id).sort()).toEqual([siteA.id, siteB.id].sort());
    expect(v.issueTypes).toEqual([{ id: issueTypeId, name: 'Vendor Plumbing' }]);
    expect(v.users.map((u) => u.username)).toEqual(['vendor']);
    expect(v.can).toEqual({ change: true, delete: true });
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', 'vendor.create').execute();
    expect(audit.some((a) => (a.detail as { object?: { id: number } }).object?.id === v.id)).toBe(true);
  });

  it('refuses bad input with clear messages', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ company: '' }, 400, 'Company name is required'],
      [{ phone: '12345' }, 400, 'Mobile number must be 10 digits'],
      [{ email: 'not-mail' }, 400, 'Enter a valid e-mail address'],
      [{ company: 'aqua FIXERS' }, 409, VENDOR_MESSAGES.exists],
      [{ assetIds: [2_000_000] }, 400, VENDOR_MESSAGES.unknownSite],
      [{ issueTypeIds: [2_000_000] }, 400, VENDOR_MESSAGES.unknownIssueType],
      [{ userIds: [ids.fieldexecutive] }, 400, VENDOR_MESSAGES.unknownUser],
      [{ userIds: [ids.vendor] }, 409, VENDOR_MESSAGES.userTaken],
    ];
    for (const [extra, status, message] of cases) {
      const res = await admin.post('/iotapp/vendors/', vendorInput(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(status);
      expect(res.body).toContain(message);
    }
  });

  it('needs add_vendor, and at least one of their sites for users who do not see every site', async () => {
    expect((await fe.post('/iotapp/vendors/', vendorInput())).statusCode).toBe(403);
    const none = await limited.post('/iotapp/vendors/', vendorInput());
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain(VENDOR_MESSAGES.siteRequired);
    const hidden = await limited.post('/iotapp/vendors/', vendorInput({ assetIds: [siteB.id] }));
    expect(hidden.statusCode).toBe(400);
    expect(hidden.body).toContain(VENDOR_MESSAGES.unknownSite);
    await create(limited, { company: 'Site A Electricals', assetIds: [siteA.id] });
  });
});

describe('listing and reading', () => {
  it('searches, filters by site and issue type, and pages', async () => {
    await create(admin, { company: 'Bright Sparks', contactPerson: 'Sam Spark', assetIds: [siteB.id] });
    const list = async (client: TestClient, query: string) => {
      const res = await client.get(`/iotapp/vendors/${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as VendorList;
    };
    expect((await list(admin, '?search=spark')).contents.map((v) => v.company)).toEqual(['Bright Sparks']);
    expect((await list(admin, `?site=${siteB.id}`)).contents.map((v) => v.company)).toEqual(['Aqua Fixers', 'Bright Sparks']);
    expect((await list(admin, `?issueType=${issueTypeId}`)).contents.map((v) => v.company)).toEqual(['Aqua Fixers']);
    const page = await list(admin, '?limit=1&page=2');
    expect(page.totalCount).toBeGreaterThanOrEqual(3);
    expect(page.contents).toHaveLength(1);
    expect((await admin.get('/iotapp/vendors/?limit=1000')).statusCode).toBe(400);
  });

  it('shows users only the vendors of their sites, and only their sites of a vendor', async () => {
    const seen = (await limited.get('/iotapp/vendors/?limit=100')).json() as VendorList;
    expect(seen.contents.map((v) => v.company).sort()).toEqual(['Aqua Fixers', 'Site A Electricals']);
    const aqua = seen.contents.find((v) => v.company === 'Aqua Fixers');
    expect(aqua?.sites.map((s) => s.id)).toEqual([siteA.id]);
    const sparks = (await admin.get('/iotapp/vendors/?search=Bright')).json().contents[0] as Vendor;
    expect((await limited.get(`/iotapp/vendors/${sparks.id}/`)).statusCode).toBe(404);
    // Saving with the sites they see keeps the sites they do not see.
    const saved = await limited.put(
      `/iotapp/vendors/${aqua?.id}/`,
      vendorInput({ company: 'Aqua Fixers', assetIds: [siteA.id], notes: 'Night shifts' }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const full = (await admin.get(`/iotapp/vendors/${aqua?.id}/`)).json() as Vendor;
    expect(full.sites.map((s) => s.id).sort()).toEqual([siteA.id, siteB.id].sort());
    expect(full.notes).toBe('Night shifts');
    expect(full.users).toEqual([]);
  });

  it('needs view_vendor to read; ticket assigners may list for the picker', async () => {
    expect((await customer.get('/iotapp/vendors/')).statusCode).toBe(403);
    expect((await fe.get('/iotapp/vendors/')).statusCode).toBe(200);
    const any = (await admin.get('/iotapp/vendors/')).json().contents[0] as Vendor;
    expect((await fe.get(`/iotapp/vendors/${any.id}/`)).statusCode).toBe(403);
  });

  it('keeps tenants apart', async () => {
    const mine = (await admin.get('/iotapp/vendors/')).json().contents[0] as Vendor;
    for (const res of [
      await intruder.get(`/iotapp/vendors/${mine.id}/`),
      await intruder.put(`/iotapp/vendors/${mine.id}/`, vendorInput()),
      await intruder.delete(`/iotapp/vendors/${mine.id}/`),
      await intruder.get(`/iotapp/vendors/${mine.id}/tickets/`),
    ])
      expect(res.statusCode).toBe(404);
    expect(((await intruder.get('/iotapp/vendors/')).json() as VendorList).contents.some((v) => v.id === mine.id)).toBe(false);
    // Another tenant's company name is free here.
    expect((await intruder.post('/iotapp/vendors/', vendorInput({ company: mine.company }))).statusCode).toBe(201);
  });
});

describe('tickets assigned to a vendor', () => {
  it('assigns a ticket to a vendor that serves its site, tells its users and records it', async () => {
    const aqua = (await admin.get('/iotapp/vendors/?search=Aqua')).json().contents[0] as Vendor;
    const sparks = (await admin.get('/iotapp/vendors/?search=Bright')).json().contents[0] as Vendor;
    const linked = await admin.put(
      `/iotapp/vendors/${aqua.id}/`,
      vendorInput({ company: 'Aqua Fixers', assetIds: [siteA.id, siteB.id], userIds: [ids.vendor] }),
    );
    expect(linked.statusCode, linked.body).toBe(200);
    const ticket = await raise(admin, { locationId: siteA.id });
    expect(ticket.vendorId).toBeNull();
    // The vendor's own user does not look after the site: the ticket is not theirs to see yet.
    expect((await vendorUser.get(`/helpdesk/tickets/${ticket.id}/`)).statusCode).toBe(404);

    const wrong = await put(admin, ticket.id, { vendorId: sparks.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(VENDOR_MESSAGES.vendorNotAtSite);
    const unknown = await put(admin, ticket.id, { vendorId: 2_000_000 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain(VENDOR_MESSAGES.unknownVendor);

    const res = await put(admin, ticket.id, { vendorId: aqua.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vendor).toEqual({ id: aqua.id, name: 'Aqua Fixers' });
    const entries = await history(admin, ticket.id);
    expect(entries.at(-1)?.changes).toContainEqual({ field: 'vendorId', from: null, to: aqua.id });
    const audit = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'ticket.update').execute();
    expect(audit.some((a) => JSON.stringify(a.detail).includes('"vendorId"'))).toBe(true);

    // Once assigned to their company, the vendor's users see it.
    expect((await vendorUser.get(`/helpdesk/tickets/${ticket.id}/`)).statusCode).toBe(200);
    const theirs = (await vendorUser.get('/helpdesk/tickets/?limit=100')).json().contents as { id: number }[];
    expect(theirs.map((c) => c.id)).toContain(ticket.id);
    await t.handles.notifications.settled();
    const inbox = (await vendorUser.get('/notification/inbox/')).json() as { contents: { notification: { message: string } }[] };
    expect(inbox.contents.some((n) => n.notification.message.includes(`${ticket.ticketId} has been assigned to your company`))).toBe(true);

    const filtered = (await admin.get(`/helpdesk/tickets/?vendor=${aqua.id}`)).json();
    expect(filtered.contents.map((c: { id: number }) => c.id)).toEqual([ticket.id]);
    const open = await admin.get(`/iotapp/vendors/${aqua.id}/tickets/`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().contents.map((c: { id: number }) => c.id)).toEqual([ticket.id]);
    expect(((await admin.get(`/iotapp/vendors/${aqua.id}/`)).json() as Vendor).openTickets).toBe(1);

    // Moving the ticket to a site the vendor does not serve is refused while it is assigned.
    const other = await makeSite(admin, 'Vendor Site C');
    const moved = await put(admin, ticket.id, { locationId: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.body).toContain(VENDOR_MESSAGES.vendorNotAtSite);
  });

  it('lets only those who may assign tickets choose a vendor', async () => {
    const aqua = (await admin.get('/iotapp/vendors/?search=Aqua')).json().contents[0] as Vendor;
    await admin.post('/iotapp/user-assets/', { userId: ids.customer, assetIds: [siteA.id] });
    const own = await raise(customer, { locationId: siteA.id });
    const res = await put(customer, own.id, { vendorId: aqua.id });
    expect(res.statusCode).toBe(403);
    expect(
      (await customer.post('/helpdesk/tickets/', { title: 'Leak', event: 'Vendor Plumbing', locationId: siteA.id, vendorId: aqua.id }))
        .statusCode,
    ).toBe(403);
    const raised = await raise(admin, { locationId: siteA.id, vendorId: aqua.id });
    expect((await getTicket(admin, raised.id)).vendorId).toBe(aqua.id);
  });

  it('refuses to delete a vendor with open tickets, and deletes it once they are gone', async () => {
    const aqua = (await admin.get('/iotapp/vendors/?search=Aqua')).json().contents[0] as Vendor;
    expect((await limited.delete(`/iotapp/vendors/${aqua.id}/`)).statusCode).toBe(403);
    const refused = await admin.delete(`/iotapp/vendors/${aqua.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(VENDOR_MESSAGES.hasOpenTickets);
    const open = (await admin.get(`/helpdesk/tickets/?vendor=${aqua.id}`)).json().contents as { id: number }[];
    for (const ticket of open) expect((await put(admin, ticket.id, { vendorId: null })).statusCode).toBe(200);
    expect((await admin.delete(`/iotapp/vendors/${aqua.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/vendors/${aqua.id}/`)).statusCode).toBe(404);
    const audit = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'vendor.delete').execute();
    expect(audit.some((a) => (a.detail as { object?: { id: number } }).object?.id === aqua.id)).toBe(true);
  });
});
