import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/** The geofence radius a tenant uses when it has not set one (metres). */
export const ATTENDANCE_DEFAULT_GEOFENCE_METERS = 200;
export const ATTENDANCE_GEOFENCE_LIMITS = { min: 10, max: 10_000 } as const;
/** A check-in still open after this long is a missing check-out. */
export const ATTENDANCE_MISSING_AFTER_HOURS = 24;
export const ATTENDANCE_PERMISSIONS = { view: 'view_attendance', add: 'add_attendance' } as const satisfies Record<
  string,
  PermissionCodename
>;
export const ATTENDANCE_EXPORT_KIND = 'attendance';
/** A photo taken with the phone at check-in: one picture, at most this size. */
export const ATTENDANCE_PHOTO_LIMITS = { bytes: 5 * 1024 * 1024, label: '5 MB' } as const;
export const ATTENDANCE_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** A check-in implying a faster journey from the user's previous position than this (km/h) is flagged. */
export const ATTENDANCE_IMPOSSIBLE_KMH = 300;
/** Below this distance (metres) from the previous position no speed is worked out (positions are approximate). */
export const ATTENDANCE_TRAVEL_MIN_METERS = 1000;
/** Shown to administrators where the fence is set and check-ins are reviewed. */
export const ATTENDANCE_TRUST_NOTE =
  'The geofence relies on the position the phone reports. A phone can be made to report a false position, so a check-in inside the fence is not proof of presence: look at flagged records and the site snapshot.';

export const ATTENDANCE_MESSAGES = {
  outside: (distance: number, site: string, radius: number) => `You are ${distance} m from ${site}; check-in is allowed within ${radius} m`,
  noCoordinates: (site: string) =>
    `${site} has no location set, so check-in cannot be verified. Ask an administrator to set its latitude and longitude.`,
  alreadyIn: (site: string) => `You are already checked in at ${site}. Check out first.`,
  notCheckedIn: 'You are not checked in.',
  checkOutBeforeCheckIn: 'This check-out was made before the check-in it would close.',
  ticketElsewhere: 'This ticket is not at the site you are checking in at.',
  siteRequired: 'Choose a site',
  position: 'Your position is required: allow location access and try again',
  latitude: 'Latitude must be between -90 and 90',
  longitude: 'Longitude must be between -180 and 180',
  accuracy: 'Accuracy must be between 0 and 100000 metres',
  dateOrder: 'Please choose an end date greater than the start date',
  noSnapshot: 'No snapshot was taken for this check-in.',
  inaccurate: (accuracy: number, radius: number) =>
    `Your position is only accurate to ${accuracy} m, more than the ${radius} m geofence. Wait for a better location fix (outdoors, with location services on) and try again.`,
  outsideCheckOut: (distance: number, site: string, radius: number) =>
    `You are ${distance} m from ${site}; check-out is allowed within ${radius} m`,
  snapshotRequired: (site: string) =>
    `Check-in here needs a camera snapshot of ${site}, and its cameras have no picture now. Ask an administrator to check the site's cameras.`,
  photoRequiredLate: (site: string) =>
    `Check-in at ${site} needs a photo: this check-in was sent after it was made, when the site's cameras could no longer show it. Check in again with a photo taken on the phone.`,
  photoTooLarge: 'The photo is larger than 5 MB. Take it again at a lower resolution.',
  photoType: 'The photo must be a JPEG, PNG or WebP picture.',
  photoOne: 'Send one photo.',
  photoMissing: 'The photo is missing or already used: take it again.',
  noPhoto: 'No photo was taken with the phone for this check-in.',
} as const;

const latitude = z
  .number({ message: ATTENDANCE_MESSAGES.position })
  .min(-90, ATTENDANCE_MESSAGES.latitude)
  .max(90, ATTENDANCE_MESSAGES.latitude);
const longitude = z
  .number({ message: ATTENDANCE_MESSAGES.position })
  .min(-180, ATTENDANCE_MESSAGES.longitude)
  .max(180, ATTENDANCE_MESSAGES.longitude);
const accuracy = z.number().min(0, ATTENDANCE_MESSAGES.accuracy).max(100_000, ATTENDANCE_MESSAGES.accuracy);

export const attendanceCheckInSchema = z.strictObject({
  assetId: z.number({ message: ATTENDANCE_MESSAGES.siteRequired }).int().min(1).max(INT4_MAX),
  latitude,
  longitude,
  accuracy: accuracy.optional(),
  ticketId: idSchema.optional(),
  /** The phone photo uploaded first to /api/attendance/photos/ (at most one). */
  attachments: z
    .array(z.strictObject({ uid: z.uuid() }))
    .max(1, ATTENDANCE_MESSAGES.photoOne)
    .optional(),
});
export type AttendanceCheckIn = z.infer<typeof attendanceCheckInSchema>;

export const attendanceCheckOutSchema = z.strictObject({
  latitude,
  longitude,
  accuracy: accuracy.optional(),
});
export type AttendanceCheckOut = z.infer<typeof attendanceCheckOutSchema>;

const positionSchema = z.object({ latitude: z.number(), longitude: z.number(), accuracy: z.number().nullable() });

export const SNAPSHOT_STATES = ['none', 'pending', 'stored', 'unavailable'] as const;

export const attendanceRecordSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  assetId: z.number().int(),
  siteName: z.string(),
  ticketId: z.number().int().nullable(),
  checkInAt: z.string(),
  checkOutAt: z.string().nullable(),
  /** When the check-in and check-out reached the server: later than checkInAt/checkOutAt when sent from the outbox. */
  receivedAt: z.object({ checkIn: z.string(), checkOut: z.string().nullable() }),
  checkIn: positionSchema,
  checkOut: positionSchema.nullable(),
  /** Metres from the site's coordinates at check-in. */
  distance: z.number().int(),
  /** The speed (km/h) implied from the user's previous check-in or check-out; null when close by or the first. */
  travelKmh: z.number().nullable(),
  /** travelKmh above ATTENDANCE_IMPOSSIBLE_KMH: no one travels that fast between two check-ins. */
  impossibleTravel: z.boolean(),
  /** Worked hours of a closed record. */
  hours: z.number().nullable(),
  /** Open beyond ATTENDANCE_MISSING_AFTER_HOURS. */
  missingCheckOut: z.boolean(),
  /** Tickets this check-in moved to INPROGRESS. */
  movedTicketIds: z.array(z.number().int()),
  snapshot: z.object({
    state: z.enum(SNAPSHOT_STATES),
    takenAt: z.string().nullable(),
    cameraLabel: z.string().nullable(),
  }),
  /** A photo taken with the phone at check-in, served at /api/attendance/:id/photo/. */
  photo: z.boolean(),
});
export type AttendanceRecord = z.infer<typeof attendanceRecordSchema>;

export const attendanceCurrentSchema = z.object({
  record: attendanceRecordSchema.nullable(),
  geofenceMeters: z.number().int(),
});
export type AttendanceCurrent = z.infer<typeof attendanceCurrentSchema>;

export const attendancePhotoListSchema = z.object({ contents: z.array(z.object({ uid: z.string() })) });

const dayOrTime = z.iso.datetime({ offset: true, message: 'Enter a date and time such as 2026-01-31T00:00:00Z' });

const filterShape = {
  userId: idCoerced.optional(),
  assetId: idCoerced.optional(),
  from: dayOrTime.optional(),
  to: dayOrTime.optional(),
};

export const attendanceFilterSchema = z.strictObject(filterShape);
export type AttendanceFilter = z.infer<typeof attendanceFilterSchema>;

export const attendanceListQuerySchema = z.strictObject({
  ...filterShape,
  ticketId: idCoerced.optional(),
  /** open: not checked out yet; closed; missing: open beyond ATTENDANCE_MISSING_AFTER_HOURS. */
  state: z.enum(['open', 'closed', 'missing'], { message: 'state must be open, closed or missing' }).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type AttendanceListQuery = z.infer<typeof attendanceListQuerySchema>;

export const attendanceListSchema = z.object({ contents: z.array(attendanceRecordSchema), totalCount: z.number().int() });
export type AttendanceList = z.infer<typeof attendanceListSchema>;

/** An IANA time zone the days are counted in (the browser's). */
const timeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return /^[A-Za-z0-9_+\-/]+$/.test(zone);
    } catch {
      return false;
    }
  }, 'timeZone must be a known time zone name, e.g. Asia/Kolkata')
  .default('UTC');

export const attendanceHoursQuerySchema = z.strictObject({ ...filterShape, timeZone });
export type AttendanceHoursQuery = z.infer<typeof attendanceHoursQuerySchema>;

export const attendanceHoursSchema = z.object({
  contents: z.array(
    z.object({
      userId: z.number().int(),
      userName: z.string(),
      /** YYYY-MM-DD in the asked time zone (the day of check-in). */
      day: z.string(),
      hours: z.number(),
      records: z.number().int(),
      open: z.number().int(),
    }),
  ),
  /** True when more days exist than were returned (narrow the filters). */
  truncated: z.boolean(),
});
export type AttendanceHours = z.infer<typeof attendanceHoursSchema>;

export const attendanceExportParamsSchema = z.strictObject(filterShape);

/** Great-circle distance in metres between two WGS84 points (haversine on a sphere of the mean Earth radius). */
export function haversineMeters(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLng = (bLng - aLng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}
