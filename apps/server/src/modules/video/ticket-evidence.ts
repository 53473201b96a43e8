import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EVENT_TYPES, EVIDENCE_CONSTANTS, type VideoEvidence } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.ts';
import { hasPermission } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { JobContext } from '../../platform/jobs/worker.ts';
import type { Clock } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import * as repo from './evidence-repository.ts';
import { exportClip, removeQuietly } from './media.ts';
import type { VideoPaths } from './paths.ts';
import type { VideoSettings } from './settings.ts';

export const TICKET_EVIDENCE_QUEUE = 'video.ticket-evidence';
/** Segments are indexed within a few seconds of being written: the cut waits this long after the window ends. */
export const INDEX_LAG_MS = 10_000;
const CLOSED = new Set(['RESOLVED', 'CLOSED']);

/** A request for the clips of cameras around an event, on a ticket. */
export interface EvidenceRequest {
  tenantId: number;
  ticketId: number;
  ticketNo: string;
  cameraIds: number[];
  source: 'alarm' | 'analysis';
  /** The alarm's or the finding's id (a second request for the same one adds nothing). */
  sourceId: number;
  eventAt: Date;
  /** Seconds either side of the event. */
  windowSeconds: number;
}

export interface TicketEvidenceDeps {
  db: Db;
  paths: VideoPaths;
  settings: VideoSettings;
  directory: () => SiteDirectory;
  events: EventBus;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  clock: Clock;
  /** Of these tickets, the ones still open (the helpdesk): a clip pins its footage only while its ticket is. */
  openTickets(tenantId: number, ids: number[]): Promise<Set<number>>;
  /** The cameras mapped (CAMERA MAPPING) to a device or its site. */
  camerasMappedTo(tenantId: number, deviceId: number, assetId: number | null): Promise<number[]>;
}

/**
 * Video evidence on tickets: the clip of each camera over a window around an event, cut by a job once the window's
 * end has been recorded. Each clip pins its camera's footage over the window (retention skips it) until the ticket
 * is resolved or closed; then the clip goes with the footage's normal retention.
 */
export function createTicketEvidence(deps: TicketEvidenceDeps) {
  const { db, paths, log } = deps;
  const fileOf = (tenantId: number, id: number) =>
    join(paths.exportsRoot, String(Math.trunc(tenantId)), 'evidence', `${Math.trunc(Number(id))}.mp4`);

  const announce = (tenantId: number, ticketId: number, assetId: number | null) =>
    deps.events.emit({ type: EVENT_TYPES.videoEvidence, tenantId, payload: { ticketId, assetId } });

  async function request(req: EvidenceRequest): Promise<number[]> {
    const created: number[] = [];
    const from = new Date(req.eventAt.getTime() - req.windowSeconds * 1000);
    const to = new Date(req.eventAt.getTime() + req.windowSeconds * 1000);
    let room = EVIDENCE_CONSTANTS.perTicket - (await repo.countOnTicket(db, req.tenantId, req.ticketId));
    for (const deviceId of req.cameraIds) {
      if (room <= 0) break;
      await db.transaction().execute(async (trx) => {
        const id = await repo.insertEvidence(trx, {
          tenant_id: req.tenantId,
          ticket_id: req.ticketId,
          ticket_no: req.ticketNo,
          device_id: deviceId,
          source: req.source,
          source_id: req.sourceId,
          event_at: req.eventAt,
          from_at: from,
          to_at: to,
        });
        if (id === null) return;
        // the cut is due when the window's end has been recorded (SPEC 9: alarm time + 300 s)
        await enqueueJob(trx, {
          tenantId: req.tenantId,
          queue: TICKET_EVIDENCE_QUEUE,
          payload: { evidenceId: Number(id) },
          runAt: new Date(to.getTime() + INDEX_LAG_MS),
          dedupeKey: `evidence:${id}`,
          maxAttempts: 6,
        });
        created.push(Number(id));
        room--;
      });
    }
    if (created.length) {
      const device = await deps.directory().device(req.tenantId, req.cameraIds[0] as number);
      announce(req.tenantId, req.ticketId, device?.assetId ?? null);
    }
    return created;
  }

  /** The job: cuts the clip (remux, no re-encoding). No footage over the window: failed; not indexed yet: retried. */
  async function cut(job: JobContext) {
    const tenantId = job.tenantId as number;
    const id = Number(job.payload.evidenceId);
    const row = await repo.findEvidence(db, tenantId, id);
    if (row?.status !== 'pending') return { skipped: true };
    const to = new Date(row.to_at);
    if (deps.clock.now().getTime() < to.getTime()) throw new Error('footage not recorded yet');
    let status: 'ready' | 'failed' = 'failed';
    let bytes: number | null = null;
    try {
      const result = await exportClip(db, paths, {
        tenantId,
        camId: row.device_id,
        from: new Date(row.from_at),
        to,
        out: fileOf(tenantId, id),
        signal: job.signal,
      });
      status = 'ready';
      bytes = result.bytes;
    } catch (error) {
      if (job.signal.aborted) throw error;
      const noFootage = (error as Error).message.includes('No footage');
      if (!noFootage && job.attempt < 3) throw error;
      // A camera that recorded nothing over the window (offline, not recording): an outcome the ticket shows.
      if (noFootage) log.info({ evidenceId: id, tenantId }, 'ticket evidence: the camera has no footage over the window');
      else log.warn({ err: error, evidenceId: id, tenantId }, 'ticket evidence clip could not be cut');
    }
    await repo.setEvidenceStatus(db, tenantId, id, status, bytes);
    const device = await deps.directory().device(tenantId, row.device_id);
    announce(tenantId, row.ticket_id, device?.assetId ?? null);
    return { status, bytes };
  }

  /** A ticket moved: resolved or closed unpins its clips' footage, reopened pins it again. */
  async function ticketChanged(tenantId: number, ticketId: number, status: string, assetId: number | null) {
    const changed = await repo.setPinned(db, tenantId, ticketId, !CLOSED.has(status));
    if (changed.length) announce(tenantId, ticketId, assetId);
  }

  /**
   * Unpins the clips of tickets resolved or closed since (a ticket raised by the system names nobody, so no event
   * tells of its change): before each retention run, and when a ticket's clips are listed.
   */
  async function syncPins(only?: { tenantId: number; ticketId: number }) {
    const pinned = only ? [{ tenant_id: only.tenantId, ticket_id: only.ticketId }] : await repo.pinnedTickets(db);
    const byTenant = new Map<number, number[]>();
    for (const p of pinned) byTenant.set(p.tenant_id, [...(byTenant.get(p.tenant_id) ?? []), p.ticket_id]);
    let released = 0;
    for (const [tenantId, ids] of byTenant) {
      const open = await deps.openTickets(tenantId, ids);
      for (const id of ids) if (!open.has(id)) released += (await repo.setPinned(db, tenantId, id, false)).length;
    }
    return released;
  }

  /** Clips of done tickets go once the footage's normal retention has passed. */
  async function expire(now: Date) {
    const cutoff = new Date(now.getTime() - deps.settings.VIDEO_RETENTION_DAYS * 86_400_000);
    let removed = 0;
    for (;;) {
      const rows = await repo.unpinnedBefore(db, cutoff, 500);
      if (rows.length === 0) break;
      for (const r of rows) await removeQuietly(fileOf(r.tenant_id, Number(r.id)));
      await repo.deleteEvidenceRows(
        db,
        rows.map((r) => r.id),
      );
      removed += rows.length;
    }
    return removed;
  }

  async function present(tenantId: number, rows: repo.EvidenceRow[]): Promise<VideoEvidence[]> {
    const labels = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.device_id)))
      labels.set(id, (await deps.directory().device(tenantId, id))?.label ?? `Camera ${id}`);
    return rows.map((r) => ({
      id: Number(r.id),
      ticketId: r.ticket_id,
      ticketNo: r.ticket_no,
      cameraId: r.device_id,
      cameraLabel: labels.get(r.device_id) ?? `Camera ${r.device_id}`,
      source: r.source as VideoEvidence['source'],
      eventAt: new Date(r.event_at).toISOString(),
      from: new Date(r.from_at).toISOString(),
      to: new Date(r.to_at).toISOString(),
      status: r.status as VideoEvidence['status'],
      bytes: r.bytes === null ? null : Number(r.bytes),
      pinned: r.pinned,
      clipPath: r.status === 'ready' ? `/api/video-evidence/${r.id}/clip/` : null,
    }));
  }

  /** The cameras among these the caller may open (view_camera, a CAMERA on a site they see). */
  async function visibleCameras(auth: AuthContext, ids: number[]) {
    if (!hasPermission(auth, 'view_camera')) throw forbidden();
    const sites = await deps.directory().visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
    const ok = new Set<number>();
    for (const id of new Set(ids)) {
      const device = await deps.directory().device(auth.tenantId, id);
      if (device?.type === 'CAMERA' && (sites === 'all' || (device.assetId !== null && sites.includes(device.assetId)))) ok.add(id);
    }
    return ok;
  }

  /** The cameras of an event on a device: itself when a camera, and those mapped to it or to its site. */
  async function camerasOfDevice(tenantId: number, deviceId: number, assetId: number | null, type: string | null) {
    const mapped = await deps.camerasMappedTo(tenantId, deviceId, assetId);
    return [...new Set([...(type === 'CAMERA' ? [deviceId] : []), ...mapped])];
  }

  return {
    request,
    camerasOfDevice,
    /** The cameras the caller may open for an event on a device they see (one click from an alarm or a ticket). */
    async camerasFor(auth: AuthContext, deviceId: number) {
      if (!hasPermission(auth, 'view_camera')) throw forbidden();
      const device = await deps.directory().device(auth.tenantId, deviceId);
      const sites = await deps.directory().visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
      if (!device || (sites !== 'all' && (device.assetId === null || !sites.includes(device.assetId)))) throw notFound('Device not found');
      const ids = await camerasOfDevice(auth.tenantId, deviceId, device.assetId, device.type);
      const visible = await visibleCameras(auth, ids);
      const contents = [];
      for (const id of ids.filter((i) => visible.has(i)))
        contents.push({ id, label: (await deps.directory().device(auth.tenantId, id))?.label ?? `Camera ${id}` });
      return { contents };
    },
    cut,
    ticketChanged,
    syncPins,
    expire,
    /** The clips on a ticket, of the cameras the caller may open (others' are left out, never named). */
    async list(auth: AuthContext, ticketId: number) {
      await syncPins({ tenantId: auth.tenantId, ticketId });
      const rows = await repo.evidenceOfTicket(db, auth.tenantId, ticketId);
      const visible = await visibleCameras(
        auth,
        rows.map((r) => r.device_id),
      );
      return {
        contents: await present(
          auth.tenantId,
          rows.filter((r) => visible.has(r.device_id)),
        ),
      };
    },
    async clip(auth: AuthContext, id: number) {
      const row = await repo.findEvidence(db, auth.tenantId, id);
      if (!row || !(await visibleCameras(auth, [row.device_id])).has(row.device_id)) throw notFound('Clip not found');
      if (row.status !== 'ready') throw notFound('The clip is not ready');
      const path = fileOf(auth.tenantId, id);
      try {
        return { path, size: (await stat(path)).size, name: `ticket-${row.ticket_no || row.ticket_id}-camera-${row.device_id}.mp4` };
      } catch {
        throw notFound('Clip not found');
      }
    },
  };
}
export type TicketEvidence = ReturnType<typeof createTicketEvidence>;
