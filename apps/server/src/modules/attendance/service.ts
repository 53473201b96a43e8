import { randomUUID } from 'node:crypto';
import {
  ATTENDANCE_IMPOSSIBLE_KMH,
  ATTENDANCE_MESSAGES,
  ATTENDANCE_MISSING_AFTER_HOURS,
  ATTENDANCE_PERMISSIONS,
  ATTENDANCE_PHOTO_LIMITS,
  ATTENDANCE_PHOTO_TYPES,
  ATTENDANCE_TRAVEL_MIN_METERS,
  type AttendanceCheckIn,
  type AttendanceCheckOut,
  type AttendanceHoursQuery,
  type AttendanceListQuery,
  type AttendanceRecord,
  type CustomerSettings,
  haversineMeters,
  type TicketUpdate,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditOrigin } from '../../platform/audit.ts';
import { writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { type BlobStore, blobKey } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { Clock } from '../../platform/module.ts';
import { sniffContentType } from '../../platform/sniff.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { usersById } from '../users/directory.ts';
import * as photos from './photos.ts';
import * as repo from './repository.ts';

export const SNAPSHOT_QUEUE = 'attendance.snapshot';
/** Tickets one check-in may move to INPROGRESS when none is named. */
const MAX_TICKETS_MOVED = 10;
const MAX_HOURS_ROWS = 2000;

type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

/** A picture of the site from one of its cameras (the video module's footage port). */
export interface SiteStills {
  /** Null when the site has no configured camera; `image` null when its cameras have no picture now. */
  siteStill(tenantId: number, assetId: number): Promise<{ deviceId: number; label: string; takenAt: Date; image: Buffer | null } | null>;
}

/** What attendance asks of the helpdesk: find the caller's tickets and change one as they would. */
export interface AttendanceTickets {
  /** A ticket the caller may see (404 otherwise), without its detail view. */
  brief(
    actor: Actor,
    id: number,
  ): Promise<{ id: number; status: string; version: number; locationId: number | null; assignedTo: number | null }>;
  /** The newest tickets in these statuses assigned to the caller at the site: one indexed query. */
  assignedToMeAt(actor: Actor, siteId: number, statuses: readonly string[], limit: number): Promise<Array<{ id: number; version: number }>>;
  /** The helpdesk's update as the caller, without building the ticket's detail view. */
  change(actor: Actor, id: number, patch: TicketUpdate, origin: AuditOrigin | null): Promise<unknown>;
}

export interface AttendanceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  directory: Pick<SiteDirectory, 'asset' | 'visibleAssetIds'>;
  users: Pick<UserDirectory, 'byIds'>;
  settings(tenantId: number): Promise<Pick<CustomerSettings, 'attendanceGeofenceMeters' | 'attendanceSnapshotRequired'>>;
  tickets: AttendanceTickets;
  stills: SiteStills;
  blobs: BlobStore;
  /** Asks the job worker to look for work now (the snapshot). */
  poke(): void;
}

const OPEN_STATUSES = ['OPEN', 'RE-OPENED'];
/** A check-in that arrives this much after it was done (sent from the phone's outbox) is late. */
const LATE_CHECK_IN_MS = 2 * 60_000;
type Still = NonNullable<Awaited<ReturnType<SiteStills['siteStill']>>>;

/**
 * The speed (km/h) of the journey from the user's previous position (their last check-out, or check-in) to this
 * check-in; null for the first record or a nearby one (a position is only approximate).
 */
function travelKmh(previous: repo.AttendanceRow | undefined, at: Date, latitude: number, longitude: number): number | null {
  if (!previous) return null;
  const out = previous.check_out_at !== null && previous.check_out_lat !== null && previous.check_out_lng !== null;
  const [lat, lng, when] = out
    ? [previous.check_out_lat as number, previous.check_out_lng as number, new Date(previous.check_out_at as Date)]
    : [previous.check_in_lat, previous.check_in_lng, new Date(previous.check_in_at)];
  const meters = haversineMeters(lat, lng, latitude, longitude);
  if (meters < ATTENDANCE_TRAVEL_MIN_METERS) return null;
  const hours = Math.max(1000, at.getTime() - when.getTime()) / 3600_000;
  return Math.round(meters / 1000 / hours);
}

/** A reported accuracy (metres) worse than the fence: the position could be anywhere in a wider circle. */
function refuseInaccurate(accuracy: number | undefined, radius: number) {
  if (accuracy !== undefined && accuracy > radius)
    throw badRequest(ATTENDANCE_MESSAGES.inaccurate(Math.round(accuracy), radius), 'inaccurate_position');
}
const hasCoordinates = (lat: number | null, lng: number | null): boolean =>
  lat !== null && lng !== null && Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0);

export function createAttendanceService(deps: AttendanceDeps) {
  const { db } = deps;

  const may = (actor: Actor, codename: string) => actor.permissions.has(codename);

  /** Every user's records on the caller's sites (view_attendance), or only their own (add_attendance). */
  async function scopeOf(actor: Actor): Promise<repo.AttendanceScope> {
    const sites = await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    if (may(actor, ATTENDANCE_PERMISSIONS.view)) return { tenantId: actor.tenantId, sites };
    if (may(actor, ATTENDANCE_PERMISSIONS.add)) return { tenantId: actor.tenantId, sites: 'all', userId: actor.userId };
    throw forbidden();
  }

  const missingBefore = () => new Date(deps.clock.now().getTime() - ATTENDANCE_MISSING_AFTER_HOURS * 3600_000);

  async function present(tenantId: number, rows: repo.AttendanceRow[], known?: { id: number; name: string }): Promise<AttendanceRecord[]> {
    if (rows.length === 0) return [];
    const [withPhoto, names, sites] = await Promise.all([
      photos.recordsWithPhotos(
        db,
        tenantId,
        rows.map((r) => r.id),
      ),
      usersById(
        deps.users,
        tenantId,
        rows.map((r) => r.user_id),
      ),
      Promise.all([...new Set(rows.map((r) => r.asset_id))].map((id) => (id === known?.id ? known : deps.directory.asset(tenantId, id)))),
    ]);
    const siteName = new Map(sites.filter((s) => s !== null).map((s) => [s.id, s.name]));
    const cutoff = missingBefore().getTime();
    return rows.map((r) => {
      const user = names.get(r.user_id);
      const inAt = new Date(r.check_in_at);
      const outAt = r.check_out_at ? new Date(r.check_out_at) : null;
      return {
        id: r.id,
        userId: r.user_id,
        userName: user ? `${user.firstname} ${user.lastname}`.trim() || user.username : `User ${r.user_id}`,
        assetId: r.asset_id,
        siteName: siteName.get(r.asset_id) ?? `Site ${r.asset_id}`,
        ticketId: r.ticket_id,
        checkInAt: inAt.toISOString(),
        checkOutAt: outAt?.toISOString() ?? null,
        receivedAt: {
          checkIn: new Date(r.created_at).toISOString(),
          checkOut: r.check_out_received_at ? new Date(r.check_out_received_at).toISOString() : null,
        },
        checkIn: { latitude: r.check_in_lat, longitude: r.check_in_lng, accuracy: r.check_in_accuracy },
        checkOut:
          r.check_out_lat !== null && r.check_out_lng !== null
            ? { latitude: r.check_out_lat, longitude: r.check_out_lng, accuracy: r.check_out_accuracy }
            : null,
        distance: r.distance_m,
        travelKmh: r.travel_kmh,
        impossibleTravel: r.travel_kmh !== null && r.travel_kmh > ATTENDANCE_IMPOSSIBLE_KMH,
        hours: outAt ? Math.round(((outAt.getTime() - inAt.getTime()) / 3600_000) * 100) / 100 : null,
        missingCheckOut: !outAt && inAt.getTime() < cutoff,
        movedTicketIds: r.moved_ticket_ids ?? [],
        snapshot: {
          state: r.snapshot_state as AttendanceRecord['snapshot']['state'],
          takenAt: r.snapshot_at ? new Date(r.snapshot_at).toISOString() : null,
          cameraLabel: r.snapshot_camera,
        },
        photo: withPhoto.has(r.id),
      };
    });
  }

  const one = async (tenantId: number, row: repo.AttendanceRow, known?: { id: number; name: string }) =>
    (await present(tenantId, [row], known))[0] as AttendanceRecord;

  function announce(row: repo.AttendanceRow, kind: 'check-in' | 'check-out' | 'snapshot') {
    deps.events.emit({
      type: 'attendance.changed',
      tenantId: row.tenant_id,
      payload: { recordId: row.id, userId: row.user_id, assetId: row.asset_id, kind },
    });
  }

  /** The open tickets at the site assigned to the caller (or the one named) go to INPROGRESS, as if they changed it. */
  async function startTickets(actor: Actor, assetId: number, named: { id: number; status: string } | null, origin: AuditOrigin) {
    let open: Array<{ id: number; version: number }> = [];
    if (named) {
      // Read again after the check-in commits: the move applies to the ticket as it is now.
      if (OPEN_STATUSES.includes(named.status)) {
        const ticket = await deps.tickets.brief(actor, named.id).catch((error: unknown) => {
          if (!(error instanceof HttpError)) deps.log.error({ err: error, ticketId: named.id }, 'attendance: moving a ticket failed');
          return null;
        });
        if (ticket && OPEN_STATUSES.includes(ticket.status) && ticket.assignedTo === actor.userId) open = [ticket];
      }
    } else open = await deps.tickets.assignedToMeAt(actor, assetId, OPEN_STATUSES, MAX_TICKETS_MOVED);
    const moved: number[] = [];
    for (const { id, version } of open) {
      try {
        // A change made since this read is refused by the version (409) and the ticket is left as it is.
        await deps.tickets.change(actor, id, { status: 'INPROGRESS', version } as TicketUpdate, origin);
        moved.push(id);
      } catch (error) {
        // The helpdesk's rules refused (a transition this user may not make, a concurrent change): the check-in stands.
        if (!(error instanceof HttpError)) deps.log.error({ err: error, ticketId: id }, 'attendance: moving a ticket failed');
      }
    }
    return moved;
  }

  /** Stores a still as the record's snapshot (or marks it unavailable when the camera had no picture). */
  async function storeStill(tenantId: number, recordId: number, still: Still) {
    if (!still.image) {
      await repo.setSnapshot(db, tenantId, recordId, { state: 'unavailable', camera: still.label });
      return { snapshot_state: 'unavailable', snapshot_camera: still.label };
    }
    const key = blobKey('attendance', tenantId, `${recordId}.jpg`);
    await deps.blobs.put(key, still.image);
    await repo.setSnapshot(db, tenantId, recordId, { state: 'stored', key, at: still.takenAt, camera: still.label });
    return { snapshot_state: 'stored', snapshot_key: key, snapshot_at: still.takenAt, snapshot_camera: still.label };
  }

  return {
    async current(actor: Actor) {
      if (!may(actor, ATTENDANCE_PERMISSIONS.add) && !may(actor, ATTENDANCE_PERMISSIONS.view)) throw forbidden();
      const [row, settings] = await Promise.all([repo.openRecordOf(db, actor.tenantId, actor.userId), deps.settings(actor.tenantId)]);
      return { record: row ? await one(actor.tenantId, row) : null, geofenceMeters: settings.attendanceGeofenceMeters };
    },

    async checkIn(actor: Actor, input: AttendanceCheckIn, origin: AuditOrigin): Promise<AttendanceRecord> {
      if (!may(actor, ATTENDANCE_PERMISSIONS.add)) throw forbidden();
      const [site, visible, settings] = await Promise.all([
        deps.directory.asset(actor.tenantId, input.assetId),
        deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles),
        deps.settings(actor.tenantId),
      ]);
      if (!site || (visible !== 'all' && !visible.includes(site.id))) throw notFound('Site not found');
      if (!hasCoordinates(site.latitude, site.longitude))
        throw badRequest(ATTENDANCE_MESSAGES.noCoordinates(site.name), 'site_without_location');
      const radius = settings.attendanceGeofenceMeters;
      refuseInaccurate(input.accuracy, radius);
      const distance = Math.round(haversineMeters(input.latitude, input.longitude, site.latitude as number, site.longitude as number));
      if (distance > radius) throw badRequest(ATTENDANCE_MESSAGES.outside(distance, site.name, radius), 'outside_geofence');
      const received = deps.clock.now();
      // Done at the site earlier, without a connection: the position was recorded then and is fenced as it was.
      const at = origin.performedAt ?? received;
      // A camera still now would show the site at arrival, not at check-in: a late check-in has none.
      const late = received.getTime() - at.getTime() > LATE_CHECK_IN_MS;
      const photoUid = input.attachments?.[0]?.uid ?? null;
      if (photoUid && !(await photos.unclaimedPhoto(db, actor.tenantId, actor.userId, photoUid)))
        throw badRequest(ATTENDANCE_MESSAGES.photoMissing, 'invalid_photo');
      let still: Still | null = null;
      // A photo taken with the phone at the time satisfies the tenant's rule; without one a camera still is needed,
      // which only a check-in sent at once can have.
      if (settings.attendanceSnapshotRequired && !photoUid) {
        if (late) throw badRequest(ATTENDANCE_MESSAGES.photoRequiredLate(site.name), 'photo_required');
        still = await deps.stills.siteStill(actor.tenantId, site.id);
        if (!still?.image) throw badRequest(ATTENDANCE_MESSAGES.snapshotRequired(site.name), 'snapshot_required');
      }
      let named: { id: number; status: string } | null = null;
      if (input.ticketId !== undefined) {
        const ticket = await deps.tickets.brief(actor, input.ticketId);
        if (ticket.locationId !== site.id) throw badRequest(ATTENDANCE_MESSAGES.ticketElsewhere);
        named = ticket.assignedTo === actor.userId ? { id: ticket.id, status: ticket.status } : null;
      }
      const previous = await repo.latestRecordOf(db, actor.tenantId, actor.userId);
      const travel = travelKmh(previous, at, input.latitude, input.longitude);
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await repo.insertRecord(trx, {
          tenantId: actor.tenantId,
          userId: actor.userId,
          assetId: site.id,
          ticketId: input.ticketId ?? null,
          at,
          receivedAt: received,
          latitude: input.latitude,
          longitude: input.longitude,
          accuracy: input.accuracy ?? null,
          distance,
          travelKmh: travel,
          snapshotState: late ? 'none' : 'pending',
        });
        if (!inserted) return null;
        if (photoUid && !(await photos.claimPhoto(trx, actor.tenantId, photoUid, inserted.id)))
          throw badRequest(ATTENDANCE_MESSAGES.photoMissing, 'invalid_photo');
        if (!still && !late)
          await enqueueJob(trx, { tenantId: actor.tenantId, queue: SNAPSHOT_QUEUE, payload: { recordId: inserted.id }, maxAttempts: 2 });
        await writeActivity(trx, origin, {
          action: 'attendance.check-in',
          object: { type: 'attendance', id: inserted.id },
          after: { site: site.name, distance, ticketId: input.ticketId ?? null, travelKmh: travel, photo: photoUid !== null },
        });
        return inserted;
      });
      if (!row) {
        // Site names come from the sites module, outside the transaction (one connection on embedded PGlite).
        const open = await repo.openRecordOf(db, actor.tenantId, actor.userId);
        const where = open ? await deps.directory.asset(actor.tenantId, open.asset_id) : null;
        throw conflict(ATTENDANCE_MESSAGES.alreadyIn(where?.name ?? 'another site'), 'already_checked_in');
      }
      if (still) Object.assign(row, await storeStill(actor.tenantId, row.id, still));
      try {
        if (named !== null || input.ticketId === undefined) {
          const moved = await startTickets(actor, site.id, named, origin);
          if (moved.length > 0) {
            await repo.setMovedTickets(db, actor.tenantId, row.id, moved);
            row.moved_ticket_ids = moved;
          }
        }
      } finally {
        // The snapshot job starts once the tickets are moved, so that it does not queue before them for the connection.
        deps.poke();
      }
      announce(row, 'check-in');
      return one(actor.tenantId, row, site);
    },

    async checkOut(actor: Actor, input: AttendanceCheckOut, origin: AuditOrigin): Promise<AttendanceRecord> {
      if (!may(actor, ATTENDANCE_PERMISSIONS.add)) throw forbidden();
      const received = deps.clock.now();
      const at = origin.performedAt ?? received;
      const current = await repo.openRecordOf(db, actor.tenantId, actor.userId);
      if (!current) throw badRequest(ATTENDANCE_MESSAGES.notCheckedIn, 'not_checked_in');
      if (at.getTime() < new Date(current.check_in_at).getTime())
        throw badRequest(ATTENDANCE_MESSAGES.checkOutBeforeCheckIn, 'check_out_before_check_in');
      const [site, settings] = await Promise.all([deps.directory.asset(actor.tenantId, current.asset_id), deps.settings(actor.tenantId)]);
      // the same fence as check-in, where the site still has a location
      if (site && hasCoordinates(site.latitude, site.longitude)) {
        const radius = settings.attendanceGeofenceMeters;
        refuseInaccurate(input.accuracy, radius);
        const distance = Math.round(haversineMeters(input.latitude, input.longitude, site.latitude as number, site.longitude as number));
        if (distance > radius) throw badRequest(ATTENDANCE_MESSAGES.outsideCheckOut(distance, site.name, radius), 'outside_geofence');
      }
      const row = await db.transaction().execute(async (trx) => {
        const open = await repo.openRecordOf(trx, actor.tenantId, actor.userId);
        if (!open) throw badRequest(ATTENDANCE_MESSAGES.notCheckedIn, 'not_checked_in');
        const closed = await repo.closeRecord(
          trx,
          actor.tenantId,
          open.id,
          { done: at, received },
          {
            latitude: input.latitude,
            longitude: input.longitude,
            accuracy: input.accuracy ?? null,
          },
        );
        if (!closed) throw badRequest(ATTENDANCE_MESSAGES.notCheckedIn, 'not_checked_in');
        const hours = Math.round(((at.getTime() - new Date(closed.check_in_at).getTime()) / 3600_000) * 100) / 100;
        await writeActivity(trx, origin, {
          action: 'attendance.check-out',
          object: { type: 'attendance', id: closed.id },
          after: { site: closed.asset_id === site?.id ? site.name : null, hours },
        });
        return closed;
      });
      announce(row, 'check-out');
      return one(actor.tenantId, row, site ?? undefined);
    },

    async list(actor: Actor, query: AttendanceListQuery) {
      const scope = await scopeOf(actor);
      if (query.from && query.to && new Date(query.from) >= new Date(query.to)) throw badRequest(ATTENDANCE_MESSAGES.dateOrder);
      const q: repo.AttendanceQuery = {
        userId: query.userId,
        assetId: query.assetId,
        ticketId: query.ticketId,
        from: query.from,
        to: query.to,
        open: query.state === 'open' ? true : query.state === 'closed' ? false : undefined,
        openSince: query.state === 'missing' ? missingBefore() : undefined,
      };
      const [rows, totalCount] = await Promise.all([
        repo.listRecords(db, scope, q, { offset: (query.page - 1) * query.limit, limit: query.limit }),
        repo.countRecords(db, scope, q),
      ]);
      return { contents: await present(actor.tenantId, rows), totalCount };
    },

    async get(actor: Actor, id: number) {
      const scope = await scopeOf(actor);
      const row = await repo.findRecord(db, actor.tenantId, id);
      if (!row) throw notFound();
      if (scope.userId !== undefined && row.user_id !== scope.userId) throw notFound();
      if (scope.sites !== 'all' && !scope.sites.includes(row.asset_id) && row.user_id !== actor.userId) throw notFound();
      return row;
    },

    present: one,

    async snapshot(actor: Actor, id: number) {
      const row = await this.get(actor, id);
      if (row.snapshot_state !== 'stored' || !row.snapshot_key) throw notFound(ATTENDANCE_MESSAGES.noSnapshot);
      const blob = await deps.blobs.open(row.snapshot_key);
      if (!blob) throw notFound(ATTENDANCE_MESSAGES.noSnapshot);
      return blob;
    },

    /** The photo taken with the phone at check-in, for those who may read the record. */
    async photo(actor: Actor, id: number) {
      const row = await this.get(actor, id);
      const photo = await photos.photoOf(db, actor.tenantId, row.id);
      const blob = photo ? await deps.blobs.open(photo.blob_key) : null;
      if (!photo || !blob) throw notFound(ATTENDANCE_MESSAGES.noPhoto);
      return { ...blob, type: photo.type };
    },

    /** A check-in photo from the phone, stored by its content: only pictures, within the size limit. */
    async uploadPhoto(actor: Actor, files: Array<{ name: string; data: Buffer }>) {
      if (!may(actor, ATTENDANCE_PERMISSIONS.add)) throw forbidden();
      const [file] = files;
      if (!file || files.length !== 1) throw badRequest(ATTENDANCE_MESSAGES.photoOne, 'invalid_photo');
      if (file.data.length > ATTENDANCE_PHOTO_LIMITS.bytes) throw new HttpError(413, ATTENDANCE_MESSAGES.photoTooLarge, 'file_too_large');
      const type = sniffContentType(file.data);
      if (!type || !(ATTENDANCE_PHOTO_TYPES as readonly string[]).includes(type))
        throw new HttpError(415, ATTENDANCE_MESSAGES.photoType, 'unsupported_type');
      const uid = randomUUID();
      const key = blobKey('attendance', actor.tenantId, `photo-${uid}`);
      await deps.blobs.put(key, file.data);
      await photos.insertPhoto(db, { uid, tenantId: actor.tenantId, userId: actor.userId, type, size: file.data.length, blobKey: key });
      return { contents: [{ uid }] };
    },

    async hours(actor: Actor, query: AttendanceHoursQuery) {
      const scope = await scopeOf(actor);
      if (query.from && query.to && new Date(query.from) >= new Date(query.to)) throw badRequest(ATTENDANCE_MESSAGES.dateOrder);
      const rows = await repo.hoursPerDay(
        db,
        scope,
        { userId: query.userId, assetId: query.assetId, from: query.from, to: query.to },
        query.timeZone,
        MAX_HOURS_ROWS + 1,
      );
      const kept = rows.slice(0, MAX_HOURS_ROWS);
      const names = await usersById(
        deps.users,
        actor.tenantId,
        kept.map((r) => r.user_id),
      );
      return {
        contents: kept.map((r) => {
          const user = names.get(r.user_id);
          return {
            userId: r.user_id,
            userName: user ? `${user.firstname} ${user.lastname}`.trim() || user.username : `User ${r.user_id}`,
            day: r.day,
            hours: Math.round((Number(r.seconds) / 3600) * 100) / 100,
            records: Number(r.records),
            open: Number(r.open),
          };
        }),
        truncated: rows.length > MAX_HOURS_ROWS,
      };
    },

    /** The snapshot job: a still from one of the site's cameras, stored with the record. Idempotent. */
    async takeSnapshot(tenantId: number, recordId: number) {
      const row = await repo.findRecord(db, tenantId, recordId);
      if (!row || row.snapshot_state === 'stored') return { state: row?.snapshot_state ?? 'gone' };
      let state: 'none' | 'stored' | 'unavailable' = 'unavailable';
      try {
        const still = await deps.stills.siteStill(tenantId, row.asset_id);
        if (!still) {
          state = 'none';
          await repo.setSnapshot(db, tenantId, recordId, { state });
        } else {
          state = (await storeStill(tenantId, recordId, still)).snapshot_state as 'stored' | 'unavailable';
        }
      } catch (error) {
        deps.log.warn({ err: error, recordId }, 'attendance snapshot failed');
        await repo.setSnapshot(db, tenantId, recordId, { state });
      }
      announce(row, 'snapshot');
      return { state };
    },

    /** For the export: the caller's scope and a page of presented records. */
    scopeOf,
    async exportPage(scope: repo.AttendanceScope, q: repo.AttendanceQuery, cursor: number | null, limit: number) {
      const rows = await repo.recordsAfter(db, scope, q, cursor, limit);
      return { rows, records: await present(scope.tenantId, rows) };
    },
    count: (scope: repo.AttendanceScope, q: repo.AttendanceQuery) => repo.countRecords(db, scope, q),
  };
}
export type AttendanceService = ReturnType<typeof createAttendanceService>;
