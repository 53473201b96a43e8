import { ATTENDANCE_EXPORT_KIND, ATTENDANCE_PERMISSIONS, attendanceExportParamsSchema } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { ExportSource } from '../downloads/registry.ts';
import type { AttendanceService } from './service.ts';

type Params = z.infer<typeof attendanceExportParamsSchema>;

/** Attendance records as CSV through the downloads job centre, read with the caller's rights. */
export function attendanceExport(attendance: AttendanceService): ExportSource<Params> {
  const queryOf = (p: Params) => ({ userId: p.userId, assetId: p.assetId, from: p.from, to: p.to });
  return {
    kind: ATTENDANCE_EXPORT_KIND,
    label: 'Attendance',
    params: attendanceExportParamsSchema,
    columns: [
      { key: 'id', header: 'ID', type: 'integer' },
      { key: 'user', header: 'User', type: 'text' },
      { key: 'site', header: 'Site', type: 'text' },
      { key: 'checkInAt', header: 'Check In', type: 'datetime' },
      { key: 'checkOutAt', header: 'Check Out', type: 'datetime' },
      { key: 'hours', header: 'Hours', type: 'duration' },
      { key: 'distance', header: 'Distance (m)', type: 'integer' },
      { key: 'checkInPosition', header: 'Check-in Position', type: 'text' },
      { key: 'checkOutPosition', header: 'Check-out Position', type: 'text' },
      { key: 'ticketId', header: 'Ticket', type: 'text' },
      { key: 'missingCheckOut', header: 'Missing Check-out', type: 'boolean' },
      { key: 'snapshot', header: 'Snapshot', type: 'text' },
    ],
    allowed: (scope) => scope.permissions.includes(ATTENDANCE_PERMISSIONS.view) || scope.permissions.includes(ATTENDANCE_PERMISSIONS.add),
    async count(scope, p) {
      return attendance.count(await attendance.scopeOf({ ...scope, permissions: new Set(scope.permissions) }), queryOf(p));
    },
    async fetchPage(scope, p, cursor, limit) {
      const access = await attendance.scopeOf({ ...scope, permissions: new Set(scope.permissions) });
      const { rows, records } = await attendance.exportPage(access, queryOf(p), cursor ? Number(cursor) : null, limit);
      const last = rows.at(-1);
      return {
        rows: records.map((r) => ({
          id: r.id,
          user: r.userName,
          site: r.siteName,
          checkInAt: r.checkInAt,
          checkOutAt: r.checkOutAt ?? '',
          hours: r.hours ?? '',
          distance: r.distance,
          checkInPosition: `${r.checkIn.latitude},${r.checkIn.longitude}`,
          checkOutPosition: r.checkOut ? `${r.checkOut.latitude},${r.checkOut.longitude}` : '',
          ticketId: r.ticketId ?? '',
          missingCheckOut: r.missingCheckOut ? 'Yes' : '',
          snapshot: r.snapshot.state,
        })),
        nextCursor: rows.length === limit && last ? String(last.id) : null,
      };
    },
  };
}
