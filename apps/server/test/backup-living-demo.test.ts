import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createBackup } from '../src/platform/backup/create-backup.ts';
import { listTreeFiles, referencedFiles, treesOf } from '../src/platform/backup/data-files.ts';
import { restoreBackup } from '../src/platform/backup/restore-backup.ts';
import { type DbHandle, openPglite, openPostgres } from '../src/platform/db.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';
import { upload } from './forms-fixtures.ts';
import { PNG } from './helpdesk-fixtures.ts';
import { freshDatabase } from './support/database.ts';
import { CAPTCHA, TestClient as Client, createTestApp, HOST_A, type TestApp, type TestClient } from './support/harness.ts';
import { startLivingDemo } from './support/living-demo.ts';
import { adminQuery, databaseUrl } from './support/pg-admin.ts';
import { runOn, tableChecksums } from './support/table-checksums.ts';

/**
 * A backup of the living demo (device telemetry over MQTT, traps, alarm rules) taken while the API is written to,
 * restored into a fresh place: the restore holds exactly what the source held at the backup's moment (every table's
 * rows, every file the database named), read in the backup's own snapshot, and not what was written after it; the
 * product started on the restore opens a ticket, a form attachment and an evidence pack.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), 'sw-backup-demo-'));
const sourceDir = join(root, 'source');
let t: TestApp;
let demo: Awaited<ReturnType<typeof startLivingDemo>> | undefined;
let sourceDatabase: DbHandle;

const step = (what: string) => process.env.BACKUP_TEST_TRACE && console.info(new Date().toISOString(), what);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  mkdirSync(sourceDir, { recursive: true });
  // On the embedded database the source lives in a data folder on disk, as in production.
  if (adminUrl) sourceDatabase = await freshDatabase();
  else {
    sourceDatabase = await openPglite(sourceDir);
    await migrateToLatest(sourceDatabase.db);
  }
  t = await createTestApp(
    { DATA_DIR: sourceDir, STATUS_SWEEP_SECONDS: '2', TELEMETRY_FLUSH_MS: '100', SNMP_TRAP_HOST: '127.0.0.1' },
    { database: sourceDatabase },
  );
  demo = await startLivingDemo(t, { intervalSeconds: 5, folder: 'unused', dataDir: sourceDir });
  step('demo started');
}, 900_000);

afterAll(async () => {
  await demo?.stop();
  await t?.close();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

/** API writes in a loop until stopped: a ticket and a form attachment each round. */
function writeLoop(client: TestClient) {
  let running = true;
  const written = { tickets: [] as number[], attachments: [] as string[] };
  const done = (async () => {
    for (let i = 0; running; i++) {
      const ticket = await client.post('/helpdesk/tickets/', { title: `Generator check ${i}`, event: 'Power Failure' });
      expect(ticket.statusCode, ticket.body).toBe(201);
      written.tickets.push(ticket.json().id);
      step(`ticket ${i}`);
      const file = await upload(client, [{ name: `photo-${i}.png`, data: PNG }]);
      expect(file.statusCode, file.body).toBe(201);
      written.attachments.push(file.json().contents[0].uid);
    }
  })();
  let failure: unknown;
  done.catch((error) => {
    failure = error;
  });
  return {
    written,
    /** Waits until `n` rounds are written; throws what stopped the writes. */
    async until(n: number) {
      while (written.attachments.length < n) {
        if (failure) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

interface Moment {
  tables: Record<string, string>;
  files: Record<string, string>;
  lastTicket: number;
}

describe('backup of the living demo while it is written to', () => {
  it('restores into a fresh place exactly as the source was at the backup’s moment, and the product opens it', async () => {
    const customer = await t.login('customer');
    step('signed in');
    const writes = writeLoop(customer);
    // the demo and the writes have run for a while before the backup
    await writes.until(3);
    step('written 3');

    let moment: Moment | undefined;
    let started = performance.now();
    const made = await createBackup({
      source: sourceDatabase.kind === 'pglite' ? { kind: 'pglite', handle: sourceDatabase } : { kind: 'pg', url: sourceDatabase.url ?? '' },
      dataDir: sourceDir,
      outRoot: join(root, 'backups'),
      withRecordings: true,
      reason: 'manual',
      async atMoment(run) {
        step('moment');
        const files: Record<string, string> = {};
        for (const file of await referencedFiles(run, true)) {
          const path = join(sourceDir, ...file.split('/'));
          if (existsSync(path)) files[file] = sha256(readFileSync(path));
        }
        const [last] = await run('select max(id) as ticket from tickets');
        moment = { tables: await tableChecksums(run), files, lastTicket: Number(last?.ticket) };
      },
    });
    const backupMs = performance.now() - started;
    step('backed up');
    // writes go on after the moment before they stop
    await writes.until(writes.written.attachments.length + 2);
    await writes.stop();
    await demo?.stop();
    step('stopped');
    if (!moment) throw new Error('the backup did not read its moment');
    const atMoment: Moment = moment;

    // the source moved on after the moment, so the comparison below is not with the source as it is now
    const now = await tableChecksums(runOn(t.db));
    const changed = Object.keys(now).filter((table) => now[table] !== atMoment.tables[table]);
    expect(changed).toEqual(expect.arrayContaining(['tickets', 'form_attachments']));
    expect(Object.keys(atMoment.files).length).toBeGreaterThan(0);

    const target = { dataDir: join(root, 'restored'), databaseUrl: undefined as string | undefined, name: '' };
    if (adminUrl) {
      target.name = `sw_restore_${randomBytes(6).toString('hex')}`;
      await adminQuery(adminUrl, `create database ${target.name}`);
      target.databaseUrl = databaseUrl(adminUrl, target.name);
    }
    started = performance.now();
    await restoreBackup({ backupDir: made.path, dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    const restoreMs = performance.now() - started;
    step('restored');
    console.info(
      `demo backup (${sourceDatabase.kind}): ${(backupMs / 1000).toFixed(1)} s, ${(made.manifest.totalBytes / 2 ** 20).toFixed(1)} MiB; restore ${(restoreMs / 1000).toFixed(1)} s; tables changed after the moment: ${changed.length}`,
    );

    const restored = target.databaseUrl ? openPostgres(target.databaseUrl, 2) : await openPglite(target.dataDir);
    try {
      // every table, row for row, as at the moment
      expect(await tableChecksums(runOn(restored.db))).toEqual(atMoment.tables);
      // every file the database named at the moment, byte for byte; and no other file than the backup's
      const restoredFiles = await listTreeFiles(target.dataDir, treesOf(true));
      for (const [file, sum] of Object.entries(atMoment.files)) {
        expect(existsSync(join(target.dataDir, ...file.split('/'))), file).toBe(true);
        expect(sha256(readFileSync(join(target.dataDir, ...file.split('/')))), file).toBe(sum);
      }
      expect(restoredFiles.sort()).toEqual(
        made.manifest.parts
          .filter((p) => p.path.startsWith('files/'))
          .map((p) => p.path.slice('files/'.length))
          .sort(),
      );

      // the product started on the restore
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DEMO: 'false',
        CAPTCHA_FIXED_ANSWER: CAPTCHA,
        LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
        WEB_DIST: '/nonexistent',
        DATA_DIR: target.dataDir,
      });
      const { app } = await buildApp({ config, database: restored, logger: false });
      await app.ready();
      try {
        const reader = new Client(app, HOST_A);
        await reader.signIn('customer');
        const before = writes.written.tickets.filter((id) => id <= atMoment.lastTicket);
        const after = writes.written.tickets.filter((id) => id > atMoment.lastTicket);
        expect(before.length).toBeGreaterThan(0);
        expect(after.length).toBeGreaterThan(0);
        const ticket = await reader.get(`/helpdesk/tickets/${before.at(-1)}/`);
        expect(ticket.statusCode, ticket.body).toBe(200);
        expect((await reader.get(`/helpdesk/tickets/${after[0]}/`)).statusCode).toBe(404);

        const attachment = await reader.get(`/ifmapp/dynamic-forms-attachments/${writes.written.attachments[0]}/`);
        expect(attachment.statusCode, attachment.body).toBe(200);
        expect(attachment.rawPayload.equals(PNG)).toBe(true);

        const admin = new Client(app, HOST_A);
        await admin.signIn('customeradmin');
        const evidence = await restored.db
          .selectFrom('video_evidence')
          .select(['id', 'tenant_id'])
          .where('status', '=', 'ready')
          .where('tenant_id', '=', t.tenantA)
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const clip = await admin.get(`/api/video-evidence/${evidence.id}/clip/`);
        expect(clip.statusCode, clip.body.slice(0, 200)).toBe(200);
        expect(sha256(clip.rawPayload)).toBe(atMoment.files[`video-exports/${evidence.tenant_id}/evidence/${evidence.id}.mp4`]);
      } finally {
        await app.close();
      }
    } finally {
      await restored.close();
      if (adminUrl && target.name) await adminQuery(adminUrl, `drop database if exists ${target.name} with (force)`);
    }
  }, 900_000);
});
