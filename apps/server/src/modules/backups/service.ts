import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKUP_MESSAGES } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { BACKUP_PREFIX, listBackups } from '../../platform/backup/create-backup.ts';
import { readManifest, verifyBackup } from '../../platform/backup/manifest.ts';
import type { BackupRunner } from '../../platform/backup/runner.ts';
import type { Db } from '../../platform/db.ts';
import type { Clock } from '../../platform/module.ts';
import * as repo from './repository.ts';

export interface BackupSettings {
  dir: string;
  everyHours: number;
  keep: number;
  withRecordings: boolean;
}

export interface BackupServiceDeps {
  db: Db;
  runner: BackupRunner;
  settings: BackupSettings;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  clock: Clock;
  /** Tells the installation's system administrators (their inbox). */
  alertAdmins(message: string): Promise<void>;
}

const LIST_LIMIT = 50;
/** A half-written backup (`.name.part`) this old belongs to a process that died mid-backup. */
const STALE_PART_MS = 24 * 3600_000;

export function createBackupService(deps: BackupServiceDeps) {
  const { db, settings, log } = deps;

  /** Keeps the last `keep` scheduled backups; removes older ones and leftovers of backups that never finished. */
  async function prune() {
    const scheduled: string[] = [];
    for (const name of await listBackups(settings.dir)) {
      const manifest = await readManifest(join(settings.dir, name)).catch(() => null);
      if (manifest?.reason === 'scheduled') scheduled.push(name);
    }
    const removed = scheduled.slice(0, Math.max(0, scheduled.length - settings.keep));
    for (const name of removed) await rm(join(settings.dir, name), { recursive: true, force: true });
    await repo.markRemoved(db, removed);
    for (const entry of await readdir(settings.dir).catch(() => [])) {
      if (!entry.startsWith(`.${BACKUP_PREFIX}`) || !entry.endsWith('.part')) continue;
      const info = await stat(join(settings.dir, entry)).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_PART_MS) await rm(join(settings.dir, entry), { recursive: true, force: true });
    }
    return removed;
  }

  /** Makes one backup into the backup folder, reads it back to verify it, and records how it went. */
  async function run(reason: 'manual' | 'scheduled', startedBy: number | null) {
    const started = performance.now();
    const record = await repo.startRun(db, { reason, withRecordings: settings.withRecordings, startedBy });
    try {
      const made = await deps.runner.run({ outRoot: settings.dir, withRecordings: settings.withRecordings, reason });
      const verified = await verifyBackup(made.path).then(
        () => true,
        (error: Error) => {
          log.error({ err: error }, 'backup verification failed');
          return false;
        },
      );
      await repo.finishRun(db, record.id, {
        status: verified ? 'succeeded' : 'failed',
        name: made.name,
        bytes: made.manifest.totalBytes,
        durationMs: Math.round(performance.now() - started),
        verified,
        error: verified ? undefined : 'The backup was written but did not match its checksums when read back.',
      });
      if (!verified) await alert(record.started_at, 'it did not match its checksums when read back');
      const removed = await prune();
      log.info({ backup: made.path, bytes: made.manifest.totalBytes, ms: made.durationMs, removed: removed.length }, 'backup made');
      return { name: made.name, bytes: made.manifest.totalBytes, verified };
    } catch (error) {
      const message = (error as Error).message;
      log.error({ err: error }, 'backup failed');
      await repo.finishRun(db, record.id, { status: 'failed', durationMs: Math.round(performance.now() - started), error: message });
      await alert(record.started_at, message);
      throw error;
    }
  }

  async function alert(startedAt: Date, error: string) {
    const text = BACKUP_MESSAGES.failedNotice
      .replace('{time}', new Date(startedAt).toISOString().slice(0, 16).replace('T', ' '))
      .replace('{error}', error);
    await deps.alertAdmins(text).catch((err: Error) => log.error({ err }, 'backup failure notice could not be sent'));
  }

  return {
    run,
    prune,
    /** The schedule's job: a backup unless one was made within this period (a restart does not make another). */
    async scheduled() {
      const last = await repo.lastScheduledSuccess(db);
      const period = settings.everyHours * 3600_000;
      if (last && deps.clock.now().getTime() - last.getTime() < period * 0.9) return { skipped: true };
      return run('scheduled', null);
    },
    async list() {
      await repo.failAbandoned(db, new Date(deps.clock.now().getTime() - STALE_PART_MS));
      const items = await repo.listRuns(db, LIST_LIMIT);
      const period = settings.everyHours * 3600_000;
      const now = deps.clock.now().getTime();
      return {
        schedule: {
          everyHours: settings.everyHours,
          keep: settings.keep,
          folder: settings.dir,
          withRecordings: settings.withRecordings,
          nextAt: period === 0 ? null : new Date((Math.floor(now / period) + 1) * period).toISOString(),
        },
        items,
      };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
