import multipart from '@fastify/multipart';
import {
  ATTENDANCE_MESSAGES,
  ATTENDANCE_PHOTO_LIMITS,
  attendanceCheckInSchema,
  attendanceCheckOutSchema,
  attendanceCurrentSchema,
  attendanceHoursQuerySchema,
  attendanceHoursSchema,
  attendanceListQuerySchema,
  attendanceListSchema,
  attendancePhotoListSchema,
  attendanceRecordSchema,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import { readFiles } from '../../platform/uploads.ts';
import type { AttendanceService } from './service.ts';

/** Check-in and check-out from a phone, and the attendance-management screen's reads. */
export async function attendanceRoutes(app: FastifyInstance, opts: { attendance: AttendanceService }) {
  await app.register(multipart, { limits: { fileSize: ATTENDANCE_PHOTO_LIMITS.bytes, files: 1, fields: 2, parts: 3 } });
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
  r.get('/api/attendance/:id/photo/', { schema: { tags, params: idParamSchema } }, async (request, reply) => {
    const photo = await attendance.photo(requireAuth(request), request.params.id);
    return reply
      .header('content-type', photo.type)
      .header('content-length', String(photo.size))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600')
      .send(photo.stream);
  });
  r.post(
    '/api/attendance/photos/',
    {
      preHandler: permissionGuard('add_attendance'),
      schema: { tags, consumes: ['multipart/form-data'], response: { 201: attendancePhotoListSchema } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const files = await readFiles(request, ATTENDANCE_PHOTO_LIMITS.bytes, 1, ATTENDANCE_MESSAGES.photoTooLarge);
      return reply.status(201).send(await attendance.uploadPhoto(auth, files));
    },
  );
}
