import { clusterIdParamSchema, clusterInputSchema, clusterListQuerySchema, clusterListSchema, clusterSchema } from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { ClusterService } from './service.ts';

/** /iotapp/clusters/: the clusters of /cluster-view. */
export function clusterRoutes(app: FastifyInstance, deps: { clusters: ClusterService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { clusters } = deps;
  const tags = ['clusters'];
  r.get(
    '/iotapp/clusters/',
    { schema: { tags, querystring: clusterListQuerySchema, response: { 200: clusterListSchema } } },
    async (request) => clusters.list(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/clusters/',
    { preHandler: permissionGuard('add_cluster'), schema: { tags, body: clusterInputSchema, response: { 201: clusterSchema } } },
    async (request, reply) => reply.status(201).send(await clusters.create(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/iotapp/clusters/:id/', { schema: { tags, params: clusterIdParamSchema, response: { 200: clusterSchema } } }, async (request) =>
    clusters.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/clusters/:id/',
    {
      preHandler: permissionGuard('change_cluster'),
      schema: { tags, params: clusterIdParamSchema, body: clusterInputSchema, response: { 200: clusterSchema } },
    },
    async (request) => clusters.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/clusters/:id/',
    { preHandler: permissionGuard('delete_cluster'), schema: { tags, params: clusterIdParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await clusters.remove(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
}
