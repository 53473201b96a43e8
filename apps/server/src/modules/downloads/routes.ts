import {
  downloadJobSchema,
  downloadListQuerySchema,
  downloadListSchema,
  exportCreateSchema,
  exportKindSchema,
  exportSourceListSchema,
  jobIdParamSchema,
  markDownloadedSchema,
  taskFileParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessGuard, objectGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { DownloadService } from './service.ts';

/** Which list a job belongs to, for kinds other domains provide (camera clips); exports when absent. */
const kindQuerySchema = z.strictObject({ kind: exportKindSchema.optional() });

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name. */
const contentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export function downloadRoutes(app: FastifyInstance, opts: { downloads: DownloadService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { downloads } = opts;
  const tags = ['downloads'];
  const ownJob = objectGuard(jobIdParamSchema, async (request, { jobId }, auth) => {
    const query = kindQuerySchema.safeParse(request.query);
    if (query.success) await downloads.ownJobOf(auth, jobId, query.data.kind);
  });
  // which export a caller may start depends on its kind; one who may start none is refused before the body is read
  const exporters = accessGuard(async (request) => {
    if (downloads.sources(requireAuth(request)).length === 0) throw forbidden();
  });

  r.get(
    '/api/batch-playback-download/',
    { schema: { tags, querystring: downloadListQuerySchema, response: { 200: downloadListSchema } } },
    async (request) => downloads.list(requireAuth(request), request.query.limit),
  );
  r.put(
    '/api/batch-playback-download/:jobId/',
    {
      preHandler: ownJob,
      schema: {
        tags,
        params: jobIdParamSchema,
        querystring: kindQuerySchema,
        body: markDownloadedSchema,
        response: { 200: downloadJobSchema },
      },
    },
    async (request) => downloads.markDownloaded(requireAuth(request), request.params.jobId, request.body.tid, request.query.kind),
  );
  r.delete(
    '/api/batch-playback-download/:jobId/',
    { schema: { tags, params: jobIdParamSchema, querystring: kindQuerySchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await downloads.remove(requireAuth(request), request.params.jobId, request.query.kind);
      return reply.status(204).send(null);
    },
  );
  r.get('/api/batch-playback-download/:jobId/files/:tid/', { schema: { tags, params: taskFileParamSchema } }, async (request, reply) => {
    const file = await downloads.file(requireAuth(request), request.params.jobId, request.params.tid);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('content-disposition', contentDisposition(file.name))
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });

  r.get('/api/exports/sources/', { schema: { tags, response: { 200: exportSourceListSchema } } }, async (request) => ({
    contents: downloads.sources(requireAuth(request)),
  }));
  r.post(
    '/api/exports/',
    { preHandler: exporters, schema: { tags, body: exportCreateSchema, response: { 201: downloadJobSchema } } },
    async (request, reply) => {
      const job = await downloads.startExport(requireAuth(request), request.body);
      return reply.status(201).send(job);
    },
  );
}
