import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DownloadJob, ReportSchedule } from '@sitewatch/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, raise } from './helpdesk-fixtures.ts';
import { makeItem, makeStore, move, receive } from './inventory-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

const clock = createTestClock();
let t: TestApp;
let dataDir: string;
let admin: TestClient;
let manager: TestClient;
let viewer: TestClient;
let store: { id: number; name: string };
let hiddenStore: { id: number; name: string };
let site: { id: number; name: string };
let filter: { id: number; code: string; name: string };
let ticketId: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sw-reports-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { clock });
  admin = await t.login('customeradmin');
  manager = await t.login('storemanager');
  viewer = await t.login('customer');
  store = await makeStore(admin);
  site = await makeSite(admin, `Report site ${Date.now()}`);
  hiddenStore = await makeStore(admin, { assetId: site.id });
  filter = await makeItem(admin, { name: 'Report oil filter', lowStockThreshold: 5 });
  await receive(admin, filter.id, store.id, 10);
  await receive(admin, filter.id, hiddenStore.id, 3);
  ticketId = (await raise(admin)).id;
  expect((await move(admin, { kind: 'ISSUE', itemId: filter.id, storeId: hiddenStore.id, quantity: 2, ticketId })).statusCode).toBe(201);
  expect((await move(admin, { kind: 'RETURN', itemId: filter.id, storeId: hiddenStore.id, quantity: 1, ticketId })).statusCode).toBe(201);
  // value the stock: a received purchase request sets the item's last purchase price
  const pr = await admin.post('/iotapp/purchase-requests/', {
    title: 'Report filters',
    storeId: store.id,
    lines: [{ itemId: filter.id, quantity: 2, unitCost: 15 }],
    submit: true,
  });
  expect(pr.statusCode, pr.body).toBe(201);
  expect((await admin.post(`/iotapp/purchase-requests/${pr.json().id}/actions/`, { action: 'approve' })).statusCode).toBe(200);
  expect((await admin.post(`/iotapp/purchase-requests/${pr.json().id}/actions/`, { action: 'receive' })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ok = async (client: TestClient, url: string) => {
  const res = await client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Starts an export, runs the queue, and returns the finished file's bytes. */
async function exported(client: TestClient, kind: string, format: string, params: Record<string, unknown>) {
  const res = await client.post('/api/exports/', { kind, format, params });
  expect(res.statusCode, res.body).toBe(201);
  const job = res.json() as DownloadJob;
  expect(job.tasks[0]?.name.endsWith(`.${format}`)).toBe(true);
  await t.app.jobs.drain();
  const list = (await ok(client, '/api/batch-playback-download/')) as { jobs: DownloadJob[] };
  const done = list.jobs.find((j) => j.jobId === job.jobId);
  expect(done?.status).toBe('ready-to-download');
  const file = await client.get(done?.tasks[0]?.path as string);
  expect(file.statusCode).toBe(200);
  return { bytes: file.rawPayload, type: file.headers['content-type'] };
}

describe('inventory report', () => {
  it('shows stock on hand with value and totals, filtered by store, site and low stock', async () => {
    const all = await ok(admin, `/iotapp/reports/inventory/stock/?search=${encodeURIComponent(filter.code)}`);
    expect(all.totalCount).toBe(2);
    const main = all.contents.find((r: { storeId: number }) => r.storeId === store.id);
    expect(main).toMatchObject({ onHand: 12, unitCost: 15, value: 180, low: false });
    expect(all.totals).toMatchObject({ onHand: 14, value: 210, low: 1 });
    const low = await ok(admin, `/iotapp/reports/inventory/stock/?search=${encodeURIComponent(filter.code)}&low=true`);
    expect(low.contents.map((r: { storeId: number }) => r.storeId)).toEqual([hiddenStore.id]);
    const atSite = await ok(admin, `/iotapp/reports/inventory/stock/?assetId=${site.id}`);
    expect(atSite.contents.every((r: { siteName: string }) => r.siteName === site.name)).toBe(true);
  });

  it('lists movements by date range, type, store, item and ticket, with totals per type', async () => {
    const today = clock.now().toISOString().slice(0, 10);
    const res = await ok(admin, `/iotapp/reports/inventory/movements/?itemId=${filter.id}&from=${today}&to=${today}`);
    expect(res.totalCount).toBe(5);
    expect(res.totals).toEqual(
      expect.arrayContaining([
        { kind: 'RECEIVE', count: 3, quantity: 15 },
        { kind: 'ISSUE', count: 1, quantity: 2 },
      ]),
    );
    const issued = await ok(admin, `/iotapp/reports/inventory/movements/?ticketId=${ticketId}&kind=ISSUE`);
    expect(issued.contents).toEqual([expect.objectContaining({ kind: 'ISSUE', quantity: 2, fromStore: hiddenStore.name })]);
    const none = await ok(admin, `/iotapp/reports/inventory/movements/?itemId=${filter.id}&from=2001-01-01&to=2001-01-31`);
    expect(none.totalCount).toBe(0);
    const bad = await admin.get('/iotapp/reports/inventory/movements/?from=2026-02-10&to=2026-02-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The start date must be before the end date');
  });

  it('shows consumption per site: issued minus returned, valued', async () => {
    const res = await ok(admin, `/iotapp/reports/inventory/consumption/?itemId=${filter.id}&period=day`);
    expect(res.contents).toEqual([expect.objectContaining({ siteName: site.name, issued: 2, returned: 1, consumed: 1, value: 15 })]);
    expect(res.totals).toMatchObject({ issued: 2, returned: 1, consumed: 1 });
  });

  it('keeps to the stores a user sees; refuses users without the inventory permission', async () => {
    const mine = await ok(manager, `/iotapp/reports/inventory/stock/?search=${encodeURIComponent(filter.code)}`);
    expect(mine.contents.map((r: { storeId: number }) => r.storeId)).toEqual([store.id]);
    expect((await ok(manager, `/iotapp/reports/inventory/consumption/?itemId=${filter.id}`)).totalCount).toBe(0);
    expect((await ok(manager, `/iotapp/reports/inventory/movements/?ticketId=${ticketId}`)).totalCount).toBe(0);
    for (const path of ['stock', 'movements', 'consumption'])
      expect((await viewer.get(`/iotapp/reports/inventory/${path}/`)).statusCode).toBe(403);
    expect((await viewer.post('/api/exports/', { kind: 'inventory-stock', format: 'csv' })).statusCode).toBe(403);
    const other = await t.login('customeradmin', HOST_B);
    expect((await ok(other, `/iotapp/reports/inventory/stock/?search=${encodeURIComponent(filter.code)}`)).totalCount).toBe(0);
    expect((await ok(other, `/iotapp/reports/inventory/movements/?itemId=${filter.id}`)).totalCount).toBe(0);
  });
});

describe('report exports', () => {
  it('writes the filtered report as CSV', async () => {
    const { bytes, type } = await exported(admin, 'inventory-stock', 'csv', { search: filter.code });
    expect(type).toContain('text/csv');
    const lines = bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Code');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.includes(filter.code))).toBe(true);
  });

  it('writes XLSX that exceljs reads back', async () => {
    const { bytes, type } = await exported(admin, 'inventory-movements', 'xlsx', { itemId: filter.id });
    expect(type).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('Date');
    expect(sheet?.actualRowCount).toBe(6);
    expect(sheet?.getRow(2).getCell(5).value).toEqual(expect.any(Number));
  });

  it('writes a PDF', async () => {
    const { bytes, type } = await exported(admin, 'inventory-consumption', 'pdf', { period: 'month' });
    expect(type).toBe('application/pdf');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('exports purchase requests as CSV with the filters of the report', async () => {
    const { bytes } = await exported(admin, 'purchase-requests', 'csv', { state: 'RECEIVED' });
    const lines = bytes.toString('utf8').trim().split(/\r?\n/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.slice(1).every((l) => l.includes('Received'))).toBe(true);
  });

  it('refuses invalid filters before the job exists', async () => {
    const res = await admin.post('/api/exports/', { kind: 'inventory-movements', format: 'xlsx', params: { from: 'yesterday' } });
    expect(res.statusCode).toBe(400);
    expect((await admin.post('/api/exports/', { kind: 'inventory-stock', format: 'docx' })).statusCode).toBe(400);
  });
});

describe('purchase request report', () => {
  it('lists requests with totals per state and per month', async () => {
    const byState = await ok(admin, '/iotapp/reports/purchase-requests/');
    expect(byState.groups.find((g: { key: string }) => g.key === 'RECEIVED')).toMatchObject({ count: 1, total: 30 });
    expect(byState.grandTotal).toBe(byState.groups.reduce((n: number, g: { total: number }) => n + g.total, 0));
    const byMonth = await ok(admin, '/iotapp/reports/purchase-requests/?groupBy=month');
    expect(byMonth.groups[0].key).toMatch(/^\d{4}-\d{2}$/);
    expect((await viewer.get('/iotapp/reports/purchase-requests/')).statusCode).toBe(403);
  });
});

describe('report schedules', () => {
  it('validates a schedule', async () => {
    const weekly = await admin.post('/iotapp/report-schedules/', {
      kind: 'inventory-stock',
      name: 'Weekly stock',
      frequency: 'WEEKLY',
      time: '07:00',
      format: 'xlsx',
    });
    expect(weekly.statusCode).toBe(400);
    expect(weekly.body).toContain('Choose the day of the week');
    const time = await admin.post('/iotapp/report-schedules/', {
      kind: 'inventory-stock',
      name: 'x',
      frequency: 'DAILY',
      time: '25:00',
      format: 'csv',
    });
    expect(time.body).toContain('Enter a time as HH:MM');
    const params = await admin.post('/iotapp/report-schedules/', {
      kind: 'inventory-movements',
      name: 'x',
      frequency: 'DAILY',
      time: '06:00',
      format: 'csv',
      params: { kind: 'LOAN' },
    });
    expect(params.statusCode).toBe(400);
    expect(
      (
        await viewer.post('/iotapp/report-schedules/', {
          kind: 'inventory-stock',
          name: 'x',
          frequency: 'DAILY',
          time: '06:00',
          format: 'csv',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('runs a schedule when its time comes: the file lands in /downloads and the inbox', async () => {
    const res = await manager.post('/iotapp/report-schedules/', {
      kind: 'inventory-stock',
      name: 'Daily stock',
      frequency: 'DAILY',
      time: '06:00',
      format: 'xlsx',
      params: { search: filter.code },
    });
    expect(res.statusCode, res.body).toBe(201);
    const schedule = res.json() as ReportSchedule;
    expect(new Date(schedule.nextRunAt).getTime()).toBeGreaterThan(clock.now().getTime());
    const listed = await ok(manager, '/iotapp/report-schedules/?kind=inventory-stock');
    expect(listed.contents.map((s: ReportSchedule) => s.id)).toContain(schedule.id);
    // not due yet: nothing starts
    expect((await t.handles.reports.schedules.runDue()).started).toBe(0);
    clock.advance(new Date(schedule.nextRunAt).getTime() - clock.now().getTime() + 1000);
    expect((await t.handles.reports.schedules.runDue()).started).toBe(1);
    // the same run is not made twice
    expect((await t.handles.reports.schedules.runDue()).started).toBe(0);
    await t.app.jobs.drain();
    // the clock stepped past the sessions' limits: sign in again
    manager = await t.login('storemanager');
    admin = await t.login('customeradmin');
    const jobs = (await ok(manager, '/api/batch-playback-download/')).jobs as DownloadJob[];
    const job = jobs.find((j) => j.name.startsWith('Daily stock'));
    expect(job?.status).toBe('ready-to-download');
    const file = await manager.get(job?.tasks[0]?.path as string);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    // the manager's own scope: only the store they see
    expect(workbook.worksheets[0]?.actualRowCount).toBe(2);
    await t.handles.notifications.settled();
    const inbox = await ok(manager, '/notification/inbox/');
    expect(JSON.stringify(inbox)).toContain('Daily stock');
    const after = (await ok(manager, '/iotapp/report-schedules/')).contents.find((s: ReportSchedule) => s.id === schedule.id);
    expect(new Date(after.nextRunAt).getTime() - new Date(schedule.nextRunAt).getTime()).toBe(86_400_000);
    expect(after.lastRunAt).not.toBeNull();
  });

  it('lists and deletes only one’s own schedules', async () => {
    const mine = (
      await admin.post('/iotapp/report-schedules/', {
        kind: 'purchase-requests',
        name: 'Monthly PRs',
        frequency: 'MONTHLY',
        dayOfMonth: 1,
        time: '05:30',
        format: 'pdf',
        params: { state: 'SUBMITTED' },
      })
    ).json() as ReportSchedule;
    expect(mine).toMatchObject({ frequency: 'MONTHLY', dayOfMonth: 1, dayOfWeek: null });
    expect((await manager.delete(`/iotapp/report-schedules/${mine.id}/`)).statusCode).toBe(404);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.delete(`/iotapp/report-schedules/${mine.id}/`)).statusCode).toBe(404);
    expect((await ok(other, '/iotapp/report-schedules/')).contents).toEqual([]);
    expect((await admin.delete(`/iotapp/report-schedules/${mine.id}/`)).statusCode).toBe(204);
    expect((await admin.delete(`/iotapp/report-schedules/${mine.id}/`)).statusCode).toBe(404);
  });
});
