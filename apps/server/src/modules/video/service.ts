import { stat } from 'node:fs/promises';
import {
  type BatchDownloadInput,
  CAMERA_CONSTANTS,
  type Camera,
  type CameraConfigInput,
  DOWNLOAD_MESSAGES,
  type DownloadJob,
  type EvidencePack,
  type Incident,
  nameWithSite,
  redactStreamUrl,
  type Storage,
  type StorageInput,
  type Tour,
  VIDEO_MESSAGES,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, masked, writeActivity } from '../../platform/audit.ts';
import { type AuthContext, hasPermission, hasRole } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import { cancelJob, enqueueJob } from '../../platform/jobs/queue.ts';
import type { Clock } from '../../platform/module.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { createCameraTables } from './camera-tables.ts';
import { inTableOrder, replaceCameraTables, tablesOfCameras } from './camera-tables-repository.ts';
import type { EvidencePacks } from './evidence.ts';
import { markersOf } from './markers-repository.ts';
import { buildPlaybackPlaylist, livePlaylist, removeQuietly, takeSnapshot } from './media.ts';
import { checkStreamUrl } from './network.ts';
import { DEFAULT_STORAGE_PATH, type VideoPaths } from './paths.ts';
import * as repo from './repository.ts';
import type { VideoSettings } from './settings.ts';
import { scrubCredentials } from './stream-failure.ts';
import { INDEX_LAG_MS } from './ticket-evidence.ts';

export const CLIP_QUEUE = 'video.clips';
export const INCIDENT_CLIP_QUEUE = 'video.incident-clip';
const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin', 'infraadmin'];
const LIVE_LEASE_MS = 120_000;
const LIVE_WAIT_MS = 8000;

type CameraDevice = NonNullable<Awaited<ReturnType<SiteDirectory['device']>>>;

export interface VideoServiceDeps {
  db: Db;
  paths: VideoPaths;
  settings: VideoSettings;
  /** The networks each tenant's cameras may be dialled in. */
  outbound: Pick<OutboundNetworks, 'of'>;
  directory: SiteDirectory;
  /** Asks the recorder (in this process, if it runs here) to re-read which cameras should run. */
  poke: () => void;
  /** A camera's config changed or was removed: its low-latency relay restarts (viewers reconnect). */
  cameraChanged?: (tenantId: number, camId: number) => void;
  /** The picture of a simulated camera that is not streaming (a frame of the simulated clip). */
  simulatedStill: () => Promise<string>;
  /** Tells the user's screens that one of their clip jobs moved (the download button learns of a new job by push). */
  announce: ClipJobAnnouncer;
  /** Incident evidence packs and their signed links. */
  evidence: EvidencePacks;
  /** An incident reported without its time happened now (when its AWB or table was scanned). */
  clock: Clock;
}

export type ClipJobAnnouncer = (tenantId: number, userId: number, jobId: number, status: string, progress: number) => void;

/** The permission codename (of the user's group) every camera endpoint requires, besides the site's visibility. */
export const VIEW_CAMERA = 'view_camera';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type CameraConfig = Pick<
  repo.CameraRow,
  'simulated' | 'stream_url' | 'recording_enabled' | 'segment_sec' | 'storage_id' | 'state' | 'last_error' | 'last_segment_at'
>;

function toCamera(device: CameraDevice, row: CameraConfig | undefined, tables: string[]): Camera {
  return {
    id: device.id,
    label: device.label,
    name: device.name,
    assetId: device.assetId,
    parentId: device.parentId,
    parentLabel: device.parentLabel,
    siteName: device.siteName,
    configured: !!row,
    simulated: row?.simulated ?? false,
    streamUrl: redactStreamUrl(row?.stream_url ?? null),
    recordingEnabled: row?.recording_enabled ?? false,
    segmentSec: row?.segment_sec ?? 2,
    storageId: row?.storage_id ?? null,
    state: (row?.state ?? 'idle') as Camera['state'],
    lastError: row?.last_error ? scrubCredentials(row.last_error) : null,
    lastSegmentAt: iso(row?.last_segment_at ?? null),
    tables,
  };
}

/** A camera's config as its activity log entries show it: the stream URL without its credentials. */
const cameraRecord = (
  c: Pick<repo.CameraRow, 'simulated' | 'stream_url' | 'recording_enabled' | 'segment_sec' | 'storage_id'>,
  tables: string[],
) =>
  masked({
    simulated: c.simulated,
    streamUrl: c.stream_url === null ? null : scrubCredentials(c.stream_url),
    recordingEnabled: c.recording_enabled,
    segmentSec: c.segment_sec,
    storageId: c.storage_id,
    tables,
  });

const storageRecord = (s: {
  name: string;
  path: string;
  retention_days: number;
  max_bytes: number | string | null;
  is_default: boolean;
}) => ({
  name: s.name,
  path: s.path,
  retentionDays: s.retention_days,
  maxBytes: s.max_bytes === null ? null : Number(s.max_bytes),
  isDefault: s.is_default,
});

const tourRecord = (t: { name: string; layout: number; stops: { cameraId: number; dwellSec: number }[] }) => ({
  name: t.name,
  layout: t.layout,
  stops: t.stops.map((s) => ({ cameraId: s.cameraId, dwellSec: s.dwellSec })),
});

const incidentRecord = (i: {
  title: string;
  description: string;
  awb: string;
  table_number: string;
  device_id: number;
  event_at: Date | string;
  duration_sec: number;
  status?: string;
}) =>
  masked({
    title: i.title,
    description: i.description,
    awb: i.awb,
    tableNumber: i.table_number,
    cameraId: i.device_id,
    eventAt: new Date(i.event_at).toISOString(),
    durationSec: i.duration_sec,
    ...(i.status === undefined ? {} : { status: i.status }),
  });

function toStorage(row: repo.StorageRow): Storage {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    retentionDays: row.retention_days,
    maxBytes: row.max_bytes === null ? null : Number(row.max_bytes),
    usedBytes: Number(row.used_bytes ?? 0),
    isDefault: row.is_default,
    cameraCount: Number(row.camera_count ?? 0),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function createVideoService(deps: VideoServiceDeps) {
  const { db, paths, settings } = deps;

  const directory = () => deps.directory;
  /** Deletes an object in a transaction with its `<type>.delete` activity entry (none without an origin). */
  const removeRecorded = (
    origin: AuditOrigin | null,
    object: { type: string; id: number },
    before: Record<string, unknown>,
    remove: (trx: Db) => Promise<unknown>,
  ) =>
    db.transaction().execute(async (trx) => {
      await remove(trx);
      if (origin) await writeActivity(trx, origin, { action: `${object.type}.delete`, object, before });
    });
  const requireAdmin = (auth: AuthContext) => {
    if (!hasRole(auth, ...ADMIN_ROLES)) throw forbidden();
  };
  const visibleAssets = (auth: AuthContext) => directory().visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
  const tables = createCameraTables({ db, directory });
  const tablesOf = async (tenantId: number, camId: number) => (await tablesOfCameras(db, tenantId, [camId])).get(camId) ?? [];

  /** The access check of every camera endpoint: a CAMERA of the caller's tenant on a site the caller may see. */
  const requireViewCamera = (auth: AuthContext) => {
    if (!hasPermission(auth, VIEW_CAMERA)) throw forbidden();
  };
  async function cameraAccess(auth: AuthContext, camId: number) {
    requireViewCamera(auth);
    const device = await directory().device(auth.tenantId, camId);
    if (device?.type !== 'CAMERA' || !device) throw notFound('Camera not found');
    const visible = await visibleAssets(auth);
    if (visible !== 'all' && (device.assetId === null || !visible.includes(device.assetId))) throw forbidden();
    const row = await repo.findCamera(db, auth.tenantId, camId);
    if (row && (row.label !== device.label || row.asset_id !== device.assetId)) {
      await repo.refreshCameraCopy(db, auth.tenantId, camId, device.label, device.assetId);
    }
    return { device, row };
  }
  async function configuredCamera(auth: AuthContext, camId: number) {
    const access = await cameraAccess(auth, camId);
    if (!access.row) throw notFound(VIDEO_MESSAGES.cameraNotConfigured);
    return { device: access.device, row: access.row };
  }

  // -------------------------------------------------------------- cameras

  async function listCameras(
    auth: AuthContext,
    q: {
      page: number;
      limit: number;
      search?: string;
      assetId?: number;
      path?: string[];
      deviceId?: number;
      configured?: 'true' | 'false';
      ids?: number[];
    },
  ) {
    requireViewCamera(auth);
    const assetIds = await visibleAssets(auth);
    const query = repo.listCameras(db, auth.tenantId, {
      assetIds,
      search: q.search,
      assetId: q.assetId,
      path: q.path,
      deviceId: q.deviceId,
      configured: q.configured === undefined ? undefined : q.configured === 'true',
      ids: q.ids,
      offset: (q.page - 1) * q.limit,
      limit: q.limit,
    });
    const [rows, totalCount] = await Promise.all([query.rows(), query.count()]);
    const tablesByCamera = await tablesOfCameras(
      db,
      auth.tenantId,
      rows.filter((r) => r.config_device_id !== null).map((r) => r.id),
    );
    const contents: Camera[] = rows.map((r) =>
      toCamera(
        {
          id: r.id,
          name: r.name,
          label: r.device_label,
          type: 'CAMERA',
          assetId: r.device_asset_id,
          parentId: r.parent_id,
          parentLabel: r.parent_label,
          siteName: r.site_name,
        },
        r.config_device_id === null
          ? undefined
          : {
              simulated: r.simulated ?? false,
              stream_url: r.stream_url,
              recording_enabled: r.recording_enabled ?? false,
              segment_sec: r.segment_sec ?? 2,
              storage_id: r.storage_id,
              state: r.state ?? 'idle',
              last_error: r.last_error,
              last_segment_at: r.last_segment_at,
            },
        tablesByCamera.get(r.id) ?? [],
      ),
    );
    return { contents, totalCount };
  }

  /** `origin`: who configures it, for the activity log (null: not recorded). */
  async function configure(auth: AuthContext, camId: number, input: CameraConfigInput, origin: AuditOrigin | null) {
    requireAdmin(auth);
    const { device, row } = await cameraAccess(auth, camId);
    let streamUrl = input.simulated ? null : (input.streamUrl ?? null);
    // Keep the stored URL (and its credentials) when the form sends back the redacted one unchanged.
    if (streamUrl && row?.stream_url && streamUrl === redactStreamUrl(row.stream_url)) streamUrl = row.stream_url;
    if (streamUrl) {
      const checked = await checkStreamUrl(streamUrl, settings.VIDEO_STREAM_NETWORKS, await deps.outbound.of(auth.tenantId));
      if (!checked.ok) throw badRequest(checked.reason, 'stream_url_refused');
    }
    if (input.storageId !== null && !(await repo.findStorage(db, auth.tenantId, input.storageId)))
      throw badRequest('storageId: storage not found');
    const storageId = input.storageId ?? row?.storage_id ?? (await repo.defaultStorage(db, auth.tenantId))?.id ?? null;
    const tablesBefore = await tablesOf(auth.tenantId, camId);
    const tablesAfter = input.tables ? inTableOrder(input.tables) : tablesBefore;
    if (input.tables) await tables.requireFree(auth.tenantId, await visibleAssets(auth), camId, input.tables);
    const values = {
      label: device.label,
      asset_id: device.assetId,
      simulated: input.simulated,
      stream_url: streamUrl,
      recording_enabled: input.recordingEnabled,
      segment_sec: input.segmentSec,
      storage_id: storageId,
    };
    const saved = db.transaction().execute(async (trx) => {
      await repo.upsertCamera(trx, auth.tenantId, camId, values);
      if (input.tables) await replaceCameraTables(trx, auth.tenantId, camId, input.tables);
      if (!origin) return;
      const object = { type: 'camera-config', id: camId };
      const after = cameraRecord(values, tablesAfter);
      if (!row) return writeActivity(trx, origin, { action: 'camera-config.create', object, after });
      const before = cameraRecord(row, tablesBefore);
      const change = changedFields(before, after);
      // New credentials in an otherwise equal URL: recorded as a change, never with their values.
      const credentialsChanged = row.stream_url !== values.stream_url && !('streamUrl' in change.after);
      if (credentialsChanged) {
        change.before.streamUrl = before.streamUrl;
        change.after.streamUrl = after.streamUrl;
      }
      await writeActivity(trx, origin, {
        action: 'camera-config.update',
        object,
        ...change,
        ...(credentialsChanged ? { detail: { credentialsChanged: true } } : {}),
      });
    });
    await saved.catch(async (error: unknown) => {
      // another save took one of the tables meanwhile: the same answer as when it had it before
      if (input.tables && (error as { code?: string }).code === '23505')
        await tables.requireFree(auth.tenantId, await visibleAssets(auth), camId, input.tables);
      throw error;
    });
    deps.poke();
    deps.cameraChanged?.(auth.tenantId, camId);
    return toCamera(device, await repo.findCamera(db, auth.tenantId, camId), tablesAfter);
  }

  // -------------------------------------------------------------- live, playback, snapshot

  async function liveView(auth: AuthContext, camId: number) {
    const { row } = await configuredCamera(auth, camId);
    await repo.setLiveLease(db, auth.tenantId, camId, new Date(Date.now() + LIVE_LEASE_MS));
    deps.poke();
    return { url: `/api/cameras/${camId}/live.m3u8`, wsUrl: `/api/cameras/${camId}/live/ws`, state: row.state as Camera['state'] };
  }

  /** The source of the low-latency relay of a camera the caller may watch (the same checks as live-view). */
  async function liveSource(auth: AuthContext, camId: number) {
    const { row } = await configuredCamera(auth, camId);
    const networks = await deps.outbound.of(auth.tenantId);
    return { key: `${auth.tenantId}:${camId}`, source: { simulated: row.simulated, streamUrl: row.stream_url, networks } };
  }

  async function stopLiveView(auth: AuthContext, camId: number) {
    await configuredCamera(auth, camId);
    await repo.setLiveLease(db, auth.tenantId, camId, null);
    deps.poke();
    return { success: true };
  }

  async function live(auth: AuthContext, camId: number) {
    const { row } = await configuredCamera(auth, camId);
    return livePlaylistOf(auth.tenantId, camId, row);
  }

  /** The live playlist of a configured camera whose access was checked; watching renews its live-view lease. */
  async function livePlaylistOf(
    tenantId: number,
    camId: number,
    row: repo.CameraRow,
    urlOf?: (run: string, file: string) => string,
  ): Promise<string> {
    // Watching renews the lease that keeps a camera without continuous recording running.
    if (!row.live_until || new Date(row.live_until).getTime() - Date.now() < LIVE_LEASE_MS / 2) {
      await repo.setLiveLease(db, tenantId, camId, new Date(Date.now() + LIVE_LEASE_MS));
      if (!row.recording_enabled) deps.poke();
    }
    // A camera just asked for (or restarting) has no fresh segment yet: wait a little for it rather than fail,
    // then answer 503 (players retry 5xx, not 4xx).
    const deadline = Date.now() + LIVE_WAIT_MS;
    for (;;) {
      const latest = await repo.latestSegment(db, tenantId, camId);
      if (latest && Date.now() - new Date(latest.end_at).getTime() <= 30_000) {
        const text = await livePlaylist(paths, camId, tenantId, latest.storage_path, latest.run, urlOf);
        if (text) return text;
      }
      if (Date.now() >= deadline) throw new HttpError(503, 'The camera is not streaming yet', 'not_streaming');
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async function playback(auth: AuthContext, camId: number, from: Date, to: Date) {
    await configuredCamera(auth, camId);
    const segments = await repo.segmentsInRange(db, auth.tenantId, camId, from, to);
    if (segments.length === 0) throw notFound(VIDEO_MESSAGES.noFootage);
    return buildPlaybackPlaylist(camId, segments, from);
  }

  async function timeline(auth: AuthContext, camId: number, from: Date, to: Date) {
    await configuredCamera(auth, camId);
    const ranges = await repo.footageRanges(db, auth.tenantId, camId, from, to);
    const clip = (start: Date, end: Date) => ({
      start: new Date(Math.max(start.getTime(), from.getTime())).toISOString(),
      end: new Date(Math.min(end.getTime(), to.getTime())).toISOString(),
    });
    const markers = await markersOf(db, auth.tenantId, camId, from, to);
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      ranges: ranges.map((r) => clip(r.start, r.end)),
      markers: markers.map((m) => ({ ...clip(m.starts_at, m.ends_at), label: m.label })),
    };
  }

  /** The file a media URL names, only if that run belongs to this camera in the index. */
  async function mediaFile(auth: AuthContext, camId: number, run: string, file: string) {
    const { row } = await configuredCamera(auth, camId);
    return mediaFileOf(auth.tenantId, camId, row, run, file);
  }

  async function mediaFileOf(tenantId: number, camId: number, row: repo.CameraRow, run: string, file: string) {
    const storagePath = (await repo.storagePathOfRun(db, tenantId, camId, run)) ?? row.storage_path ?? DEFAULT_STORAGE_PATH;
    let path: string;
    try {
      path = paths.mediaFile(storagePath, tenantId, camId, run, file);
    } catch {
      throw notFound();
    }
    try {
      const info = await stat(path);
      return { path, size: info.size };
    } catch {
      throw notFound();
    }
  }

  /**
   * Live viewing for a caller whose access another module has checked (a shared analytics link, verified on every
   * request by the dashboards module): a configured camera of the tenant, its playlist with media URLs of the
   * caller's choosing, and its files. Nothing of the camera's source (URL, credentials) is returned.
   */
  async function checkedCamera(tenantId: number, camId: number) {
    const device = await directory().device(tenantId, camId);
    if (device?.type !== 'CAMERA') throw notFound('Camera not found');
    const row = await repo.findCamera(db, tenantId, camId);
    if (!row) throw notFound(VIDEO_MESSAGES.cameraNotConfigured);
    return row;
  }
  const checkedLive = {
    async playlist(tenantId: number, camId: number, urlOf: (run: string, file: string) => string) {
      return livePlaylistOf(tenantId, camId, await checkedCamera(tenantId, camId), urlOf);
    },
    async mediaFile(tenantId: number, camId: number, run: string, file: string) {
      return mediaFileOf(tenantId, camId, await checkedCamera(tenantId, camId), run, file);
    },
  };

  async function snapshot(auth: AuthContext, camId: number): Promise<{ path: string; takenAt: string } | { err: string }> {
    const access = await cameraAccess(auth, camId);
    if (!access.row) return { err: VIDEO_MESSAGES.cameraNotConfigured };
    try {
      const shot = await takeSnapshot(db, paths, auth.tenantId, camId);
      if (!shot && access.row.simulated) {
        // a simulated camera nobody watches now: its clip's picture
        await deps.simulatedStill();
        return { path: `/api/cameras/${camId}/snapshot/image/?t=0`, takenAt: new Date().toISOString() };
      }
      if (!shot) return { err: VIDEO_MESSAGES.snapshotUnavailable };
      return { path: `/api/cameras/${camId}/snapshot/image/?t=${shot.takenAt.getTime()}`, takenAt: shot.takenAt.toISOString() };
    } catch {
      return { err: VIDEO_MESSAGES.snapshotUnavailable };
    }
  }

  async function snapshotImage(auth: AuthContext, camId: number) {
    const { row } = await configuredCamera(auth, camId);
    const latest = await repo.latestSegment(db, auth.tenantId, camId);
    if (!latest && row.simulated) {
      try {
        const path = await deps.simulatedStill();
        return { path, size: (await stat(path)).size };
      } catch {
        throw notFound();
      }
    }
    if (!latest) throw notFound();
    const path = paths.snapshotFile(latest.storage_path, auth.tenantId, camId);
    try {
      return { path, size: (await stat(path)).size };
    } catch {
      throw notFound();
    }
  }

  // -------------------------------------------------------------- storages

  async function listStorages(auth: AuthContext, q: { page: number; limit: number }) {
    requireAdmin(auth);
    const [rows, totalCount] = await Promise.all([
      repo.listStorages(db, auth.tenantId, (q.page - 1) * q.limit, q.limit),
      repo.countStorages(db, auth.tenantId),
    ]);
    return { contents: rows.map(toStorage), totalCount };
  }
  async function getStorage(auth: AuthContext, id: number) {
    requireAdmin(auth);
    const row = await repo.findStorage(db, auth.tenantId, id);
    if (!row) throw notFound('Storage not found');
    const listed = (await repo.listStorages(db, auth.tenantId, 0, 1000)).find((s) => s.id === id);
    return toStorage(listed as repo.StorageRow);
  }
  /** Creates (id null) or changes a storage; `origin`: who, for the activity log (null: not recorded). */
  async function saveStorage(auth: AuthContext, id: number | null, input: StorageInput, origin: AuditOrigin | null) {
    requireAdmin(auth);
    let existing: Awaited<ReturnType<typeof repo.findStorage>>;
    if (id !== null) {
      existing = await repo.findStorage(db, auth.tenantId, id);
      if (!existing) throw notFound('Storage not found');
      if (existing.path !== input.path && (await repo.usedBytes(db, auth.tenantId, existing.path)) > 0) {
        throw badRequest('path cannot change while the storage holds footage');
      }
    }
    const clash = await repo.storageNameTaken(db, auth.tenantId, input.name, input.path, id);
    if (clash)
      throw conflict(clash.name === input.name ? 'A storage with this name already exists' : 'A storage with this path already exists');
    const values = {
      name: input.name,
      path: input.path,
      retention_days: input.retentionDays,
      max_bytes: input.maxBytes,
      is_default: input.isDefault,
    };
    const saved = await db.transaction().execute(async (trx) => {
      const saved = await repo.saveStorage(trx, auth.tenantId, id, values);
      if (saved === null) throw notFound('Storage not found');
      if (origin) {
        const object = { type: 'video-storage', id: saved };
        if (existing) {
          const change = changedFields(storageRecord(existing), storageRecord(values));
          await writeActivity(trx, origin, { action: 'video-storage.update', object, ...change });
        } else await writeActivity(trx, origin, { action: 'video-storage.create', object, after: storageRecord(values) });
      }
      return saved;
    });
    deps.poke();
    return getStorage(auth, saved);
  }
  async function deleteStorage(auth: AuthContext, id: number, origin: AuditOrigin | null) {
    requireAdmin(auth);
    const existing = await repo.findStorage(db, auth.tenantId, id);
    if (!existing) throw notFound('Storage not found');
    const listed = (await repo.listStorages(db, auth.tenantId, 0, 1000)).find((s) => s.id === id);
    if (Number(listed?.camera_count ?? 0) > 0) throw conflict('Move its cameras to another storage first');
    await removeRecorded(origin, { type: 'video-storage', id }, storageRecord(existing), (trx) =>
      repo.deleteStorage(trx, auth.tenantId, id),
    );
    return { success: true };
  }

  // -------------------------------------------------------------- tours

  /** A stop's camera is named only to a caller who may open that camera (a camera on a site they can see). */
  async function toTour(auth: AuthContext, row: repo.TourRow, visible?: number[] | 'all'): Promise<Tour> {
    const dir = directory();
    const sites = visible ?? (await visibleAssets(auth));
    const stops = [];
    for (const s of row.stops) {
      const device = await dir.device(auth.tenantId, s.cameraId);
      const mayOpen = device?.type === 'CAMERA' && (sites === 'all' || (device.assetId !== null && sites.includes(device.assetId)));
      stops.push({ ...s, label: mayOpen && device ? nameWithSite(device.label, device.siteName) : null });
    }
    return {
      id: row.id,
      name: row.name,
      layout: row.layout,
      stops,
      createdAt: iso(row.created_at) as string,
      updatedAt: iso(row.updated_at) as string,
    };
  }
  async function checkStops(auth: AuthContext, stops: { cameraId: number }[]) {
    for (const s of stops) {
      try {
        await configuredCamera(auth, s.cameraId);
      } catch {
        throw badRequest(`stops: camera ${s.cameraId} is not a camera you can view`);
      }
    }
  }
  async function listTours(auth: AuthContext, q: { page: number; limit: number }) {
    requireViewCamera(auth);
    const [rows, totalCount] = await Promise.all([
      repo.listTours(db, auth.tenantId, (q.page - 1) * q.limit, q.limit),
      repo.countTours(db, auth.tenantId),
    ]);
    const visible = await visibleAssets(auth);
    const contents = [];
    for (const row of rows) contents.push(await toTour(auth, row, visible));
    return { contents, totalCount };
  }
  async function getTour(auth: AuthContext, id: number) {
    requireViewCamera(auth);
    const row = await repo.findTour(db, auth.tenantId, id);
    if (!row) throw notFound('Tour not found');
    return toTour(auth, row);
  }
  // tours are camera configuration: created, changed and deleted by those who configure cameras
  async function createTour(
    auth: AuthContext,
    input: { name: string; layout: number; stops: { cameraId: number; dwellSec: number }[] },
    origin: AuditOrigin | null,
  ) {
    requireAdmin(auth);
    await checkStops(auth, input.stops);
    const id = await db.transaction().execute(async (trx) => {
      const id = await repo.insertTour(trx, auth.tenantId, auth.userId, input);
      if (origin)
        await writeActivity(trx, origin, { action: 'camera-tour.create', object: { type: 'camera-tour', id }, after: tourRecord(input) });
      return id;
    });
    return getTour(auth, id);
  }
  async function updateTour(
    auth: AuthContext,
    id: number,
    input: { name: string; layout: number; stops: { cameraId: number; dwellSec: number }[] },
    origin: AuditOrigin | null,
  ) {
    requireAdmin(auth);
    const current = await repo.findTour(db, auth.tenantId, id);
    if (!current) throw notFound('Tour not found');
    await checkStops(auth, input.stops);
    await db.transaction().execute(async (trx) => {
      if (!(await repo.updateTour(trx, auth.tenantId, id, input))) throw notFound('Tour not found');
      if (origin) {
        const change = changedFields(tourRecord(current), tourRecord(input));
        await writeActivity(trx, origin, { action: 'camera-tour.update', object: { type: 'camera-tour', id }, ...change });
      }
    });
    return getTour(auth, id);
  }
  async function deleteTour(auth: AuthContext, id: number, origin: AuditOrigin | null) {
    requireAdmin(auth);
    const current = await repo.findTour(db, auth.tenantId, id);
    if (!current) throw notFound('Tour not found');
    await removeRecorded(origin, { type: 'camera-tour', id }, tourRecord(current), async (trx) => {
      if (!(await repo.deleteTour(trx, auth.tenantId, id))) throw notFound('Tour not found');
    });
    return { success: true };
  }

  // -------------------------------------------------------------- incidents

  const toIncident = (row: repo.IncidentRow): Incident => ({
    id: row.id,
    title: row.title,
    description: row.description,
    awb: row.awb,
    tableNumber: row.table_number,
    cameraId: row.device_id,
    cameraLabel: row.camera_label,
    eventAt: iso(row.event_at) as string,
    durationSec: row.duration_sec,
    status: row.status as Incident['status'],
    clipStatus: row.clip_status as Incident['clipStatus'],
    clipPath: row.clip_status === 'ready' ? `/api/incident-reports/${row.id}/clip/` : null,
    createdBy: row.created_by,
    createdAt: iso(row.created_at) as string,
  });
  async function incidentAccess(auth: AuthContext, id: number) {
    const row = await repo.findIncident(db, auth.tenantId, id);
    if (!row) throw notFound('Incident not found');
    await cameraAccess(auth, row.device_id);
    return row;
  }
  async function listIncidents(auth: AuthContext, q: { page: number; limit: number; search?: string; cameraId?: number; status?: string }) {
    requireViewCamera(auth);
    const assetIds = await visibleAssets(auth);
    const query = repo.listIncidents(db, auth.tenantId, { ...q, assetIds, offset: (q.page - 1) * q.limit, limit: q.limit });
    const [rows, totalCount] = await Promise.all([query.rows(), query.count()]);
    return { contents: rows.map(toIncident), totalCount };
  }
  /** The camera that watches a packing table, if the caller may see it. */
  async function tableCamera(auth: AuthContext, table: string) {
    requireViewCamera(auth);
    return tables.cameraFor(auth.tenantId, await visibleAssets(auth), table);
  }
  /** A clip whose window is still being recorded is cut once it has been (and indexed). */
  const clipRunAt = (eventAt: Date, durationSec: number) => {
    const end = eventAt.getTime() + durationSec * 1000;
    return end > deps.clock.now().getTime() ? new Date(end + INDEX_LAG_MS) : undefined;
  };
  async function createIncident(
    auth: AuthContext,
    input: {
      title: string;
      description: string;
      awb: string;
      tableNumber: string;
      cameraId?: number;
      eventAt?: string;
      durationSec: number;
    },
    origin: AuditOrigin | null,
  ) {
    const cameraId = input.cameraId ?? (await tableCamera(auth, input.tableNumber)).id;
    await configuredCamera(auth, cameraId);
    const eventAt = input.eventAt === undefined ? deps.clock.now() : new Date(input.eventAt);
    const id = await db.transaction().execute(async (trx) => {
      const values = {
        title: input.title,
        description: input.description,
        awb: input.awb,
        table_number: input.tableNumber,
        device_id: cameraId,
        event_at: eventAt,
        duration_sec: input.durationSec,
        created_by: auth.userId,
      };
      const id = await repo.insertIncident(trx, auth.tenantId, values);
      await enqueueJob(trx, {
        tenantId: auth.tenantId,
        queue: INCIDENT_CLIP_QUEUE,
        payload: { incidentId: id },
        maxAttempts: 3,
        runAt: clipRunAt(eventAt, input.durationSec),
      });
      if (origin)
        await writeActivity(trx, origin, {
          action: 'incident-report.create',
          object: { type: 'incident-report', id },
          after: incidentRecord(values),
        });
      return id;
    });
    return toIncident((await repo.findIncident(db, auth.tenantId, id)) as repo.IncidentRow);
  }
  async function getIncident(auth: AuthContext, id: number) {
    return toIncident(await incidentAccess(auth, id));
  }
  async function updateIncident(
    auth: AuthContext,
    id: number,
    input: { title?: string; description?: string; awb?: string; tableNumber?: string; status?: string },
    origin: AuditOrigin | null,
  ) {
    const current = await incidentAccess(auth, id);
    const patch = {
      title: input.title,
      description: input.description,
      awb: input.awb,
      table_number: input.tableNumber,
      status: input.status,
    };
    await db.transaction().execute(async (trx) => {
      await repo.updateIncident(trx, auth.tenantId, id, patch);
      if (origin) {
        const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
        const change = changedFields(incidentRecord(current), incidentRecord(next));
        await writeActivity(trx, origin, { action: 'incident-report.update', object: { type: 'incident-report', id }, ...change });
      }
    });
    return getIncident(auth, id);
  }
  async function deleteIncident(auth: AuthContext, id: number, origin: AuditOrigin | null) {
    const current = await incidentAccess(auth, id);
    await removeRecorded(origin, { type: 'incident-report', id }, incidentRecord(current), (trx) =>
      repo.deleteIncident(trx, auth.tenantId, id),
    );
    await removeQuietly(paths.incidentFile(auth.tenantId, id));
    return { success: true };
  }
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  const packFiles = (tenantId: number, id: number) => {
    const clip = paths.incidentFile(tenantId, id);
    return { clip, summary: clip.replace(/\.mp4$/, '-summary.pdf') };
  };
  /** Builds the incident's evidence pack (PDF summary and MP4 with their SHA-256) and a link that expires. */
  async function incidentPack(auth: AuthContext, id: number, days: number, origin: AuditOrigin | null): Promise<EvidencePack> {
    const row = await incidentAccess(auth, id);
    if (row.clip_status !== 'ready') throw conflict('The incident clip is not ready yet: build the pack when it is');
    const pack = await deps.evidence.build(row, auth.tenantId, packFiles(auth.tenantId, id), { days, createdByName: null });
    // The link itself is a bearer secret: the entry keeps only when it expires.
    if (origin)
      await writeActivity(db, origin, {
        action: 'incident-report.share',
        object: { type: 'incident-report', id },
        after: { evidenceLinkExpiresAt: pack.expiresAt, days },
      });
    return { url: `/evidence/${pack.token}`, expiresAt: pack.expiresAt, files: pack.files };
  }
  /** What a link shows; an expired, altered or other-tenant link is the same "not found". */
  async function evidenceAccess(tenantId: number, token: string) {
    const claims = deps.evidence.verify(token, tenantId);
    const row = claims ? await repo.findIncident(db, tenantId, claims.incidentId) : undefined;
    const files = row ? packFiles(tenantId, row.id) : null;
    if (!claims || !row || !files || row.clip_status !== 'ready' || !(await exists(files.summary))) {
      throw notFound('This evidence link is not valid or has expired');
    }
    return { row, files, expiresAt: claims.expiresAt };
  }
  async function evidence(tenantId: number, token: string) {
    const { row, files, expiresAt } = await evidenceAccess(tenantId, token);
    return deps.evidence.describe(row, files, expiresAt);
  }
  async function evidenceFile(tenantId: number, token: string, name: 'summary.pdf' | 'clip.mp4') {
    const { row, files } = await evidenceAccess(tenantId, token);
    const path = name === 'summary.pdf' ? files.summary : files.clip;
    return { path, size: (await stat(path)).size, name: `incident-${row.id}-${name}` };
  }
  async function incidentClip(auth: AuthContext, id: number) {
    const row = await incidentAccess(auth, id);
    if (row.clip_status !== 'ready') throw notFound('The clip is not ready');
    const path = paths.incidentFile(auth.tenantId, id);
    try {
      return { path, size: (await stat(path)).size, name: `incident-${id}.mp4` };
    } catch {
      throw notFound();
    }
  }

  // -------------------------------------------------------------- batch playback downloads

  async function createBatch(auth: AuthContext, input: BatchDownloadInput) {
    const cameras = [];
    for (const camId of [...new Set(input.cameraIds)]) cameras.push((await configuredCamera(auth, camId)).device);
    const wanted = cameras.flatMap((camera) => input.windows.map((w) => ({ camera, from: new Date(w.from), to: new Date(w.to) })));
    const max = CAMERA_CONSTANTS.batchMaxTasks;
    const kept = wanted.slice(0, max);
    const warning = wanted.length > max ? VIDEO_MESSAGES.maxLimit(max, 'recording') : null;
    const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_');
    const name = input.name ?? `Recordings ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const jobId = await db.transaction().execute(async (trx) => {
      const jobId = await repo.insertClipJob(
        trx,
        auth.tenantId,
        auth.userId,
        name,
        kept.map((k) => ({
          device_id: k.camera.id,
          name: `${k.camera.label.replace(/[^A-Za-z0-9_-]+/g, '_')}_${stamp(k.from)}.mp4`,
          camera_label: k.camera.label,
          start_at: k.from,
          end_at: k.to,
        })),
      );
      const queueJob = await enqueueJob(trx, { tenantId: auth.tenantId, queue: CLIP_QUEUE, payload: { clipJobId: jobId }, maxAttempts: 3 });
      await repo.setClipQueueJob(trx, auth.tenantId, jobId, queueJob);
      return jobId;
    });
    deps.announce(auth.tenantId, auth.userId, jobId, 'starting', 0);
    return { jobId, taskCount: kept.length, warning };
  }

  function toDownloadJob(job: repo.ClipJobRow, tasks: repo.ClipTaskRow[]): DownloadJob {
    const progressStatus: Record<string, number> = {};
    for (const t of tasks) progressStatus[t.status] = (progressStatus[t.status] ?? 0) + 1;
    const status = (job.downloaded && job.status === 'ready-to-download' ? 'completed' : job.status) as DownloadJob['status'];
    return {
      jobId: job.id,
      name: job.name,
      kind: 'clips',
      status,
      // SPEC 4: job progress is the sum of its task progress; completed forces 100.
      progress: status === 'completed' ? 100 : tasks.reduce((sum, t) => sum + t.progress, 0) / Math.max(1, tasks.length),
      progressStatus,
      tasks: tasks.map((t) => ({
        id: t.id,
        tid: t.tid,
        name: t.name,
        cameraLabel: t.camera_label,
        description: taskMessage(t),
        status: t.status as DownloadJob['tasks'][number]['status'],
        progress: t.status === 'completed' || t.status === 'ready-to-download' ? 100 : t.progress,
        path: t.status === 'ready-to-download' || t.status === 'completed' ? `/api/video-clips/${job.id}/${t.tid}/file/` : null,
        isRead: t.is_read,
        size: t.bytes === null ? null : Number(t.bytes),
      })),
      lastUpdated: iso(job.updated_at) as string,
      createdAt: iso(job.created_at) as string,
      expiresAt: iso(job.expires_at),
      error: job.error,
    };
  }

  /** SPEC 4 task messages, from the file the task is working on. */
  function taskMessage(t: repo.ClipTaskRow): string {
    if (t.status === 'ready-to-download' || t.status === 'completed') return DOWNLOAD_MESSAGES.fileProcessed;
    if (t.status === 'error' || t.status === 'failed') return t.error ?? 'Failed';
    if (t.file?.endsWith('.m3u8')) return DOWNLOAD_MESSAGES.fetchingPlaylist;
    if (t.file?.endsWith('.mp4')) return DOWNLOAD_MESSAGES.convertingToMp4;
    return 'Waiting';
  }

  async function listBatches(auth: AuthContext, limit = 200) {
    const jobs = await repo.listClipJobs(db, auth.tenantId, auth.userId, limit);
    const tasks = await repo.clipTasks(
      db,
      auth.tenantId,
      jobs.map((j) => j.id),
    );
    return jobs.map((j) =>
      toDownloadJob(
        j,
        tasks.filter((t) => t.job_id === j.id),
      ),
    );
  }
  async function ownBatch(auth: AuthContext, jobId: number) {
    const job = await repo.findClipJob(db, auth.tenantId, jobId);
    if (!job || job.user_id !== auth.userId) throw notFound('Download not found');
    return job;
  }
  async function getBatch(auth: AuthContext, jobId: number) {
    const job = await ownBatch(auth, jobId);
    return toDownloadJob(job, await repo.clipTasks(db, auth.tenantId, [jobId]));
  }
  /** Stop (while running) or delete (after): the work stops and the files go. */
  async function deleteBatch(auth: AuthContext, jobId: number) {
    const job = await ownBatch(auth, jobId);
    if (job.queue_job_id) await cancelJob(db, auth.tenantId, job.queue_job_id);
    await repo.deleteClipJob(db, auth.tenantId, jobId);
    await removeQuietly(paths.clipJobDir(auth.tenantId, jobId));
    return { success: true };
  }
  async function markDownloaded(auth: AuthContext, jobId: number, tid: string) {
    await ownBatch(auth, jobId);
    const task = await repo.findClipTask(db, auth.tenantId, jobId, tid);
    if (!task) throw notFound('Task not found');
    await repo.updateClipTask(db, auth.tenantId, task.id, { is_read: true });
    const tasks = await repo.clipTasks(db, auth.tenantId, [jobId]);
    if (tasks.every((t) => t.is_read || t.status === 'error')) await repo.updateClipJob(db, auth.tenantId, jobId, { downloaded: true });
    return getBatch(auth, jobId);
  }
  async function clipFile(auth: AuthContext, jobId: number, tid: string) {
    await ownBatch(auth, jobId);
    const task = await repo.findClipTask(db, auth.tenantId, jobId, tid);
    if (task?.status !== 'ready-to-download' || !task) throw notFound('The file is not ready');
    const path = paths.clipFile(auth.tenantId, jobId, task.tid);
    try {
      return { path, size: (await stat(path)).size, name: task.name };
    } catch {
      throw notFound();
    }
  }

  return {
    cameraAccess,
    checkedLive,
    listCameras,
    getCamera: async (auth: AuthContext, camId: number) => {
      const { device, row } = await cameraAccess(auth, camId);
      return toCamera(device, row, await tablesOf(auth.tenantId, camId));
    },
    configure,
    removeConfig: async (auth: AuthContext, camId: number, origin: AuditOrigin | null) => {
      requireAdmin(auth);
      const { row } = await configuredCamera(auth, camId);
      const before = cameraRecord(row, await tablesOf(auth.tenantId, camId));
      await removeRecorded(origin, { type: 'camera-config', id: camId }, before, (trx) => repo.deleteCamera(trx, auth.tenantId, camId));
      deps.poke();
      deps.cameraChanged?.(auth.tenantId, camId);
      return { success: true };
    },
    liveView,
    liveSource,
    stopLiveView,
    live,
    playback,
    timeline,
    mediaFile,
    snapshot,
    snapshotImage,
    listStorages,
    getStorage,
    saveStorage,
    deleteStorage,
    listTours,
    getTour,
    createTour,
    updateTour,
    deleteTour,
    listIncidents,
    tableCamera,
    createIncident,
    getIncident,
    incidentAccess,
    updateIncident,
    deleteIncident,
    incidentClip,
    incidentPack,
    evidence,
    evidenceFile,
    createBatch,
    listBatches,
    getBatch,
    ownBatch,
    deleteBatch,
    markDownloaded,
    clipFile,
  };
}

export type VideoService = ReturnType<typeof createVideoService>;
