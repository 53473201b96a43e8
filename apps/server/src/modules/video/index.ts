import { EVENT_TYPES } from '@sitewatch/contracts/events';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import type { LiveSessionCheck } from '../../platform/push/sessions.ts';
import type { AlarmTicketed } from '../alarms/index.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { createEvidencePacks } from './evidence.ts';
import { evidenceRoutes } from './evidence-routes.ts';
import { createFootagePort, createSiteStills, type FootagePort, type SiteStillsPort } from './footage.ts';
import { applyRetention, expireClips, runClipJob, runIncidentClip } from './jobs.ts';
import { createLiveRelay, type LiveRelay } from './live-relay.ts';
import { createVideoMarkers, type VideoMarkers } from './markers.ts';
import { createClipStill } from './media.ts';
import { createVideoPaths } from './paths.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import * as repo from './repository.ts';
import { videoRoutes } from './routes.ts';
import { CLIP_QUEUE, type ClipJobAnnouncer, createVideoService, INCIDENT_CLIP_QUEUE, type VideoService } from './service.ts';
import { loadVideoSettings } from './settings.ts';
import { createTicketEvidence, TICKET_EVIDENCE_QUEUE } from './ticket-evidence.ts';

export type { VideoMarkers } from './markers.ts';
export type CheckedLive = VideoService['checkedLive'];

const RETENTION_QUEUE = 'video.retention';
const EXPIRY_QUEUE = 'video.clip-expiry';

export interface VideoPorts {
  db: Db;
  /** The networks each tenant's cameras may be dialled in (set by the system administrator). */
  outbound: OutboundNetworks;
  config: Pick<Config, 'dataDir' | 'auth'>;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  /** Cameras are devices: their sites decide who sees them. */
  directory: SiteDirectory;
  exports: ExportRegistry;
  /** Clip job progress goes out as `job.progress` events (the download button follows them). */
  events: EventBus;
  /** The install's secret that signs evidence pack links. */
  evidenceSecret: Uint8Array;
  /** Whether a viewer's session still holds (the live relay re-checks it; the auth module). */
  sessions: LiveSessionCheck;
  /** Alarms that raised or joined a ticket: the clips of the cameras mapped to the device or its site go on it. */
  alarms: { onTicketed(listener: (alarm: AlarmTicketed) => void): () => void };
  /** The cameras mapped (CAMERA MAPPING) to a device or its site. */
  devices: Pick<DeviceRecords, 'camerasMappedTo'>;
  /** Evidence windows end and clips are cut by this clock. */
  clock: Clock;
  /** Of these tickets, the ones still open (the helpdesk). */
  openTickets(tenantId: number, ids: number[]): Promise<Set<number>>;
}

export interface VideoPort {
  /** The camera recorder: main starts it for ROLE=all|recorder; app.close() stops it. */
  recorder: Recorder;
  /** The low-latency live relay (tests and the benchmark read its stats). */
  relay: LiveRelay;
  /** Recorded footage for the analysis of camera health. */
  footage: FootagePort;
  /** Stills of a site's cameras (attendance). */
  stills: SiteStillsPort;
  /** Marked stretches of recordings (maintenance windows). */
  markers: VideoMarkers;
  /**
   * Live HLS of a camera for a caller whose access another module checked (a shared analytics link): the playlist
   * with media URLs the caller builds, and the media files; it renews the camera's live-view lease.
   */
  checkedLive: CheckedLive;
  /** The RTSP URLs (with their credentials) of these cameras, by device id: the stream probe of diagnostics. */
  streamUrls(tenantId: number, deviceIds: number[]): Promise<Map<number, string>>;
}

/** Video surveillance (issue 7): camera configs, recorder, live/playback/snapshots, storages, tours, incidents, clips. */
export function createVideoModule(ports: VideoPorts): DomainModule<VideoPort> {
  const { db, config, jobs, log } = ports;
  const settings = loadVideoSettings();
  const paths = createVideoPaths(config.dataDir);
  const recorder = createRecorder({ db, paths, settings, log, outbound: ports.outbound });
  // The low-latency relay runs in the API process (ROLE=all|api): it reads the camera itself, only while watched.
  const simulatedStill = createClipStill(recorder.ensureClip);
  const relay = createLiveRelay({ settings, simulatedClip: recorder.ensureClip, log });
  const announce: ClipJobAnnouncer = (tenantId, userId, jobId, status, progress) =>
    ports.events.emit({
      type: EVENT_TYPES.jobProgress,
      tenantId,
      userIds: [userId],
      payload: { jobId, kind: 'clips', status, progress },
    });
  const video = createVideoService({
    announce,
    db,
    paths,
    settings,
    outbound: ports.outbound,
    directory: ports.directory,
    poke: () => void recorder.poke().catch((error) => log.error({ err: error }, 'recorder reconcile failed')),
    cameraChanged: (tenantId, camId) => relay.restart(`${tenantId}:${camId}`),
    simulatedStill,
    evidence: createEvidencePacks(ports.evidenceSecret),
    clock: ports.clock,
  });
  const evidence = createTicketEvidence({
    db,
    paths,
    settings,
    directory: () => ports.directory,
    events: ports.events,
    log,
    clock: ports.clock,
    openTickets: ports.openTickets,
    camerasMappedTo: ports.devices.camerasMappedTo,
  });
  // Camera clip jobs appear in the downloads list of SPEC 2.8 (GET/PUT/DELETE /api/batch-playback-download/?kind=clips).
  ports.exports.registerProvider({
    kind: 'clips',
    list: (auth, limit) => video.listBatches(auth, limit),
    markDownloaded: (auth, jobId, tid) => video.markDownloaded(auth, jobId, tid),
    own: (auth, jobId) => video.ownBatch(auth, jobId),
    remove: (auth, jobId) => video.deleteBatch(auth, jobId),
  });
  return {
    ports: {
      recorder,
      relay,
      footage: createFootagePort(db, paths, evidence),
      stills: createSiteStills(db, paths, simulatedStill),
      markers: createVideoMarkers(db),
      checkedLive: video.checkedLive,
      streamUrls: async (tenantId, deviceIds) =>
        new Map((await repo.streamUrls(db, tenantId, deviceIds)).map((r) => [r.device_id, r.stream_url as string])),
    },
    register(app) {
      videoRoutes(app, {
        video,
        live: app.websocketServer
          ? {
              relay,
              session: async (sessionId) => (await ports.sessions([sessionId])).get(sessionId) ?? null,
            }
          : undefined,
      });
      jobs.register(CLIP_QUEUE, (job) => runClipJob(db, paths, job, announce), { leaseSeconds: 120 });
      jobs.register(INCIDENT_CLIP_QUEUE, (job) => runIncidentClip(db, paths, job), { leaseSeconds: 120 });
      jobs.register(TICKET_EVIDENCE_QUEUE, (job) => evidence.cut(job), { leaseSeconds: 300 });
      jobs.register(RETENTION_QUEUE, async () => ({
        unpinned: await evidence.syncPins(),
        ...(await applyRetention(db, paths, settings, log)),
        evidenceRemoved: await evidence.expire(ports.clock.now()),
      }));
      jobs.register(EXPIRY_QUEUE, async () => ({ removed: await expireClips(db, paths) }));
      jobs.every(RETENTION_QUEUE, 10 * 60_000);
      jobs.every(EXPIRY_QUEUE, 5 * 60_000);
      evidenceRoutes(app, evidence);
      // SPEC 9: every device alarm's ticket gets the clips of the cameras mapped to the device or its site.
      const stopAlarms = ports.alarms.onTicketed((alarm) => {
        void (async () => {
          const device = await ports.directory.device(alarm.tenantId, alarm.deviceId);
          const cameraIds = await evidence.camerasOfDevice(alarm.tenantId, alarm.deviceId, alarm.assetId, device?.type ?? null);
          if (cameraIds.length === 0) return;
          await evidence.request({
            tenantId: alarm.tenantId,
            ticketId: alarm.ticketId,
            ticketNo: alarm.ticketNo,
            cameraIds,
            source: 'alarm',
            sourceId: alarm.alarmId,
            eventAt: alarm.raisedAt,
            windowSeconds: settings.VIDEO_EVIDENCE_WINDOW_SEC,
          });
        })().catch((error) => log.error({ err: error, alarmId: alarm.alarmId }, 'alarm video evidence could not be requested'));
      });
      // A resolved or closed ticket releases its footage to normal retention; reopened, it is kept again.
      const stopTickets = ports.events.subscribe((event) => {
        if (event.type !== EVENT_TYPES.ticketUpdated) return;
        const t = event.payload;
        void evidence
          .ticketChanged(event.tenantId, t.id, t.status, t.locationId)
          .catch((error) => log.error({ err: error, ticketId: t.id }, 'ticket evidence pin could not be updated'));
      });
      app.addHook('onClose', async () => {
        stopAlarms();
        stopTickets();
        relay.stop();
        await recorder.stop();
      });
    },
  };
}
