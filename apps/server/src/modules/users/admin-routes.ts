import {
  adminUserSchema,
  avatarUploadSchema,
  grantableSchema,
  idParamSchema,
  mailOutboxSchema,
  messageSchema,
  passwordResetSchema,
  setPasswordSchema,
  userActiveSchema,
  userCreateSchema,
  userDetailsSchema,
  userInputSchema,
  userListQuerySchema,
  userListSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { objectGuard, permissionGuard, requireAuth, requireTenant } from '../../platform/auth/context.ts';
import type { UserAdminService } from './admin-service.ts';

/** SPEC 7 /iotapp/users/: listing, administration of one user, avatars and the public set-password link. */
export function userAdminRoutes(
  app: FastifyInstance,
  opts: { admin: UserAdminService; publicUrl: string | undefined; setPasswordRateLimit: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = opts;
  const avatarEditable = objectGuard(idParamSchema, (_request, { id }, auth) => admin.mayChangeAvatar(auth, id));
  const tags = ['users'];
  const originOf = (request: FastifyRequest) => opts.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  r.get('/iotapp/users/', { schema: { tags, querystring: userListQuerySchema, response: { 200: userListSchema } } }, async (request) =>
    admin.list(requireAuth(request), request.query),
  );
  r.get('/iotapp/users/grantable/', { schema: { tags, response: { 200: grantableSchema } } }, async (request) =>
    admin.grantable(requireAuth(request)),
  );
  r.post(
    '/iotapp/users/',
    { preHandler: permissionGuard('add_user'), schema: { tags, body: userCreateSchema, response: { 201: adminUserSchema } } },
    async (request, reply) => {
      const user = await admin.create(request, requireAuth(request), request.body, originOf(request));
      return reply.status(201).send(user);
    },
  );
  r.get('/iotapp/users/:id/', { schema: { tags, params: idParamSchema, response: { 200: adminUserSchema } } }, async (request) =>
    admin.detail(requireAuth(request), request.params.id),
  );
  r.get('/iotapp/users/:id/details/', { schema: { tags, params: idParamSchema, response: { 200: userDetailsSchema } } }, async (request) =>
    admin.details(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/users/:id/',
    {
      preHandler: permissionGuard('change_user'),
      schema: { tags, params: idParamSchema, body: userInputSchema, response: { 200: adminUserSchema } },
    },
    async (request) => admin.update(request, requireAuth(request), request.params.id, request.body),
  );
  r.put(
    '/iotapp/users/:id/active/',
    {
      preHandler: permissionGuard('change_user'),
      schema: { tags, params: idParamSchema, body: userActiveSchema, response: { 200: adminUserSchema } },
    },
    async (request) => admin.setActive(request, requireAuth(request), request.params.id, request.body.isActive),
  );
  r.delete(
    '/iotapp/users/:id/',
    { preHandler: permissionGuard('delete_user'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await admin.remove(request, requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  r.post(
    '/iotapp/users/:id/reset-password/',
    {
      preHandler: permissionGuard('change_user'),
      schema: { tags, params: idParamSchema, body: passwordResetSchema, response: { 200: messageSchema } },
    },
    async (request) => admin.resetPassword(request, requireAuth(request), request.params.id, request.body.password),
  );
  r.post(
    '/iotapp/users/:id/set-password-email/',
    { preHandler: permissionGuard('change_user'), schema: { tags, params: idParamSchema, response: { 200: messageSchema } } },
    async (request) => admin.sendSetPassword(request, requireAuth(request), request.params.id, originOf(request)),
  );
  r.put(
    '/iotapp/users/:id/avatar/',
    {
      preHandler: avatarEditable,
      bodyLimit: 2 * 1024 * 1024,
      schema: { tags, params: idParamSchema, body: avatarUploadSchema, response: { 200: adminUserSchema } },
    },
    async (request) => admin.setAvatar(request, requireAuth(request), request.params.id, request.body.image),
  );
  r.get('/iotapp/users/:id/avatar/', { schema: { tags, params: idParamSchema } }, async (request, reply) => {
    const { data, type } = await admin.avatar(requireAuth(request), request.params.id);
    return reply.header('content-type', type).header('cache-control', 'private, max-age=86400').send(data);
  });
  r.get('/iotapp/mail-outbox/', { schema: { tags, response: { 200: mailOutboxSchema } } }, async (request) =>
    admin.mailOutbox(requireAuth(request)),
  );
  r.post(
    '/iotapp/users/set-password/',
    {
      config: { access: { public: true }, rateLimit: { max: opts.setPasswordRateLimit, timeWindow: '1 minute' } },
      schema: { tags, body: setPasswordSchema, response: { 200: messageSchema } },
    },
    async (request) => admin.setPasswordWithToken(request, requireTenant(request).id, request.body.token, request.body.password),
  );
}
