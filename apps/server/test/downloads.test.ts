import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOWNLOAD_MESSAGES, type DownloadJob } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDevice, makeSite, raise } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
/** The app's clock: retention is stepped over, not waited for. */
const clock = createTestClock();
let dataDir: string;
let admin: TestClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sw-downloads-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { clock });
  admin = await t.login('customeradmin');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const list = async (client: TestClient) => {
  const res = await client.get('/api/batch-playback-download/');
  expect(res.statusCode).toBe(200);
  return res.json() as { jobs: DownloadJob[]; totalCount: number };
};
const jobOf = async (client: TestClient, jobId: number) => (await list(client)).jobs.find((j) => j.jobId === jobId);
const startExport = async (client: TestClient, body: Record<string, unknown>) => {
  const res = await client.post('/api/exports/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DownloadJob;
};
/** Files of finished exports in the blob store. */
const blobFiles = (): string[] => {
  const root = join(dataDir, 'blobs', 'exports');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
};

describe('export jobs', () => {
  it('runs an export in the background to a CSV file the owner downloads, then marks it downloaded', async () => {
    const job = await startExport(admin, { kind: 'users', name: 'All users' });
    expect(job).toMatchObject({ name: 'All users', kind: 'users', status: 'starting', expiresAt: null });
    expect(job.tasks).toHaveLength(1);
    expect(job.tasks[0]).toMatchObject({ name: 'All users.csv', status: 'starting', path: null, isRead: false });
    await t.app.jobs.drain();

    const done = await jobOf(admin, job.jobId);
    expect(done).toMatchObject({ status: 'ready-to-download', progress: 100, progressStatus: { 'ready-to-download': 1 } });
    const task = done?.tasks[0];
    expect(task?.description).toBe(DOWNLOAD_MESSAGES.fileProcessed);
    expect(task?.path).toBe(`/api/batch-playback-download/${job.jobId}/files/${task?.tid}/`);
    const retention = (await t.handles.tenantSettings.tenantSettings.settings(t.tenantA)).downloadRetentionHours;
    const expiresIn = new Date(done?.expiresAt as string).getTime() - clock.now().getTime();
    expect(expiresIn).toBeGreaterThan((retention - 0.1) * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(retention * 3600_000);

    const file = await admin.get(task?.path as string);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="All users.csv"; filename*=UTF-8''All%20users.csv`);
    expect(file.headers['cache-control']).toBe('private, no-store');
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('ID,Username,First Name,Last Name,Email,Mobile,Roles,Active,Created At');
    const usersA = await t.db.selectFrom('users').select('username').where('tenant_id', '=', t.tenantA).execute();
    expect(lines).toHaveLength(usersA.length + 1);
    expect(file.body).toContain('customeradmin@demo.example.com');
    expect(file.body).not.toContain('@acme.example.com');
    expect(task?.size).toBe(Buffer.byteLength(file.body));

    const marked = await admin.put(`/api/batch-playback-download/${job.jobId}/`, { tid: task?.tid });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ status: 'completed', progress: 100, tasks: [{ isRead: true, status: 'completed' }] });
  });

  it('neutralises spreadsheet formulas in exported values', async () => {
    await t.db
      .updateTable('users')
      .set({ firstname: '=HYPERLINK("http://evil.example")', lastname: '@SUM(1)' })
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', 'vendor')
      .execute();
    const job = await startExport(admin, { kind: 'users', params: { search: 'vendor' } });
    await t.app.jobs.drain();
    const task = (await jobOf(admin, job.jobId))?.tasks[0];
    const body = (await admin.get(task?.path as string)).body;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"")",'@SUM(1)`);
    expect(
      body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(2);
  });

  it('exports the sign-in log of the tenant only', async () => {
    await t.login('customeradmin', HOST_B);
    const job = await startExport(admin, { kind: 'sign-ins', params: { outcome: 'success' } });
    await t.app.jobs.drain();
    const task = (await jobOf(admin, job.jobId))?.tasks[0];
    const body = (await admin.get(task?.path as string)).body;
    const lines = body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time,Username,Action,Outcome,Reason,IP Address,User Agent');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.includes(',success,'))).toBe(true);
    const bSignIns = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('tenant_id', '=', t.tenantB)
      .where('action', 'like', 'login.%')
      .execute();
    const aSignIns = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('tenant_id', '=', t.tenantA)
      .where('action', 'like', 'login.%')
      .where('outcome', '=', 'success')
      .execute();
    expect(bSignIns.length).toBeGreaterThan(0);
    expect(lines.length - 1).toBe(aSignIns.length);
  });

  it('offers each user only the exports they may run, and validates the request', async () => {
    const viewer = await t.login('customer');
    expect((await admin.get('/api/exports/sources/')).json().contents.map((s: { kind: string }) => s.kind)).toEqual(
      expect.arrayContaining(['users', 'sign-ins']),
    );
    expect((await viewer.get('/api/exports/sources/')).json().contents.map((s: { kind: string }) => s.kind)).not.toContain('users');
    expect((await viewer.post('/api/exports/', { kind: 'users' })).statusCode).toBe(403);
    expect((await admin.post('/api/exports/', { kind: 'nothing-here' })).statusCode).toBe(404);
    const badParams = await admin.post('/api/exports/', { kind: 'sign-ins', params: { outcome: 'maybe' } });
    expect(badParams.statusCode).toBe(400);
    expect(badParams.json().detail).toMatch(/^Outcome /);
    expect((await admin.post('/api/exports/', { kind: 'users', params: { colour: 'red' } })).statusCode).toBe(400);
    expect((await admin.post('/api/exports/', { kind: 'users', extra: 1 })).statusCode).toBe(400);
    expect((await admin.post('/api/exports/', { kind: 'users', name: '../../etc/passwd' })).statusCode).toBe(400);
    expect((await admin.get('/api/batch-playback-download/?limit=0')).statusCode).toBe(400);
    expect((await admin.get('/api/batch-playback-download/?page=2')).statusCode).toBe(400);
  });

  it("keeps each user's downloads to that user, within the tenant, and refuses paths that are not a task", async () => {
    const job = await startExport(admin, { kind: 'users' });
    await t.app.jobs.drain();
    const task = (await jobOf(admin, job.jobId))?.tasks[0];
    const colleague = await t.login('localadmin');
    const intruder = await t.login('customeradmin', HOST_B);
    for (const other of [colleague, intruder]) {
      expect((await list(other)).jobs.map((j) => j.jobId)).not.toContain(job.jobId);
      expect((await other.get(task?.path as string)).statusCode).toBe(404);
      expect((await other.put(`/api/batch-playback-download/${job.jobId}/`, { tid: task?.tid })).statusCode).toBe(404);
      expect((await other.delete(`/api/batch-playback-download/${job.jobId}/`)).statusCode).toBe(404);
    }
    for (const path of [
      `/api/batch-playback-download/${job.jobId}/files/..%2F..%2F..%2Fetc%2Fpasswd/`,
      `/api/batch-playback-download/${job.jobId}/files/${task?.tid}.csv/`,
      `/api/batch-playback-download/..%2F1/files/${task?.tid}/`,
    ]) {
      expect((await admin.get(path)).statusCode, path).toBe(400);
    }
    expect((await jobOf(admin, job.jobId))?.status).toBe('ready-to-download');
  });

  it('deletes a finished download with its file', async () => {
    const job = await startExport(admin, { kind: 'users' });
    await t.app.jobs.drain();
    const before = blobFiles().length;
    const res = await admin.delete(`/api/batch-playback-download/${job.jobId}/`);
    expect(res.statusCode).toBe(204);
    expect(await jobOf(admin, job.jobId)).toBeUndefined();
    expect(blobFiles().length).toBe(before - 1);
    expect((await admin.delete(`/api/batch-playback-download/${job.jobId}/`)).statusCode).toBe(404);
  });

  it('limits how many exports a user runs at once', async () => {
    const runner = await t.login('sysadmin');
    for (let i = 0; i < 5; i++) await startExport(runner, { kind: 'users' });
    const sixth = await runner.post('/api/exports/', { kind: 'users' });
    expect(sixth.statusCode).toBe(409);
    await t.app.jobs.drain();
    expect((await runner.post('/api/exports/', { kind: 'users' })).statusCode).toBe(201);
    await t.app.jobs.drain();
  });
});

describe('stopping, retries, crashes and expiry', () => {
  let pages = 0;
  let failuresLeft = 0;
  let alwaysFail = false;

  beforeAll(() => {
    const registry = t.handles.downloads.exports;
    // An endless, slow source: only a stop ends it.
    registry.registerSource({
      kind: 'test-endless',
      label: 'Endless',
      columns: [{ key: 'n', header: 'N', type: 'integer' }],
      allowed: () => true,
      async fetchPage(_scope, _params, cursor) {
        pages++;
        await new Promise((r) => setTimeout(r, 20));
        const from = Number(cursor ?? 0);
        return { rows: Array.from({ length: 100 }, (_, i) => ({ n: from + i })), nextCursor: String(from + 100) };
      },
    });
    // Ten pages of rows; fails on demand.
    registry.registerSource({
      kind: 'test-flaky',
      label: 'Flaky',
      columns: [{ key: 'n', header: 'N', type: 'integer' }],
      allowed: () => true,
      count: async () => 1000,
      pageSize: 100,
      async fetchPage(_scope, _params, cursor, limit) {
        const from = Number(cursor ?? 0);
        if (alwaysFail || (from === 300 && failuresLeft > 0)) {
          failuresLeft--;
          throw new Error('source unavailable');
        }
        const rows = Array.from({ length: Math.min(limit, 1000 - from) }, (_, i) => ({ n: from + i }));
        return { rows, nextCursor: from + rows.length < 1000 ? String(from + rows.length) : null };
      },
    });
  });

  const queueJobOf = async (jobId: number) => {
    const row = await t.db.selectFrom('download_jobs').select('queue_job_id').where('id', '=', jobId).executeTakeFirstOrThrow();
    return t.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', row.queue_job_id as number)
      .executeTakeFirstOrThrow();
  };

  it('stops the work when a running export is stopped, and leaves no file', async () => {
    const job = await startExport(admin, { kind: 'test-endless', name: 'endless' });
    const before = blobFiles().length;
    const running = t.app.jobs.drain();
    const deadline = Date.now() + 5000;
    while ((await jobOf(admin, job.jobId))?.status !== 'processing' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    while (pages < 3) await new Promise((r) => setTimeout(r, 20));
    const res = await admin.delete(`/api/batch-playback-download/${job.jobId}/`);
    expect(res.statusCode).toBe(204);
    const stoppedAt = pages;
    await running;
    await new Promise((r) => setTimeout(r, 200));
    expect(pages - stoppedAt).toBeLessThanOrEqual(1);
    expect((await queueJobOf(job.jobId).catch(() => null))?.status ?? 'cancelled').toBe('cancelled');
    expect(await jobOf(admin, job.jobId)).toBeUndefined();
    expect(blobFiles().length).toBe(before);
    const parts = readdirSync(join(dataDir, 'blobs'), { recursive: true }).filter((f) => String(f).endsWith('.part'));
    expect(parts).toEqual([]);
  });

  it('retries a failing page and completes with every row', async () => {
    failuresLeft = 1;
    const job = await startExport(admin, { kind: 'test-flaky' });
    await t.app.jobs.drain();
    const done = await jobOf(admin, job.jobId);
    expect(done?.status).toBe('ready-to-download');
    expect(failuresLeft).toBe(0);
    const body = (await admin.get(done?.tasks[0]?.path as string)).body;
    const numbers = body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .map(Number);
    expect(numbers).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('retries the job when its pages keep failing, and fails it cleanly after the last attempt', async () => {
    alwaysFail = true;
    try {
      const job = await startExport(admin, { kind: 'test-flaky', name: 'doomed' });
      for (let attempt = 1; attempt <= 3; attempt++) {
        await t.db
          .updateTable('jobs')
          .set({ run_at: new Date(0) })
          .where('queue', '=', 'downloads.export')
          .where('status', '=', 'queued')
          .execute();
        await t.app.jobs.drain();
        const queue = await queueJobOf(job.jobId);
        expect(queue.attempts).toBe(attempt);
        expect(queue.status).toBe(attempt < 3 ? 'queued' : 'failed');
        expect((await jobOf(admin, job.jobId))?.status).toBe(attempt < 3 ? 'processing' : 'failed');
      }
      const failed = await jobOf(admin, job.jobId);
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'source unavailable',
        tasks: [{ status: 'error', description: DOWNLOAD_MESSAGES.exportFailed, path: null }],
      });
      expect(failed?.expiresAt).not.toBeNull();
    } finally {
      alwaysFail = false;
    }
  }, 60_000);

  it('resumes an export whose worker was killed mid-way, from a clean file', async () => {
    const job = await startExport(admin, { kind: 'test-flaky', name: 'resumed' });
    const queue = await queueJobOf(job.jobId);
    // A worker took it, wrote part of the file and died: running with a lease in the past.
    await t.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker', locked_until: new Date(Date.now() - 1000), attempts: 1 })
      .where('id', '=', queue.id)
      .execute();
    await t.db.updateTable('download_jobs').set({ status: 'processing' }).where('id', '=', job.jobId).execute();
    await t.db
      .updateTable('download_tasks')
      .set({ status: 'processing', progress: 40, rows: 400 })
      .where('job_id', '=', job.jobId)
      .execute();
    await t.app.jobs.drain();
    const done = await jobOf(admin, job.jobId);
    expect(done?.status).toBe('ready-to-download');
    expect((await queueJobOf(job.jobId)).attempts).toBe(2);
    const lines = (await admin.get(done?.tasks[0]?.path as string)).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(1001);
  });

  it('fails a job whose queue job ended without it instead of leaving it processing forever', async () => {
    const job = await startExport(admin, { kind: 'test-flaky', name: 'orphan' });
    const queue = await queueJobOf(job.jobId);
    await t.db.updateTable('jobs').set({ status: 'failed', last_error: 'worker lost' }).where('id', '=', queue.id).execute();
    await t.db
      .updateTable('download_jobs')
      .set({ status: 'processing', updated_at: new Date(Date.now() - 120_000) })
      .where('id', '=', job.jobId)
      .execute();
    const result = await t.handles.downloads.downloads.cleanup();
    expect(result?.orphaned).toBe(1);
    expect(await jobOf(admin, job.jobId)).toMatchObject({ status: 'failed', error: 'worker lost' });
  });

  it('removes files past their retention with a periodic job', async () => {
    const retentionMs = (await t.handles.tenantSettings.tenantSettings.settings(t.tenantA)).downloadRetentionHours * 3600_000;
    const job = await startExport(admin, { kind: 'users', name: 'old' });
    await t.app.jobs.drain();
    clock.advance(retentionMs - 1800_000);
    // Past a session's maximum age: sign in again.
    admin = await t.login('customeradmin');
    const keep = await startExport(admin, { kind: 'users', name: 'fresh' });
    await t.app.jobs.drain();
    const fileOf = async (jobId: number) =>
      join(
        dataDir,
        'blobs',
        (await t.db.selectFrom('download_tasks').select('blob_key').where('job_id', '=', jobId).executeTakeFirstOrThrow())
          .blob_key as string,
      );
    const [oldFile, freshFile] = [await fileOf(job.jobId), await fileOf(keep.jobId)];
    expect(blobFiles()).toEqual(expect.arrayContaining([oldFile, freshFile]));
    // Half an hour before its retention ends, the old file is still there.
    expect(await t.handles.downloads.downloads.cleanup()).toMatchObject({ expired: 0 });
    clock.advance(3600_000);
    const { enqueueJob } = await import('../src/platform/jobs/queue.ts');
    await enqueueJob(t.db, { tenantId: null, queue: 'downloads.cleanup' });
    await t.app.jobs.drain();
    expect(await jobOf(admin, job.jobId)).toBeUndefined();
    expect(await jobOf(admin, keep.jobId)).toBeTruthy();
    expect(blobFiles()).not.toContain(oldFile);
    expect(blobFiles()).toContain(freshFile);
  });

  it('sweeps partial files left by an export that died mid-write, and leaves writes in progress alone', async () => {
    const folder = join(dataDir, 'blobs', 'exports', 'crashed');
    mkdirSync(folder, { recursive: true });
    const stale = join(folder, 'users.csv.4242.1700000000000.part');
    const active = join(folder, 'users.csv.4243.1700000000001.part');
    writeFileSync(stale, 'half a file');
    writeFileSync(active, 'being written');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    const result = await t.handles.downloads.downloads.cleanup();
    expect(result?.partial).toBe(1);
    expect(readdirSync(folder)).toEqual(['users.csv.4243.1700000000001.part']);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('columns decided per export', () => {
  let asked = 0;
  let failuresLeft = 0;

  beforeAll(() => {
    // Columns from the filters and the caller, as a form's fields are; three pages of two rows.
    t.handles.downloads.exports.registerSource<{ extra?: string[] }>({
      kind: 'test-columns',
      label: 'Dynamic columns',
      columns: [{ key: 'n', header: 'N', type: 'integer' }],
      async columnsFor(scope, params) {
        asked++;
        if (failuresLeft-- > 0) throw new Error('columns unavailable');
        return [
          { key: 'n', header: 'N', type: 'integer' },
          { key: 'user', header: `User ${scope.userId}`, type: 'text' },
          ...(params.extra ?? []).map((e) => ({ key: `x:${e}`, header: e, type: 'text' as const })),
        ];
      },
      allowed: () => true,
      pageSize: 2,
      async fetchPage(scope, params, cursor) {
        const from = Number(cursor ?? 0);
        const rows = [from, from + 1].map((n) => ({
          n,
          user: scope.userId,
          ...Object.fromEntries((params.extra ?? []).map((e) => [`x:${e}`, `${e}${n}`])),
          ignored: 'not a column',
        }));
        return { rows, nextCursor: from + 2 < 6 ? String(from + 2) : null };
      },
    });
  });

  it('writes the header a source computes from the filters, asked once (and retried) before the first row', async () => {
    failuresLeft = 1;
    const job = await startExport(admin, { kind: 'test-columns', params: { extra: ['b', '=a'] } });
    await t.app.jobs.drain();
    const done = await jobOf(admin, job.jobId);
    expect(done?.status).toBe('ready-to-download');
    expect(asked).toBe(2);
    const lines = (await admin.get(done?.tasks[0]?.path as string)).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const me = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', t.tenantA)
        .where('username', '=', 'customeradmin')
        .executeTakeFirstOrThrow()
    ).id;
    expect(lines[0]).toBe(`N,User ${me},b,'=a`);
    expect(lines.slice(1)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `${n},${me},b${n},'=a${n}`));
    // The list of sources shows the fixed columns.
    const listed = (await admin.get('/api/exports/sources/')).json().contents.find((s: { kind: string }) => s.kind === 'test-columns');
    expect(listed.columns).toEqual(['N']);
  });
});

describe('exports of other domains', () => {
  const csvLines = async (client: TestClient, job: DownloadJob) => {
    await t.app.jobs.drain();
    const done = await jobOf(client, job.jobId);
    expect(done?.status, JSON.stringify(done)).toBe('ready-to-download');
    return (await client.get(done?.tasks[0]?.path as string)).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
  };

  it('exports the tickets a user sees, with the filters of the list', async () => {
    const a = await raise(admin, { title: 'Fuel low =cmd' });
    await raise(admin, { title: 'Door open', event: 'Power Failure' });
    const intruder = await t.login('customeradmin', HOST_B);
    await raise(intruder, { title: 'Tenant B ticket' });
    const job = await startExport(admin, { kind: 'tickets', params: { type: 'all' } });
    const lines = await csvLines(admin, job);
    expect(lines[0]).toBe(
      'Ticket ID,Location,Summary,Issue Type,Issue Sub Type,Due Date,Created Date,Priority,Status,City,Asset Type,Entity,Description,Resolved Date,Assigned Date,Acknowledge,Assigned To,Updated Date',
    );
    const total = (await admin.get('/helpdesk/tickets/?limit=1')).json().totalCount;
    expect(lines).toHaveLength(total + 1);
    expect(lines.join('\n')).toContain(a.ticketId);
    expect(lines.join('\n')).not.toContain('Tenant B ticket');
    const filtered = await startExport(admin, { kind: 'tickets', params: { search: 'Door open' } });
    expect(await csvLines(admin, filtered)).toHaveLength(2);
    expect((await admin.post('/api/exports/', { kind: 'tickets', params: { status: 'NOPE' } })).statusCode).toBe(400);
  });

  it('exports the site summary and the devices with the sites the user may see', async () => {
    const site = await makeSite(admin, 'Export Site =1');
    await makeSite(admin, '@Formula site');
    await makeDevice(admin, site.id, 'GEN-EXPORT');
    const summary = await startExport(admin, { kind: 'site-summary' });
    expect(summary.name).toMatch(/^SiteSummary /);
    const lines = await csvLines(admin, summary);
    expect(lines[0]).toBe('Name,Total,Online,Offline,Not Connected');
    expect(lines).toContain('Export Site =1,1,0,0,1');
    expect(lines).toContain("'@Formula site,0,0,0,0");
    const devices = await csvLines(admin, await startExport(admin, { kind: 'devices', params: { label__icontains: 'GEN-EXPORT' } }));
    expect(devices[0]).toBe('Label,Name,Type,Status,Alarm Status,Site,Parent,Last Activity');
    expect(devices).toHaveLength(2);
    expect(devices[1]).toContain('GEN-EXPORT');
    // a user without any assigned site exports none of them
    const vendor = await t.login('vendor');
    const none = await csvLines(vendor, await startExport(vendor, { kind: 'site-summary' }));
    expect(none).toHaveLength(1);
  });
});

describe('download providers', () => {
  it('lists the jobs of other kinds with the exports and routes their calls by kind', async () => {
    const calls: string[] = [];
    const fake: DownloadJob = {
      jobId: 1,
      name: 'Recordings',
      kind: 'test-clips',
      status: 'processing',
      progress: 40,
      progressStatus: { processing: 1 },
      tasks: [],
      lastUpdated: new Date().toISOString(),
      createdAt: new Date(Date.now() + 60_000).toISOString(),
      expiresAt: null,
      error: null,
    };
    t.handles.downloads.exports.registerProvider({
      kind: 'test-clips',
      list: async (auth) => (auth.tenantId === t.tenantA ? [fake] : []),
      markDownloaded: async (_auth, jobId, tid) => {
        calls.push(`mark ${jobId} ${tid}`);
        return fake;
      },
      remove: async (_auth, jobId) => {
        calls.push(`remove ${jobId}`);
      },
    });
    const first = (await list(admin)).jobs[0];
    expect(first).toMatchObject({ kind: 'test-clips', name: 'Recordings' });
    const tid = '11111111-1111-4111-8111-111111111111';
    expect((await admin.put('/api/batch-playback-download/1/?kind=test-clips', { tid })).statusCode).toBe(200);
    expect((await admin.delete('/api/batch-playback-download/1/?kind=test-clips')).statusCode).toBe(204);
    expect(calls).toEqual([`mark 1 ${tid}`, 'remove 1']);
  });
});
