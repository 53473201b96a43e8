import {
  approveSchema,
  confirmEmailSchema,
  idParamSchema,
  messageSchema,
  registerSchema,
  registrationListSchema,
  registrationQuerySchema,
  registrationRequestSchema,
  rejectSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { permissionGuard, requireAuth, requireTenant } from '../../platform/auth/context.ts';
import type { RegistrationService } from './registration-service.ts';

/** SPEC 7 /iotapp/registration-requests/: the public sign-up and e-mail confirmation, and the admins' approval list. */
export function registrationRoutes(
  app: FastifyInstance,
  opts: { registrations: RegistrationService; publicUrl: string | undefined; rateLimit: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { registrations } = opts;
  const tags = ['registration'];
  const publicLimited = { access: { public: true }, rateLimit: { max: opts.rateLimit, timeWindow: '1 minute' } };
  const originOf = (request: FastifyRequest) => opts.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  r.post(
    '/iotapp/registration-requests/register/',
    { config: publicLimited, schema: { tags, body: registerSchema, response: { 201: messageSchema } } },
    async (request, reply) =>
      reply.status(201).send(await registrations.register(request, requireTenant(request).id, request.body, originOf(request))),
  );
  r.post(
    '/iotapp/registration-requests/confirm/',
    { config: publicLimited, schema: { tags, body: confirmEmailSchema, response: { 200: messageSchema } } },
    async (request) => registrations.confirm(request, requireTenant(request).id, request.body.token),
  );
  r.get(
    '/iotapp/registration-requests/',
    { schema: { tags, querystring: registrationQuerySchema, response: { 200: registrationListSchema } } },
    async (request) => registrations.list(requireAuth(request), request.query),
  );
  r.get(
    '/iotapp/registration-requests/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: registrationRequestSchema } } },
    async (request) => registrations.detail(requireAuth(request), request.params.id),
  );
  r.post(
    '/iotapp/registration-requests/:id/approve/',
    {
      preHandler: permissionGuard('add_user'),
      schema: { tags, params: idParamSchema, body: approveSchema, response: { 200: registrationRequestSchema } },
    },
    async (request) => registrations.approve(request, requireAuth(request), request.params.id, request.body),
  );
  r.post(
    '/iotapp/registration-requests/:id/reject/',
    {
      preHandler: permissionGuard('add_user'),
      schema: { tags, params: idParamSchema, body: rejectSchema, response: { 200: registrationRequestSchema } },
    },
    async (request) => registrations.reject(request, requireAuth(request), request.params.id, request.body.reason),
  );
}
