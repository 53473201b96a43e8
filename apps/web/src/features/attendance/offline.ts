import type { AttendanceCheckIn, AttendanceCheckOut, AttendanceCurrent, AttendanceRecord } from '@sitewatch/contracts/attendance';
import { updateCopy } from '../../lib/offline/read-cache.ts';
import { sendOrQueue } from '../../lib/offline/send-or-queue.ts';
import { getUser } from '../../lib/session.ts';

/**
 * Check-in and check-out work without a connection: the position and its accuracy are read from the phone at the
 * time, and the action waits in the outbox with that time; the server fences the recorded position when it arrives.
 * Until then the phone shows the check-in as waiting (a record with no id of its own yet).
 */
const CURRENT = '/api/attendance/current/';
const SUBJECT = 'attendance';

export const isWaitingRecord = (record: AttendanceRecord) => record.id <= 0;

function waitingRecord(site: { id: number; name: string }, input: AttendanceCheckIn, at: string): AttendanceRecord {
  const user = getUser();
  return {
    id: 0,
    userId: user?.id ?? 0,
    userName: user ? `${user.firstname ?? ''} ${user.lastname ?? ''}`.trim() || user.username : '',
    assetId: site.id,
    siteName: site.name,
    ticketId: input.ticketId ?? null,
    checkInAt: at,
    checkOutAt: null,
    receivedAt: { checkIn: at, checkOut: null },
    checkIn: { latitude: input.latitude, longitude: input.longitude, accuracy: input.accuracy ?? null },
    checkOut: null,
    distance: 0,
    travelKmh: null,
    impossibleTravel: false,
    hours: null,
    missingCheckOut: false,
    movedTicketIds: [],
    snapshot: { state: 'none', takenAt: null, cameraLabel: null },
    photo: false,
  };
}

/**
 * Checks in now, or keeps the check-in for later; answers the record the phone shows meanwhile. A photo taken with
 * the phone is kept with it (a Blob) and uploaded first, with a key made from the check-in's.
 */
export async function checkInOrQueue(site: { id: number; name: string }, input: AttendanceCheckIn, photo: File | null = null) {
  const performedAt = new Date().toISOString();
  const result = await sendOrQueue<AttendanceRecord>({
    kind: 'attendance.check-in',
    label: photo ? `Check in at ${site.name} with a photo` : `Check in at ${site.name}`,
    method: 'POST',
    path: '/api/attendance/check-in/',
    body: input,
    subject: SUBJECT,
    performedAt,
    ...(photo
      ? {
          files: [{ field: 'photo', name: photo.name || 'check-in.jpg', type: photo.type, blob: photo, ref: 'check-in-photo' }],
          uploadPath: '/api/attendance/photos/',
        }
      : {}),
  });
  if ('answer' in result) return { record: result.answer, queued: false };
  const record = waitingRecord(site, input, performedAt);
  await updateCopy<AttendanceCurrent>(CURRENT, (current) => ({ ...current, record })).catch(() => undefined);
  return { record, queued: true };
}

/** Checks out now, or keeps the check-out for later; the phone shows nobody checked in meanwhile. */
export async function checkOutOrQueue(siteName: string, input: AttendanceCheckOut) {
  const result = await sendOrQueue<AttendanceRecord>({
    kind: 'attendance.check-out',
    label: `Check out of ${siteName}`,
    method: 'POST',
    path: '/api/attendance/check-out/',
    body: input,
    subject: SUBJECT,
  });
  if ('answer' in result) return { queued: false };
  await updateCopy<AttendanceCurrent>(CURRENT, (current) => ({ ...current, record: null })).catch(() => undefined);
  return { queued: true };
}
