import {
  USER_IMPORT_LIMITS,
  userImportBodySchema,
  userImportPreviewSchema,
  userImportQuerySchema,
  userImportResultSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { UserImportService } from './import-service.ts';

/** The file's text as JSON: room for 1 MB of content with its JSON escapes; the service checks the content's size. */
const bodyLimit = 4 * USER_IMPORT_LIMITS.fileBytes;

/** /iotapp/users/import/: the preview of a CSV of users, then the creation of its valid rows, a chunk per call. */
export function userImportRoutes(app: FastifyInstance, opts: { imports: UserImportService; originOf(request: FastifyRequest): string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];
  r.post(
    '/iotapp/users/import/preview/',
    {
      preHandler: permissionGuard('add_user'),
      bodyLimit,
      schema: { tags, body: userImportBodySchema, response: { 200: userImportPreviewSchema } },
    },
    async (request) => opts.imports.preview(requireAuth(request), request.body.content),
  );
  r.post(
    '/iotapp/users/import/',
    {
      preHandler: permissionGuard('add_user'),
      bodyLimit,
      schema: { tags, querystring: userImportQuerySchema, body: userImportBodySchema, response: { 200: userImportResultSchema } },
    },
    async (request) => opts.imports.run(request, requireAuth(request), request.body.content, request.query, opts.originOf(request)),
  );
}
