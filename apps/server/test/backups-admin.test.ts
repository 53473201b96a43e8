import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKUP_MESSAGES, type BackupList } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBackup } from '../src/platform/backup/manifest.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

/** /api/admin/backups/: the installation's backups, for the system administrators of its own tenant. */
let t: TestApp;
let root: string;
let sysadmin: TestClient;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sw-backups-admin-'));
  t = await createTestApp({ DATA_DIR: join(root, 'data'), BACKUP_DIR: join(root, 'backups'), BACKUP_KEEP: '2' });
  sysadmin = await t.login('sysadmin');
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

const list = async (client: TestClient) => {
  const res = await client.get('/api/admin/backups/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BackupList;
};

describe('backups on /app-admin', { timeout: 120_000 }, () => {
  it('lists none at first, with the schedule', async () => {
    const answer = await list(sysadmin);
    expect(answer.available).toBe(true);
    expect(answer.items).toEqual([]);
    expect(answer.schedule).toMatchObject({ everyHours: 24, keep: 2, folder: join(root, 'backups'), withRecordings: false });
  });

  it('starts one through the job queue; it is made, verified and listed with its size and duration', async () => {
    const started = await sysadmin.post('/api/admin/backups/', {});
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().message).toBe(BACKUP_MESSAGES.started);
    const entry = await t.db.selectFrom('user_activity_logs').selectAll().where('action', '=', 'backup.start').executeTakeFirst();
    expect(entry?.detail).toMatchObject({ jobId: started.json().jobId });
    // one at a time: a second start while the first waits is refused
    const again = await sysadmin.post('/api/admin/backups/', {});
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(BACKUP_MESSAGES.alreadyWaiting);
    await t.app.jobs.drain();
    const [run] = (await list(sysadmin)).items;
    expect(run).toMatchObject({ reason: 'manual', status: 'succeeded', verified: true, error: null, removed: false });
    expect(run?.bytes).toBeGreaterThan(0);
    expect(run?.durationMs).toBeGreaterThanOrEqual(0);
    await expect(verifyBackup(join(root, 'backups', run?.name as string))).resolves.toBeTruthy();
  });

  it('keeps the last N scheduled backups and marks older ones removed', async () => {
    const backups = t.handles.backups.backups;
    for (let i = 0; i < 3; i++) await backups.run('scheduled', null);
    const items = (await list(sysadmin)).items;
    const scheduled = items.filter((r) => r.reason === 'scheduled');
    expect(scheduled.map((r) => r.removed)).toEqual([false, false, true]);
    const names = readdirSync(join(root, 'backups'));
    expect(names).not.toContain(scheduled[2]?.name);
    expect(names).toContain(items.find((r) => r.reason === 'manual')?.name);
    // the schedule makes no second backup within its period
    expect(await backups.scheduled()).toEqual({ skipped: true });
  });

  it('records a failure and tells the system administrators', async () => {
    const blocked = join(root, 'not-a-folder');
    writeFileSync(blocked, 'a file where the backup folder should be');
    const failing = await createTestApp({ DATA_DIR: join(root, 'data2'), BACKUP_DIR: blocked });
    try {
      const admin = await failing.login('sysadmin');
      expect((await admin.post('/api/admin/backups/', {})).statusCode).toBe(202);
      await failing.app.jobs.drain();
      const [run] = (await list(admin)).items;
      expect(run).toMatchObject({ status: 'failed', verified: false });
      expect(run?.error).toMatch(/not-a-folder/);
      const inbox = (await admin.get('/notification/inbox/')).json();
      expect(inbox.contents[0].notification.verb).toBe('backup failed');
      expect(inbox.contents[0].notification.message).toMatch(/^The backup of .* failed: /);
      expect(inbox.contents[0].notification.metadata.url).toBe('/app-admin?tab=backups');
    } finally {
      await failing.close();
    }
  });

  it('shows other tenants nothing and lets only system administrators in', async () => {
    const otherSysadmin = await t.login('sysadmin', HOST_B);
    expect(await list(otherSysadmin)).toEqual({ available: false, schedule: null, items: [] });
    const refused = await otherSysadmin.post('/api/admin/backups/', {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(BACKUP_MESSAGES.onlyInstallAdmins);
    const customerAdmin = await t.login('customeradmin');
    expect((await customerAdmin.get('/api/admin/backups/')).statusCode).toBe(403);
    expect((await customerAdmin.post('/api/admin/backups/', {})).statusCode).toBe(403);
  });
});
