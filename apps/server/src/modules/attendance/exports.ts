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
      { key: 'id', header: 'ID' },
      { key: 'user', header: 'User' },
      { key: 'site', header: 'Site' },
      { key: 'checkInAt', header: 'Check In' },
      { key: 'checkOutAt', header: 'Check Out' },
      { key: 'hours', header: 'Hours' },
      { key: 'distance', header: 'Distance (m)' },
      { key: 'checkInPosition', header: 'Check-in Position' },
      { key: 'checkOutPosition', header: 'Check-out Position' },
      { key: 'ticketId', header: 'Ticket' },
      { key: 'missingCheckOut', header: 'Missing Check-out' },
      { key: 'snapshot', header: 'Snapshot' },
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
