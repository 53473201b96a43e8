import { access, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ANALYSER_LABELS,
  ANALYSIS_CONSTANTS,
  type Analyser,
  type AnalysisCameraSettings,
  type AnalysisCameraSettingsBody,
  type AnalysisQueue,
  type AnalysisResult,
  type AnalysisResultPage,
  type AnalysisResultQuery,
  type AnalysisSummaryRow,
  type AnalysisVerdictBody,
  analysisSuggestion,
  EVIDENCE_CONSTANTS,
  isCustomerAdmin,
  localMinutes,
  ROLES_SEEING_ALL_SITES,
  withinHours,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import { type AuthContext, hasPermission, hasRole } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { SystemTickets } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { FootagePort, RecordingCamera } from '../video/footage.ts';
import {
  analyseFootage,
  extractFrame,
  type Finding,
  type MotionFinding,
  SCENE_SIMILARITY_MIN,
  type SceneProbe,
  sceneOffset,
} from './analysers.ts';
import * as repo from './repository.ts';

export const VIEW_CAMERA = 'view_camera';
/** A verdict may close the AI audit ticket, so it takes the right to change tickets (or an administrator). */
const VERDICT_PERMISSION = 'change_ticket';
const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin', 'infraadmin'];
/** A finding this soon after the previous one of the same analyser on the same camera is the same fault. */
const ONGOING_FAULT_MS = 10 * 60_000;

export interface AnalysisDeps {
  db: Db;
  log: FastifyBaseLogger;
  clock: Clock;
  dataDir: string;
  /** Video lost or back goes out as `device.health` (the site summaries' "cameras with video loss"). */
  events: EventBus;
  directory: SiteDirectory;
  footage: FootagePort;
  tickets: SystemTickets;
  users: UserDirectory;
}

interface Detected {
  analyser: Analyser;
  at: Date;
  endAt: Date | null;
  score: number;
  detail: string;
  /** Seconds into the footage where the frame is taken (null: no footage, e.g. video loss). */
  frameOffset: number | null;
}

export function createAnalysisService(deps: AnalysisDeps) {
  const { db, log, clock } = deps;
  const framesDir = (tenantId: number) => join(deps.dataDir, 'analysis', String(Math.trunc(tenantId)));
  const frameFile = (tenantId: number, name: string) => join(framesDir(tenantId), name);

  // the helpdesk's own rule for changing tickets (a verdict may resolve one), or a video administrator
  const canVerify = (auth: AuthContext) =>
    hasRole(auth, ...ADMIN_ROLES, ...ROLES_SEEING_ALL_SITES) || isCustomerAdmin(auth.roles) || hasPermission(auth, VERDICT_PERMISSION);
  // the analysers' settings are camera configuration: the video administrators (as camera configs)
  const canConfigure = (auth: AuthContext) => hasRole(auth, ...ADMIN_ROLES);
  const requireView = (auth: AuthContext) => {
    if (!hasPermission(auth, VIEW_CAMERA) && !hasRole(auth, ...ADMIN_ROLES)) throw forbidden();
  };
  const sitesOf = (auth: AuthContext) => deps.directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);

  /** A camera of the caller's tenant on a site they see; anything else is "not found" (never named). */
  async function visibleCamera(auth: AuthContext, camId: number) {
    requireView(auth);
    const device = await deps.directory.device(auth.tenantId, camId);
    const sites = await sitesOf(auth);
    if (device?.type !== 'CAMERA' || (sites !== 'all' && (device.assetId === null || !sites.includes(device.assetId)))) {
      throw notFound('Camera not found');
    }
    return device;
  }

  async function visibleResult(auth: AuthContext, id: number) {
    requireView(auth);
    const row = await repo.findResult(db, auth.tenantId, id);
    const sites = await sitesOf(auth);
    if (!row || (sites !== 'all' && (row.asset_id === null || !sites.includes(row.asset_id)))) throw notFound('Result not found');
    return row;
  }

  /** The current labels of the cameras the rows name, one directory lookup per camera. */
  async function cameraLabels(tenantId: number, rows: ReadonlyArray<{ device_id: number }>) {
    const ids = [...new Set(rows.map((r) => r.device_id))];
    return new Map(
      await Promise.all(ids.map(async (id) => [id, (await deps.directory.device(tenantId, id))?.label ?? `Camera ${id}`] as const)),
    );
  }

  async function present(tenantId: number, rows: repo.ResultRow[]): Promise<AnalysisResult[]> {
    const labels = await cameraLabels(tenantId, rows);
    const verifierIds = [...new Set(rows.map((r) => r.verified_by).filter((id): id is number => id !== null))];
    const verifiers = new Map(
      (verifierIds.length ? await deps.users.byIds(tenantId, verifierIds) : []).map((u) => [u.id, `${u.firstname} ${u.lastname}`.trim()]),
    );
    return rows.map((r) => ({
      id: r.id,
      cameraId: r.device_id,
      cameraLabel: labels.get(r.device_id) ?? `Camera ${r.device_id}`,
      siteId: r.asset_id,
      analyser: r.analyser as Analyser,
      at: new Date(r.at).toISOString(),
      endAt: r.end_at ? new Date(r.end_at).toISOString() : null,
      score: Math.round(r.score * 100) / 100,
      detail: r.detail,
      hasFrame: r.frame_file !== null,
      verdict: r.verdict as AnalysisResult['verdict'],
      reason: r.reason,
      verifiedBy: r.verified_by === null ? null : (verifiers.get(r.verified_by) ?? null),
      verifiedAt: r.verified_at ? new Date(r.verified_at).toISOString() : null,
      ticketId: r.ticket_id,
      ticketNo: r.ticket_no,
    }));
  }

  /**
   * Stores a finding with its frame and, above the ticket score, raises (or joins) the camera's AI audit ticket.
   * A fault that goes on (the same analyser found it on this camera within the last few minutes) is told once, so a
   * covered camera does not fill the verification queue with one result a minute.
   */
  async function record(camera: RecordingCamera, found: Detected, input: string | null) {
    const last = await repo.lastFindingAt(db, camera.tenantId, camera.deviceId, found.analyser);
    if (last && found.at.getTime() - new Date(last).getTime() < ONGOING_FAULT_MS && found.at.getTime() >= new Date(last).getTime())
      return null;
    const { id } = await repo.insertResult(db, {
      tenant_id: camera.tenantId,
      device_id: camera.deviceId,
      asset_id: camera.assetId,
      analyser: found.analyser,
      at: found.at,
      end_at: found.endAt,
      score: Math.max(0, Math.min(1, found.score)),
      detail: found.detail.slice(0, 500),
      frame_file: null,
    });
    if (input !== null && found.frameOffset !== null) {
      const name = `${id}.jpg`;
      try {
        await mkdir(framesDir(camera.tenantId), { recursive: true });
        await extractFrame(input, found.frameOffset, frameFile(camera.tenantId, name));
        await repo.setFrame(db, id, name);
      } catch (error) {
        log.warn({ err: error, cameraId: camera.deviceId }, 'analysis frame could not be taken');
      }
    }
    if (found.score >= ANALYSIS_CONSTANTS.ticketScore) {
      try {
        const ticket = await deps.tickets.createTicket(camera.tenantId, {
          type: 'AIAlarmTicket',
          title: `${ANALYSER_LABELS[found.analyser]} on ${camera.label}`.slice(0, 250),
          description: `${found.detail} (score ${found.score.toFixed(2)}) at ${found.at.toISOString()}.`,
          event: 'Camera Health',
          subEvent: ANALYSER_LABELS[found.analyser],
          entityId: camera.deviceId,
          locationId: camera.assetId,
          deviceName: camera.label,
          metadata: { confidence: Number(found.score.toFixed(2)), analysisResultId: id, analyser: found.analyser },
          reuseOpen: true,
        });
        await repo.setTicket(db, id, ticket.id, ticket.ticketId);
        // the ticket carries the finding's frame (its result) and a short clip around it, cut once recorded
        await deps.footage.attachClips({
          tenantId: camera.tenantId,
          ticketId: ticket.id,
          ticketNo: ticket.ticketId,
          cameraIds: [camera.deviceId],
          source: 'analysis',
          sourceId: id,
          eventAt: found.at,
          windowSeconds: EVIDENCE_CONSTANTS.analysisWindowSeconds,
        });
      } catch (error) {
        log.error({ err: error, cameraId: camera.deviceId }, 'AI audit ticket could not be raised');
      }
    }
    return id;
  }

  /** The camera's reference frame on disk, or null when none has been taken (or its file is gone: a new one is). */
  async function referenceOf(camera: RecordingCamera, state: Awaited<ReturnType<typeof repo.cameraState>>) {
    if (!state?.reference_file) return null;
    const path = frameFile(camera.tenantId, state.reference_file);
    return access(path).then(
      () => path,
      () => null,
    );
  }

  /**
   * The scene check, from the pass's comparison of the probe keyframe with the camera's reference frame. Without a
   * reference, the first one taken becomes it.
   */
  async function sceneCheck(
    camera: RecordingCamera,
    probe: SceneProbe | null,
    hasReference: boolean,
    input: string,
    from: Date,
    seconds: number,
  ) {
    if (!hasReference) {
      const name = `reference-${camera.deviceId}.jpg`;
      await mkdir(framesDir(camera.tenantId), { recursive: true });
      await extractFrame(input, sceneOffset(seconds), frameFile(camera.tenantId, name));
      await repo.saveCameraState(db, camera.tenantId, camera.deviceId, { reference_file: name, reference_at: clock.now() });
      return null;
    }
    if (!probe || probe.similarity >= SCENE_SIMILARITY_MIN) return null;
    return {
      analyser: 'sceneChange',
      at: new Date(from.getTime() + probe.offset * 1000),
      endAt: null,
      score: Math.min(1, 1 - probe.similarity),
      detail: `Similarity to the reference frame ${probe.similarity.toFixed(2)} (below ${SCENE_SIMILARITY_MIN})`,
      frameOffset: probe.offset,
    } satisfies Detected;
  }

  /**
   * Motion in the camera's region during its hours: asked of the analysis pass only when a region is set and the
   * footage touches the hours; a stretch of motion whose start falls in the hours is a finding.
   */
  function regionWatch(state: Awaited<ReturnType<typeof repo.cameraState>>, from: Date, to: Date) {
    if (!state?.region || !state.motion_from || !state.motion_to) return null;
    const tz = state.motion_tz ?? 'UTC';
    const { motion_from: start, motion_to: end, region } = state;
    const inHours = (at: Date) => withinHours(localMinutes(at, tz), start, end);
    if (!inHours(from) && !inHours(to)) return null;
    const threshold = Number(state.motion_threshold);
    return {
      region,
      threshold,
      found: (motion: MotionFinding[]): Detected[] =>
        motion
          .map((m) => ({
            analyser: 'regionMotion' as const,
            at: new Date(from.getTime() + m.offset * 1000),
            endAt: new Date(from.getTime() + (m.offset + m.duration) * 1000),
            score: m.score,
            detail: `Motion in the region: change up to ${m.peak.toFixed(1)} % (threshold ${threshold} %) between ${start} and ${end}`,
            frameOffset: m.offset,
          }))
          .filter((d) => inHours(d.at)),
    };
  }

  const settingsOf = (camId: number, state: Awaited<ReturnType<typeof repo.cameraState>>): AnalysisCameraSettings => ({
    cameraId: camId,
    region: state?.region ?? null,
    motionFrom: state?.motion_from ?? '20:00',
    motionTo: state?.motion_to ?? '06:00',
    timeZone: state?.motion_tz ?? 'UTC',
    threshold: state ? Number(state.motion_threshold) : 1,
    hasReference: Boolean(state?.reference_file),
  });

  const health = (camera: RecordingCamera, videoLost: boolean) =>
    deps.events.emit({
      type: 'device.health',
      tenantId: camera.tenantId,
      payload: { deviceId: camera.deviceId, assetId: camera.assetId, videoLost },
    });

  /** Analyses one camera's footage recorded since the last pass; returns the number of findings. */
  async function analyseCamera(camera: RecordingCamera, signal?: AbortSignal): Promise<number> {
    const state = await repo.cameraState(db, camera.tenantId, camera.deviceId);
    const now = clock.now();
    const lostFor = camera.lastSegmentAt ? (now.getTime() - camera.lastSegmentAt.getTime()) / 1000 : null;
    if (lostFor !== null && lostFor > ANALYSIS_CONSTANTS.videoLossSeconds) {
      if (!state?.video_lost_since) {
        await repo.saveCameraState(db, camera.tenantId, camera.deviceId, { video_lost_since: camera.lastSegmentAt ?? now });
        health(camera, true);
        await record(
          camera,
          {
            analyser: 'videoLoss',
            at: camera.lastSegmentAt ?? now,
            endAt: null,
            score: 1,
            detail: `No video recorded for ${Math.round(lostFor)} s`,
            frameOffset: null,
          },
          null,
        );
        return 1;
      }
      return 0;
    }
    if (state?.video_lost_since) {
      await repo.saveCameraState(db, camera.tenantId, camera.deviceId, { video_lost_since: null });
      health(camera, false);
    }
    const since = state?.analysed_until
      ? new Date(state.analysed_until)
      : new Date(now.getTime() - ANALYSIS_CONSTANTS.windowSeconds * 1000);
    const footage = await deps.footage.since(camera.tenantId, camera.deviceId, since, ANALYSIS_CONSTANTS.windowSeconds);
    if (!footage) return 0;
    const seconds = Math.max(1, (footage.to.getTime() - footage.from.getTime()) / 1000);
    const watch = regionWatch(state, footage.from, footage.to);
    const reference = await referenceOf(camera, state);
    if (watch) await mkdir(framesDir(camera.tenantId), { recursive: true });
    // one ffmpeg process a camera: the detectors, the region's motion and the scene check share one decode
    const pass = await analyseFootage(footage.input, seconds, {
      signal,
      motion: watch
        ? { region: watch.region, thresholdPercent: watch.threshold, file: frameFile(camera.tenantId, `motion-${camera.deviceId}.txt`) }
        : undefined,
      scene: reference
        ? { reference, offset: sceneOffset(seconds), file: frameFile(camera.tenantId, `scene-${camera.deviceId}.txt`) }
        : undefined,
    });
    const detected: Detected[] = pass.findings.map((f: Finding) => ({
      analyser: f.analyser,
      at: new Date(footage.from.getTime() + f.offset * 1000),
      endAt: new Date(footage.from.getTime() + (f.offset + f.duration) * 1000),
      score: f.score,
      detail: f.detail,
      frameOffset: f.offset + Math.min(f.duration / 2, 1),
    }));
    // a black or frozen picture says nothing about where the camera points
    if (!detected.some((d) => d.analyser === 'black' || d.analyser === 'frozen')) {
      const scene = await sceneCheck(camera, pass.scene, reference !== null, footage.input, footage.from, seconds);
      if (scene) detected.push(scene);
    }
    if (watch) detected.push(...watch.found(pass.motion));
    let recorded = 0;
    for (const d of detected) if ((await record(camera, d, footage.input)) !== null) recorded++;
    await repo.saveCameraState(db, camera.tenantId, camera.deviceId, { analysed_until: footage.to });
    return recorded;
  }

  let cursor = 0;
  return {
    canVerify,
    canConfigure,
    visibleResult,
    visibleCamera,
    analyseCamera,
    /**
     * One pass over the recording cameras within a CPU budget: cameras are taken in turn from where the last pass
     * stopped, one ffmpeg at a time (one thread each), until `budgetMs` is spent.
     */
    async sweep(opts: { budgetMs?: number; signal?: AbortSignal } = {}) {
      const cameras = await deps.footage.recordingCameras();
      const deadline = Date.now() + (opts.budgetMs ?? 15_000);
      let analysed = 0;
      let found = 0;
      for (let i = 0; i < cameras.length && Date.now() < deadline; i++) {
        const camera = cameras[(cursor + i) % cameras.length] as RecordingCamera;
        try {
          found += await analyseCamera(camera, opts.signal);
        } catch (error) {
          log.warn({ err: error, cameraId: camera.deviceId, tenantId: camera.tenantId }, 'camera analysis failed');
        }
        analysed++;
      }
      cursor = cameras.length ? (cursor + analysed) % cameras.length : 0;
      return { cameras: cameras.length, analysed, found };
    },

    async list(auth: AuthContext, q: AnalysisResultQuery): Promise<AnalysisResultPage> {
      requireView(auth);
      const { rows, count } = await repo.listResults(db, auth.tenantId, await sitesOf(auth), q);
      return { count, results: await present(auth.tenantId, rows) };
    },

    async queue(auth: AuthContext, after: number | undefined): Promise<AnalysisQueue> {
      requireView(auth);
      const { next, waiting } = await repo.nextPending(db, auth.tenantId, await sitesOf(auth), after);
      return { next: next ? ((await present(auth.tenantId, [next]))[0] ?? null) : null, waiting };
    },

    async frame(auth: AuthContext, id: number): Promise<string> {
      const row = await visibleResult(auth, id);
      if (!row.frame_file) throw notFound('This result has no frame');
      return frameFile(auth.tenantId, row.frame_file);
    },

    async reference(auth: AuthContext, camId: number): Promise<string> {
      await visibleCamera(auth, camId);
      const state = await repo.cameraState(db, auth.tenantId, camId);
      if (!state?.reference_file) throw notFound('This camera has no reference frame yet');
      return frameFile(auth.tenantId, state.reference_file);
    },

    /** A verdict, given once. A true positive keeps the AI ticket open; a false positive resolves it. */
    /** `origin`: who gives it, for the activity log (null: not recorded). */
    async verdict(
      auth: AuthContext,
      id: number,
      body: AnalysisVerdictBody,
      resolveTicket: (ticketId: number) => Promise<void>,
      origin: AuditOrigin | null,
    ) {
      const row = await visibleResult(auth, id);
      if (!canVerify(auth)) throw forbidden();
      const saved = await db.transaction().execute(async (trx) => {
        const saved = await repo.setVerdict(trx, auth.tenantId, id, body.verdict, body.reason || null, auth.userId);
        if (saved && origin)
          await writeActivity(trx, origin, {
            action: 'analysis-result.verdict',
            object: { type: 'analysis-result', id },
            before: { verdict: null },
            after: { verdict: body.verdict, reason: body.reason || null, cameraId: row.device_id, ticketId: row.ticket_id },
          });
        return saved;
      });
      if (!saved) throw conflict('This result has already been verified');
      if (body.verdict === 'FALSE_POSITIVE' && row.ticket_id !== null) {
        try {
          await resolveTicket(row.ticket_id);
        } catch (error) {
          log.warn({ err: error, ticketId: row.ticket_id }, 'AI audit ticket could not be resolved after a false positive');
        }
      }
      const fresh = await repo.findResult(db, auth.tenantId, id);
      return (await present(auth.tenantId, fresh ? [fresh] : []))[0] as AnalysisResult;
    },

    /** Analyses a camera's newest footage now (the on-demand run of /image-analysis). */
    async runNow(auth: AuthContext, camId: number) {
      const device = await visibleCamera(auth, camId);
      if (!canVerify(auth)) throw forbidden();
      const camera = (await deps.footage.recordingCameras()).find((c) => c.tenantId === auth.tenantId && c.deviceId === camId);
      if (!camera) throw conflict(`${device.label} is not recording`);
      await analyseCamera(camera);
      return { queued: true };
    },

    async cameraSettings(auth: AuthContext, camId: number): Promise<AnalysisCameraSettings> {
      await visibleCamera(auth, camId);
      return settingsOf(camId, await repo.cameraState(db, auth.tenantId, camId));
    },

    /** The region and hours of the camera's "motion in a region" analyser (null region: off). */
    async saveCameraSettings(auth: AuthContext, camId: number, body: AnalysisCameraSettingsBody, origin: AuditOrigin | null) {
      await visibleCamera(auth, camId);
      if (!canConfigure(auth)) throw forbidden();
      const before = settingsOf(camId, await repo.cameraState(db, auth.tenantId, camId));
      await db.transaction().execute(async (trx) => {
        await repo.saveCameraState(trx, auth.tenantId, camId, {
          region: body.region ? JSON.stringify(body.region) : null,
          motion_from: body.motionFrom,
          motion_to: body.motionTo,
          motion_tz: body.timeZone,
          motion_threshold: body.threshold,
        });
        if (origin)
          await writeActivity(trx, origin, {
            action: 'analysis-settings.update',
            object: { type: 'analysis-settings', id: camId },
            before: { region: before.region, motionFrom: before.motionFrom, motionTo: before.motionTo, timeZone: before.timeZone },
            after: { region: body.region, motionFrom: body.motionFrom, motionTo: body.motionTo, timeZone: body.timeZone },
          });
      });
      return settingsOf(camId, await repo.cameraState(db, auth.tenantId, camId));
    },

    /** The next pass takes a new reference frame for the camera. */
    async resetReference(auth: AuthContext, camId: number, origin: AuditOrigin | null) {
      await visibleCamera(auth, camId);
      if (!canVerify(auth)) throw forbidden();
      const state = await repo.cameraState(db, auth.tenantId, camId);
      if (state?.reference_file) await rm(frameFile(auth.tenantId, state.reference_file), { force: true });
      await db.transaction().execute(async (trx) => {
        await repo.saveCameraState(trx, auth.tenantId, camId, { reference_file: null, reference_at: null });
        if (origin)
          await writeActivity(trx, origin, {
            action: 'analysis-reference.delete',
            object: { type: 'analysis-reference', id: camId },
            before: { referenceAt: state?.reference_at ? new Date(state.reference_at).toISOString() : null },
          });
      });
      return { success: true };
    },

    async summary(auth: AuthContext, range: { from?: string; to?: string }): Promise<AnalysisSummaryRow[]> {
      requireView(auth);
      const rows = await repo.summary(db, auth.tenantId, await sitesOf(auth), range);
      const labels = await cameraLabels(auth.tenantId, rows);
      return rows.map((r) => {
        const tp = Number(r.true_positives);
        const fp = Number(r.false_positives);
        const rate = tp + fp > 0 ? Math.round((fp / (tp + fp)) * 100) / 100 : null;
        return {
          cameraId: r.device_id,
          cameraLabel: labels.get(r.device_id) ?? `Camera ${r.device_id}`,
          analyser: r.analyser as Analyser,
          total: Number(r.total),
          truePositives: tp,
          falsePositives: fp,
          pending: Number(r.pending),
          falsePositiveRate: rate,
          suggestion: analysisSuggestion(r.analyser as Analyser, rate, tp + fp),
        };
      });
    },
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
