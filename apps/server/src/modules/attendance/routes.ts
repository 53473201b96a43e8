import {
  attendanceCheckInSchema,
  attendanceCheckOutSchema,
  attendanceCurrentSchema,
  attendanceHoursQuerySchema,
  attendanceHoursSchema,
  attendanceListQuerySchema,
  attendanceListSchema,
  attendanceRecordSchema,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { AttendanceService } from './service.ts';

/** Check-in and check-out from a phone, and the attendance-management screen's reads. */
export function attendanceRoutes(app: FastifyInstance, opts: { attendance: AttendanceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { attendance } = opts;
  const tags = ['attendance'];

  r.get('/api/attendance/current/', { schema: { tags, response: { 200: attendanceCurrentSchema } } }, async (request) =>
    attendance.current(requireAuth(request)),
  );
  r.post(
    '/api/attendance/check-in/',
    {
      preHandler: permissionGuard('add_attendance'),
      schema: { tags, body: attendanceCheckInSchema, response: { 201: attendanceRecordSchema } },
    },
    async (request, reply) => reply.status(201).send(await attendance.checkIn(requireAuth(request), request.body, originOf(request))),
  );
  r.post(
    '/api/attendance/check-out/',
    {
      preHandler: permissionGuard('add_attendance'),
      schema: { tags, body: attendanceCheckOutSchema, response: { 200: attendanceRecordSchema } },
    },
    async (request) => attendance.checkOut(requireAuth(request), request.body, originOf(request)),
  );
  r.get(
    '/api/attendance/',
    { schema: { tags, querystring: attendanceListQuerySchema, response: { 200: attendanceListSchema } } },
    async (request) => attendance.list(requireAuth(request), request.query),
  );
  r.get(
    '/api/attendance/hours/',
    { schema: { tags, querystring: attendanceHoursQuerySchema, response: { 200: attendanceHoursSchema } } },
    async (request) => attendance.hours(requireAuth(request), request.query),
  );
  r.get('/api/attendance/:id/', { schema: { tags, params: idParamSchema, response: { 200: attendanceRecordSchema } } }, async (request) => {
    const auth = requireAuth(request);
    return attendance.present(auth.tenantId, await attendance.get(auth, request.params.id));
  });
  r.get('/api/attendance/:id/snapshot/', { schema: { tags, params: idParamSchema } }, async (request, reply) => {
    const blob = await attendance.snapshot(requireAuth(request), request.params.id);
    reply.header('content-type', 'image/jpeg').header('content-length', String(blob.size)).header('cache-control', 'private, max-age=3600');
    return reply.send(blob.stream);
  });
}
