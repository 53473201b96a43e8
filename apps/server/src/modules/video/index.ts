import { EVENT_TYPES } from '@sitewatch/contracts/events';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../platform/db.ts';
import { liveSessions } from '../../platform/push/sessions.ts';
import { exportsOf } from '../downloads/registry.ts';
import { applyRetention, expireClips, runClipJob, runIncidentClip } from './jobs.ts';
import { createLiveRelay, type LiveRelay } from './live-relay.ts';
import { createVideoPaths } from './paths.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import { videoRoutes } from './routes.ts';
import { CLIP_QUEUE, type ClipJobAnnouncer, createVideoService, INCIDENT_CLIP_QUEUE } from './service.ts';
import { loadVideoSettings } from './settings.ts';

const recorders = new WeakMap<Db, Recorder>();

/**
 * The camera recorder of an app built on this database (modules register in an encapsulated scope, so the root
 * instance cannot carry it): main starts it for ROLE=all|recorder; app.close() stops it.
 */
export const videoRecorderOf = (db: Db): Recorder | undefined => recorders.get(db);
const relays = new WeakMap<Db, LiveRelay>();
/** The low-latency live relay of an app built on this database (tests and the benchmark read its stats). */
export const videoRelayOf = (db: Db): LiveRelay | undefined => relays.get(db);

const RETENTION_QUEUE = 'video.retention';
const EXPIRY_QUEUE = 'video.clip-expiry';

/** Video surveillance (issue 7): camera configs, recorder, live/playback/snapshots, storages, tours, incidents, clips. */
export function videoModule(app: FastifyInstance, context: AppContext) {
  const settings = loadVideoSettings();
  const paths = createVideoPaths(context.config.dataDir);
  const recorder = createRecorder({ db: context.db, paths, settings, log: app.log });
  recorders.set(context.db, recorder);
  // The low-latency relay runs in the API process (ROLE=all|api): it reads the camera itself, only while watched.
  const relay = createLiveRelay({ settings, simulatedClip: recorder.ensureClip, log: app.log });
  relays.set(context.db, relay);
  const announce: ClipJobAnnouncer = (tenantId, userId, jobId, status, progress) =>
    context.events.emit({
      type: EVENT_TYPES.jobProgress,
      tenantId,
      userIds: [userId],
      payload: { jobId, kind: 'clips', status, progress },
    });
  const video = createVideoService({
    announce,
    db: context.db,
    paths,
    settings,
    directory: () => context.directory,
    poke: () => void recorder.poke().catch((error) => app.log.error({ err: error }, 'recorder reconcile failed')),
    cameraChanged: (tenantId, camId) => relay.restart(`${tenantId}:${camId}`),
  });
  videoRoutes(app, {
    video,
    live: app.websocketServer
      ? {
          relay,
          session: async (sessionId) =>
            (await liveSessions(context.db, [sessionId], context.config.auth.sessionIdleMinutes)).get(sessionId) ?? null,
        }
      : undefined,
  });
  // Camera clip jobs appear in the downloads list of SPEC 2.8 (GET/PUT/DELETE /api/batch-playback-download/?kind=clips).
  exportsOf(context).registerProvider({
    kind: 'clips',
    list: (auth, limit) => video.listBatches(auth, limit),
    markDownloaded: (auth, jobId, tid) => video.markDownloaded(auth, jobId, tid),
    remove: (auth, jobId) => video.deleteBatch(auth, jobId),
  });
  context.jobs.register(CLIP_QUEUE, (job) => runClipJob(context.db, paths, job, announce), { leaseSeconds: 120 });
  context.jobs.register(INCIDENT_CLIP_QUEUE, (job) => runIncidentClip(context.db, paths, job), { leaseSeconds: 120 });
  context.jobs.register(RETENTION_QUEUE, async () => applyRetention(context.db, paths, settings, app.log));
  context.jobs.register(EXPIRY_QUEUE, async () => ({ removed: await expireClips(context.db, paths) }));
  context.jobs.every(RETENTION_QUEUE, 10 * 60_000);
  context.jobs.every(EXPIRY_QUEUE, 5 * 60_000);
  app.addHook('onClose', async () => {
    relay.stop();
    await recorder.stop();
  });
}
