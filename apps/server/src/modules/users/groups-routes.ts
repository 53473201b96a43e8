import {
  administratorRightsRestoredSchema,
  groupAssignResultSchema,
  groupAssignSchema,
  groupInputSchema,
  groupMembersSchema,
  idParamSchema,
  permissionCatalogueSchema,
  permissionGroupListSchema,
  permissionGroupSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionGuard, requireAuth, roleGuard } from '../../platform/auth/context.ts';
import type { GroupService } from './groups-service.ts';

/** The /permissions/ screen's calls: the permission catalogue, groups, and assigning a group to users. */
export function groupRoutes(app: FastifyInstance, opts: { groups: GroupService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { groups } = opts;
  const tags = ['permissions'];

  r.get('/iotapp/permissions/', { schema: { tags, response: { 200: permissionCatalogueSchema } } }, async (request) => {
    requireAuth(request);
    return groups.catalogue();
  });
  r.get('/iotapp/permission-groups/', { schema: { tags, response: { 200: permissionGroupListSchema } } }, async (request) =>
    groups.list(requireAuth(request)),
  );
  r.post(
    '/iotapp/permission-groups/',
    { preHandler: permissionGuard('add_group'), schema: { tags, body: groupInputSchema, response: { 201: permissionGroupSchema } } },
    async (request, reply) => reply.status(201).send(await groups.create(request, requireAuth(request), request.body)),
  );
  r.put(
    '/iotapp/permission-groups/:id/',
    {
      preHandler: permissionGuard('change_group'),
      schema: { tags, params: idParamSchema, body: groupInputSchema, response: { 200: permissionGroupSchema } },
    },
    async (request) => groups.update(request, requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    '/iotapp/permission-groups/:id/',
    { preHandler: permissionGuard('delete_group'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await groups.remove(request, requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  r.get(
    '/iotapp/permission-groups/:id/users/',
    { schema: { tags, params: idParamSchema, response: { 200: groupMembersSchema } } },
    async (request) => groups.members(requireAuth(request), request.params.id),
  );
  r.post(
    '/iotapp/permission-groups/:id/users/',
    {
      preHandler: [permissionGuard('change_group'), permissionGuard('change_user')],
      schema: { tags, params: idParamSchema, body: groupAssignSchema, response: { 200: groupAssignResultSchema } },
    },
    async (request) => groups.assign(request, requireAuth(request), request.params.id, request.body.userIds),
  );
  // The system administrator's screen (/app-admin): gives the administrators' groups every right again.
  r.post(
    '/api/admin/administrator-rights/restore/',
    { preHandler: roleGuard('sysadmin'), schema: { tags, response: { 200: administratorRightsRestoredSchema } } },
    async (request) => groups.restoreAdministratorRights(request, requireAuth(request)),
  );
}
