import { createReadStream } from 'node:fs';
import {
  batchDownloadCreatedSchema,
  batchDownloadInputSchema,
  cameraConfigInputSchema,
  cameraListQuerySchema,
  cameraListSchema,
  cameraSchema,
  camIdParamSchema,
  downloadJobSchema,
  downloadListSchema,
  evidenceFileParamSchema,
  evidencePackInputSchema,
  evidencePackSchema,
  evidencePublicSchema,
  evidenceTokenParamSchema,
  idParamSchema,
  incidentInputSchema,
  incidentListQuerySchema,
  incidentListSchema,
  incidentSchema,
  incidentUpdateSchema,
  jobIdParamSchema,
  liveViewSchema,
  markDownloadedSchema,
  mediaParamSchema,
  okSchema,
  rangeQuerySchema,
  snapshotSchema,
  storageInputSchema,
  storageListQuerySchema,
  storageListSchema,
  storageSchema,
  tableCameraQuerySchema,
  tableCameraSchema,
  taskFileParamSchema,
  timelineSchema,
  tourInputSchema,
  tourListSchema,
  tourSchema,
  videoToolsSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { type AuthContext, objectGuard, permissionGuard, requireAuth, requireTenant, roleGuard } from '../../platform/auth/context.ts';
import { forbidden, HttpError } from '../../platform/errors.ts';
import { describeTool, missingToolsMessage, videoTools } from '../../platform/ffmpeg/index.ts';
import { LIVE_CLOSE, type LiveRelay } from './live-relay.ts';
import type { VideoService } from './service.ts';

const HLS = 'application/vnd.apple.mpegurl';
const emptyQuery = z.strictObject({});
const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

function sendFile(reply: FastifyReply, file: { path: string; size: number; name?: string }, type: string, cache: string) {
  reply.header('content-type', type).header('content-length', String(file.size)).header('cache-control', cache);
  if (file.name) reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  return reply.send(createReadStream(file.path));
}

/** SPEC 7 camera calls and the video screens' API. Every route checks the caller's right to the camera's site. */
/** The roles that configure cameras, storages and tours (the service checks the same). */
const videoAdmins = roleGuard('sysadmin', 'customeradmin', 'localadmin', 'infraadmin');
const LIVE_RECHECK_MS = 60_000;
const MAX_LIVE_SOCKETS_PER_USER = 32;

/** A page of another origin must not open a socket with the user's cookie (as the push hub's /ws). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export interface LiveRouteDeps {
  relay: LiveRelay;
  /** The session's current roles and permissions, or null when it no longer holds (revoked, expired, idle). */
  session: (sessionId: string) => Promise<{ roles: string[]; permissions: ReadonlySet<string> } | null>;
}

/** SPEC 7 camera calls and the video screens' API. Every route checks the caller's right to the camera's site. */
export function videoRoutes(app: FastifyInstance, opts: { video: VideoService; live?: LiveRouteDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { video } = opts;
  const cameraViewers = permissionGuard('view_camera');
  const incident = objectGuard(idParamSchema, (_req, { id }, auth) => video.incidentAccess(auth, id));
  const ownClipJob = objectGuard(jobIdParamSchema, (_req, { jobId }, auth) => video.ownBatch(auth, jobId));
  const tags = ['video'];
  const liveSockets = new Map<string, number>();

  // ---------------------------------------------------------------- low-latency live (fMP4 over WebSocket)
  const live = opts.live;
  if (live) {
    const sources = new WeakMap<FastifyRequest, Awaited<ReturnType<VideoService['liveSource']>>>();
    r.get(
      '/api/cameras/:camId/live/ws',
      {
        websocket: true,
        schema: { tags, params: camIdParamSchema, querystring: emptyQuery },
        onRequest: async (request) => {
          if (!sameOrigin(request)) throw forbidden();
        },
        // The access checks run before the upgrade: a refused socket gets the HTTP answer (401/403/404).
        preHandler: async (request) => {
          const auth = requireAuth(request);
          const user = `${auth.tenantId}:${auth.userId}`;
          if ((liveSockets.get(user) ?? 0) >= MAX_LIVE_SOCKETS_PER_USER) throw new HttpError(429, 'Too many live streams open');
          sources.set(request, await video.liveSource(auth, (request.params as { camId: number }).camId));
        },
        // as /ws: an upgrade refused by a hook leaves the plugin's socket open after the answer; end it here
        onResponse: async (request) => {
          if (request.headers.upgrade) request.raw.socket.destroy();
        },
      },
      (socket, request) => {
        const auth = requireAuth(request);
        const found = sources.get(request);
        if (!found) {
          socket.close(LIVE_CLOSE.refused, 'not allowed');
          return;
        }
        const user = `${auth.tenantId}:${auth.userId}`;
        liveSockets.set(user, (liveSockets.get(user) ?? 0) + 1);
        const camId = (request.params as { camId: number }).camId;
        let open = true;
        const leave = live.relay.watch(found.key, found.source, {
          send(data, at) {
            if (!open) return;
            const header = Buffer.allocUnsafe(8);
            header.writeDoubleBE(at, 0);
            socket.send(Buffer.concat([header, data]), { binary: true });
          },
          backlog: () => socket.bufferedAmount,
          close(code, reason) {
            if (open) socket.close(code, reason);
          },
        });
        // A socket is held to the same rule as an HTTP call: the session and the camera access are re-read.
        const recheck = setInterval(() => {
          void (async () => {
            const session = await live.session(auth.sessionId);
            if (!session) return socket.close(LIVE_CLOSE.refused, 'session ended');
            const current: AuthContext = { ...auth, roles: session.roles, permissions: session.permissions };
            await video.liveSource(current, camId).catch(() => socket.close(LIVE_CLOSE.refused, 'access withdrawn'));
          })().catch((err) => request.log.warn({ err }, 'live access re-check failed'));
        }, LIVE_RECHECK_MS);
        socket.on('message', () => undefined); // the stream is one-way; anything sent is ignored
        socket.on('close', () => {
          open = false;
          clearInterval(recheck);
          const left = (liveSockets.get(user) ?? 1) - 1;
          if (left <= 0) liveSockets.delete(user);
          else liveSockets.set(user, left);
          leave();
        });
      },
    );
  }

  // ---------------------------------------------------------------- cameras
  r.get('/api/video-tools/', { schema: { tags, querystring: emptyQuery, response: { 200: videoToolsSchema } } }, async () => {
    const tools = videoTools();
    return { ffmpeg: describeTool(tools.ffmpeg), ffprobe: describeTool(tools.ffprobe), message: missingToolsMessage(tools) };
  });
  r.get('/api/cameras/', { schema: { tags, querystring: cameraListQuerySchema, response: { 200: cameraListSchema } } }, async (req) =>
    video.listCameras(requireAuth(req), req.query),
  );
  r.get('/api/cameras/:camId/', { schema: { tags, params: camIdParamSchema, response: { 200: cameraSchema } } }, async (req) =>
    video.getCamera(requireAuth(req), req.params.camId),
  );
  r.put(
    '/api/cameras/:camId/configs/',
    { preHandler: videoAdmins, schema: { tags, params: camIdParamSchema, body: cameraConfigInputSchema, response: { 200: cameraSchema } } },
    async (req) => video.configure(requireAuth(req), req.params.camId, req.body, originOf(req)),
  );
  r.delete('/api/cameras/:camId/configs/', { schema: { tags, params: camIdParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.removeConfig(requireAuth(req), req.params.camId, originOf(req)),
  );

  // ---------------------------------------------------------------- live, playback, snapshots
  r.get('/api/cameras/:camId/live-view/', { schema: { tags, params: camIdParamSchema, response: { 200: liveViewSchema } } }, async (req) =>
    video.liveView(requireAuth(req), req.params.camId),
  );
  r.delete('/api/cameras/:camId/live-view/', { schema: { tags, params: camIdParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.stopLiveView(requireAuth(req), req.params.camId),
  );
  r.get('/api/cameras/:camId/live.m3u8', { schema: { tags, params: camIdParamSchema, querystring: emptyQuery } }, async (req, reply) => {
    const text = await video.live(requireAuth(req), req.params.camId);
    return reply.header('content-type', HLS).header('cache-control', 'no-store').send(text);
  });
  r.get(
    '/api/cameras/:camId/playback.m3u8',
    { schema: { tags, params: camIdParamSchema, querystring: rangeQuerySchema } },
    async (req, reply) => {
      const text = await video.playback(requireAuth(req), req.params.camId, new Date(req.query.from), new Date(req.query.to));
      return reply.header('content-type', HLS).header('cache-control', 'no-store').send(text);
    },
  );
  r.get(
    '/api/cameras/:camId/timeline/',
    { schema: { tags, params: camIdParamSchema, querystring: rangeQuerySchema, response: { 200: timelineSchema } } },
    async (req) => video.timeline(requireAuth(req), req.params.camId, new Date(req.query.from), new Date(req.query.to)),
  );
  r.get(
    '/api/cameras/:camId/media/:run/:file',
    { schema: { tags, params: mediaParamSchema, querystring: emptyQuery } },
    async (req, reply) => {
      const file = await video.mediaFile(requireAuth(req), req.params.camId, req.params.run, req.params.file);
      const type = req.params.file.endsWith('.mp4') ? 'video/mp4' : 'video/iso.segment';
      return sendFile(reply, file, type, 'private, max-age=3600');
    },
  );
  r.get('/api/cameras/:camId/snapshot/', { schema: { tags, params: camIdParamSchema, response: { 200: snapshotSchema } } }, async (req) =>
    video.snapshot(requireAuth(req), req.params.camId),
  );
  r.get(
    '/api/cameras/:camId/snapshot/image/',
    { schema: { tags, params: camIdParamSchema, querystring: z.strictObject({ t: z.coerce.number().int().optional() }) } },
    async (req, reply) =>
      sendFile(reply, await video.snapshotImage(requireAuth(req), req.params.camId), 'image/jpeg', 'private, max-age=60'),
  );

  // ---------------------------------------------------------------- storages
  r.get('/api/storages/', { schema: { tags, querystring: storageListQuerySchema, response: { 200: storageListSchema } } }, async (req) =>
    video.listStorages(requireAuth(req), req.query),
  );
  r.post(
    '/api/storages/',
    { preHandler: videoAdmins, schema: { tags, body: storageInputSchema, response: { 200: storageSchema } } },
    async (req) => video.saveStorage(requireAuth(req), null, req.body, originOf(req)),
  );
  r.get('/api/storages/:id/', { schema: { tags, params: idParamSchema, response: { 200: storageSchema } } }, async (req) =>
    video.getStorage(requireAuth(req), req.params.id),
  );
  r.put(
    '/api/storages/:id/',
    { preHandler: videoAdmins, schema: { tags, params: idParamSchema, body: storageInputSchema, response: { 200: storageSchema } } },
    async (req) => video.saveStorage(requireAuth(req), req.params.id, req.body, originOf(req)),
  );
  r.delete('/api/storages/:id/', { schema: { tags, params: idParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.deleteStorage(requireAuth(req), req.params.id, originOf(req)),
  );

  // ---------------------------------------------------------------- tours
  r.get('/api/camera-tours/', { schema: { tags, querystring: pageQuery, response: { 200: tourListSchema } } }, async (req) =>
    video.listTours(requireAuth(req), req.query),
  );
  r.post(
    '/api/camera-tours/',
    { preHandler: videoAdmins, schema: { tags, body: tourInputSchema, response: { 200: tourSchema } } },
    async (req) => video.createTour(requireAuth(req), req.body, originOf(req)),
  );
  r.get('/api/camera-tours/:id/', { schema: { tags, params: idParamSchema, response: { 200: tourSchema } } }, async (req) =>
    video.getTour(requireAuth(req), req.params.id),
  );
  r.put(
    '/api/camera-tours/:id/',
    { preHandler: videoAdmins, schema: { tags, params: idParamSchema, body: tourInputSchema, response: { 200: tourSchema } } },
    async (req) => video.updateTour(requireAuth(req), req.params.id, req.body, originOf(req)),
  );
  r.delete('/api/camera-tours/:id/', { schema: { tags, params: idParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.deleteTour(requireAuth(req), req.params.id, originOf(req)),
  );

  // ---------------------------------------------------------------- incident reports
  r.get(
    '/api/incident-reports/',
    { schema: { tags, querystring: incidentListQuerySchema, response: { 200: incidentListSchema } } },
    async (req) => video.listIncidents(requireAuth(req), req.query),
  );
  r.get(
    '/api/incident-reports/table-camera/',
    { schema: { tags, querystring: tableCameraQuerySchema, response: { 200: tableCameraSchema } } },
    async (req) => video.tableCamera(requireAuth(req), req.query.table),
  );
  r.post(
    '/api/incident-reports/',
    { preHandler: cameraViewers, schema: { tags, body: incidentInputSchema, response: { 200: incidentSchema } } },
    async (req) => video.createIncident(requireAuth(req), req.body, originOf(req)),
  );
  r.get('/api/incident-reports/:id/', { schema: { tags, params: idParamSchema, response: { 200: incidentSchema } } }, async (req) =>
    video.getIncident(requireAuth(req), req.params.id),
  );
  r.put(
    '/api/incident-reports/:id/',
    { preHandler: incident, schema: { tags, params: idParamSchema, body: incidentUpdateSchema, response: { 200: incidentSchema } } },
    async (req) => video.updateIncident(requireAuth(req), req.params.id, req.body, originOf(req)),
  );
  r.delete('/api/incident-reports/:id/', { schema: { tags, params: idParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.deleteIncident(requireAuth(req), req.params.id, originOf(req)),
  );
  r.get('/api/incident-reports/:id/clip/', { schema: { tags, params: idParamSchema } }, async (req, reply) =>
    sendFile(reply, await video.incidentClip(requireAuth(req), req.params.id), 'video/mp4', 'private, no-store'),
  );
  r.post(
    '/api/incident-reports/:id/pack/',
    { preHandler: incident, schema: { tags, params: idParamSchema, body: evidencePackInputSchema, response: { 200: evidencePackSchema } } },
    async (req) => video.incidentPack(requireAuth(req), req.params.id, req.body.days, originOf(req)),
  );
  // The shared evidence pack: anyone with the link, on the tenant's own address, until it expires.
  r.get(
    '/api/evidence/:token/',
    {
      config: { access: { public: true } },
      schema: { tags, params: evidenceTokenParamSchema, querystring: emptyQuery, response: { 200: evidencePublicSchema } },
    },
    async (req) => video.evidence(requireTenant(req).id, req.params.token),
  );
  r.get(
    '/api/evidence/:token/:name',
    { config: { access: { public: true } }, schema: { tags, params: evidenceFileParamSchema, querystring: emptyQuery } },
    async (req, reply) => {
      const file = await video.evidenceFile(requireTenant(req).id, req.params.token, req.params.name);
      return sendFile(reply, file, req.params.name === 'summary.pdf' ? 'application/pdf' : 'video/mp4', 'private, no-store');
    },
  );

  // ---------------------------------------------------------------- batch playback downloads (clips)
  r.post(
    '/api/batch-playback-download/',
    { preHandler: cameraViewers, schema: { tags, body: batchDownloadInputSchema, response: { 200: batchDownloadCreatedSchema } } },
    async (req) => video.createBatch(requireAuth(req), req.body),
  );
  r.get('/api/video-clips/', { schema: { tags, querystring: emptyQuery, response: { 200: downloadListSchema } } }, async (req) => {
    const jobs = await video.listBatches(requireAuth(req));
    return { jobs, totalCount: jobs.length };
  });
  r.get('/api/video-clips/:jobId/', { schema: { tags, params: jobIdParamSchema, response: { 200: downloadJobSchema } } }, async (req) =>
    video.getBatch(requireAuth(req), req.params.jobId),
  );
  r.put(
    '/api/video-clips/:jobId/',
    {
      preHandler: ownClipJob,
      schema: { tags, params: jobIdParamSchema, body: markDownloadedSchema, response: { 200: downloadJobSchema } },
    },
    async (req) => video.markDownloaded(requireAuth(req), req.params.jobId, req.body.tid),
  );
  r.delete('/api/video-clips/:jobId/', { schema: { tags, params: jobIdParamSchema, response: { 200: okSchema } } }, async (req) =>
    video.deleteBatch(requireAuth(req), req.params.jobId),
  );
  r.get('/api/video-clips/:jobId/:tid/file/', { schema: { tags, params: taskFileParamSchema } }, async (req, reply) =>
    sendFile(reply, await video.clipFile(requireAuth(req), req.params.jobId, req.params.tid), 'video/mp4', 'private, no-store'),
  );
}
