import {
  devicePermissionUpdateSchema,
  groupPermissionsListSchema,
  groupPermissionsSchema,
  idParamSchema,
  ROLES_SEEING_ALL_SITES,
  userAssetAssignResultSchema,
  userAssetAssignSchema,
  userAssetListSchema,
  userAssetQuerySchema,
  userAssetRemoveResultSchema,
  userAssetRemoveSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasRole, requireAuth, roleGuard } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { UserService } from './service.ts';

export function userRoutes(app: FastifyInstance, opts: { users: UserService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = opts;
  const tags = ['users'];
  const siteAdmins = roleGuard(...ROLES_SEEING_ALL_SITES);
  const groupAdmins = roleGuard('sysadmin', 'customeradmin');

  // The user list and one user's record are served by user administration (admin-routes.ts).
  // A user reads their own sites; administrators read and change anyone's.
  r.get(
    '/iotapp/user-assets/',
    { schema: { tags, querystring: userAssetQuerySchema, response: { 200: userAssetListSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      if (request.query.userId !== auth.userId && !hasRole(auth, ...ROLES_SEEING_ALL_SITES)) throw forbidden();
      return users.userAssets(auth.tenantId, request.query);
    },
  );
  r.post(
    '/iotapp/user-assets/',
    { preHandler: siteAdmins, schema: { tags, body: userAssetAssignSchema, response: { 200: userAssetAssignResultSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      return users.assign(request, auth.tenantId, request.body, auth.userId);
    },
  );
  r.post(
    '/iotapp/user-assets/remove/',
    { preHandler: siteAdmins, schema: { tags, body: userAssetRemoveSchema, response: { 200: userAssetRemoveResultSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      return users.unassign(request, auth.tenantId, request.body, auth.userId);
    },
  );
  r.delete(
    '/iotapp/user-assets/:id/',
    { preHandler: siteAdmins, schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      await users.removeLink(request, auth.tenantId, request.params.id, auth.userId);
      return reply.status(204).send(null);
    },
  );

  // Device permissions per group (the /device-permission screen).
  r.get('/iotapp/groups/', { preHandler: groupAdmins, schema: { tags, response: { 200: groupPermissionsListSchema } } }, async (request) =>
    users.groups(requireAuth(request).tenantId),
  );
  r.put(
    '/iotapp/groups/:id/device-permissions/',
    {
      preHandler: groupAdmins,
      schema: { tags, params: idParamSchema, body: devicePermissionUpdateSchema, response: { 200: groupPermissionsSchema } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return users.setDevicePermissions(request, auth.tenantId, auth.userId, request.params.id, request.body.codenames);
    },
  );
}
