import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CAMERA_CONSTANTS } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { JobContext } from '../../platform/jobs/worker.ts';
import { exportClip, removeQuietly } from './media.ts';
import { DEFAULT_STORAGE_PATH, type VideoPaths } from './paths.ts';
import * as repo from './repository.ts';
import type { ClipJobAnnouncer } from './service.ts';
import type { VideoSettings } from './settings.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * A batch playback download: each task remuxes one camera's window to MP4. Idempotent: a task already
 * ready-to-download is skipped, so a job resumed after a crash or restart finishes the rest.
 */
export async function runClipJob(db: Db, paths: VideoPaths, job: JobContext, announce: ClipJobAnnouncer) {
  const tenantId = job.tenantId as number;
  const clipJobId = Number(job.payload.clipJobId);
  const clipJob = await repo.findClipJob(db, tenantId, clipJobId);
  if (!clipJob) return { skipped: 'deleted' };
  const tell = (status: string, progress: number) => announce(tenantId, clipJob.user_id, clipJobId, status, progress);
  await repo.updateClipJob(db, tenantId, clipJobId, { status: 'processing' });
  tell('processing', 0);
  const tasks = await repo.clipTasks(db, tenantId, [clipJobId]);
  let done = 0;
  for (const task of tasks) {
    if (job.signal.aborted) throw new Error('stopped');
    if (task.status === 'ready-to-download' || task.status === 'completed' || task.status === 'error') {
      done++;
      continue;
    }
    const out = paths.clipFile(tenantId, clipJobId, task.tid);
    try {
      const result = await exportClip(db, paths, {
        tenantId,
        camId: task.device_id,
        from: new Date(task.start_at),
        to: new Date(task.end_at),
        out,
        signal: job.signal,
        onStage: async (stage) => {
          // SPEC 4: the message follows the file the task works on (a playlist, then the MP4).
          if (stage === 'playlist')
            await repo.updateClipTask(db, tenantId, task.id, { status: 'processing', progress: 10, file: `${task.tid}.m3u8` });
          else await repo.updateClipTask(db, tenantId, task.id, { status: 'processing', progress: 50, file: `${task.tid}.mp4` });
        },
      });
      await repo.updateClipTask(db, tenantId, task.id, { status: 'ready-to-download', progress: 100, bytes: result.bytes, error: null });
    } catch (error) {
      if (job.signal.aborted) throw error;
      await repo.updateClipTask(db, tenantId, task.id, { status: 'error', progress: 0, error: (error as Error).message.slice(0, 300) });
    }
    done++;
    await job.progress((done / tasks.length) * 100);
    tell('processing', (done / tasks.length) * 100);
  }
  const final = await repo.clipTasks(db, tenantId, [clipJobId]);
  const ready = final.filter((t) => t.status === 'ready-to-download').length;
  await repo.updateClipJob(db, tenantId, clipJobId, {
    status: ready > 0 ? 'ready-to-download' : 'failed',
    error: ready > 0 ? null : 'No footage for any requested camera and window',
    expires_at: new Date(Date.now() + CAMERA_CONSTANTS.recordingExpiryMs),
  });
  tell(ready > 0 ? 'ready-to-download' : 'failed', 100);
  return { ready, total: final.length };
}

/** The clip of an incident report: its camera from the event time for its duration. */
export async function runIncidentClip(db: Db, paths: VideoPaths, job: JobContext) {
  const tenantId = job.tenantId as number;
  const id = Number(job.payload.incidentId);
  const incident = await repo.findIncident(db, tenantId, id);
  if (!incident) return { skipped: 'deleted' };
  const from = new Date(incident.event_at);
  const to = new Date(from.getTime() + incident.duration_sec * 1000);
  if (to.getTime() > Date.now() + 1000) throw new Error('footage not recorded yet'); // retried later with backoff
  try {
    await exportClip(db, paths, {
      tenantId,
      camId: incident.device_id,
      from,
      to,
      out: paths.incidentFile(tenantId, id),
      signal: job.signal,
    });
    await repo.updateIncident(db, tenantId, id, { clip_status: 'ready', clip_key: `incidents/${id}.mp4` });
    return { ready: true };
  } catch (error) {
    if (job.attempt >= 3 || (error as Error).message.includes('No footage')) {
      await repo.updateIncident(db, tenantId, id, { clip_status: 'failed' });
      return { ready: false };
    }
    throw error;
  }
}

/** Removes downloads past their expiry (SPEC 9: recordings expire after 1 hour). */
export async function expireClips(db: Db, paths: VideoPaths) {
  const expired = await repo.expiredClipJobs(db);
  for (const job of expired) {
    await removeQuietly(paths.clipJobDir(job.tenant_id, job.id));
    await repo.deleteClipJob(db, job.tenant_id, job.id);
  }
  return expired.length;
}

/**
 * Retention by age, then by size: per (tenant, storage) the segments older than the storage's retention go, then
 * the oldest until the storage is under its byte limit. Files first, then their rows; a run folder left empty goes.
 */
export async function applyRetention(db: Db, paths: VideoPaths, settings: VideoSettings, log?: Log, now = new Date()) {
  let removed = 0;
  let freed = 0;
  const touchedRuns = new Map<string, { tenantId: number; deviceId: number; storage: string; run: string }>();
  const drop = async (tenantId: number, rows: Awaited<ReturnType<typeof repo.oldestSegments>>) => {
    for (const s of rows) {
      await rm(paths.mediaFile(s.storage_path, tenantId, s.device_id, s.run, s.file), { force: true });
      touchedRuns.set(`${tenantId}:${s.device_id}:${s.run}:${s.storage_path}`, {
        tenantId,
        deviceId: s.device_id,
        storage: s.storage_path,
        run: s.run,
      });
      freed += Number(s.bytes);
    }
    await repo.deleteSegmentRows(
      db,
      tenantId,
      rows.map((r) => r.id),
    );
    removed += rows.length;
  };
  for (const store of await repo.footageStores(db)) {
    const days = store.retention_days ?? (store.storage_path === DEFAULT_STORAGE_PATH ? settings.VIDEO_RETENTION_DAYS : null);
    if (days !== null) {
      const cutoff = new Date(now.getTime() - days * 86_400_000);
      for (;;) {
        const rows = await repo.segmentsOlderThan(db, store.tenant_id, store.storage_path, cutoff, 1000);
        if (rows.length === 0) break;
        await drop(store.tenant_id, rows);
      }
    }
    if (store.max_bytes !== null) {
      const max = Number(store.max_bytes);
      let used = await repo.usedBytes(db, store.tenant_id, store.storage_path);
      while (used > max) {
        const rows = await repo.oldestSegments(db, store.tenant_id, store.storage_path, 200);
        if (rows.length === 0) break;
        let excess = used - max;
        const cut = [];
        for (const r of rows) {
          cut.push(r);
          excess -= Number(r.bytes);
          if (excess <= 0) break;
        }
        await drop(store.tenant_id, cut);
        used = await repo.usedBytes(db, store.tenant_id, store.storage_path);
      }
    }
  }
  for (const r of touchedRuns.values()) {
    if (await repo.runHasSegments(db, r.tenantId, r.deviceId, r.run)) continue;
    const dir = paths.runDir(r.storage, r.tenantId, r.deviceId, r.run);
    try {
      // A run still being written (its playlist touched in the last minute) keeps its folder.
      if (now.getTime() - (await stat(join(dir, 'live.m3u8'))).mtimeMs < 60_000) continue;
    } catch {
      // no playlist: nothing writes there
    }
    await rm(dir, { recursive: true, force: true });
  }
  if (removed) log?.info({ removed, freed }, 'video retention removed old footage');
  return { removed, freed };
}
