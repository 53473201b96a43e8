import { readFile } from 'node:fs/promises';
import {
  analysisCameraSettingsBodySchema,
  analysisCameraSettingsSchema,
  analysisIdParamSchema,
  analysisQueueQuerySchema,
  analysisQueueSchema,
  analysisResultPageSchema,
  analysisResultQuerySchema,
  analysisResultSchema,
  analysisRunSchema,
  analysisSummaryQuerySchema,
  analysisSummarySchema,
  analysisVerdictSchema,
  cameraIdParamSchema,
  okSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, objectGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { AnalysisService } from './service.ts';

const tags = ['analysis'];
const emptyQuery = z.strictObject({});

async function sendImage(reply: FastifyReply, path: string) {
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    throw notFound('The picture is no longer available');
  }
  return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=300').send(body);
}

/** SPEC 2.2 /image-analysis, /result-verification and /result-analysis. */
export function analysisRoutes(
  app: FastifyInstance,
  deps: { analysis: AnalysisService; resolveTicket: (auth: ReturnType<typeof requireAuth>, ticketId: number) => Promise<void> },
) {
  const { analysis } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const verifiers = accessGuard(async (req) => {
    if (!analysis.canVerify(requireAuth(req))) throw forbidden();
  });
  const configurers = accessGuard(async (req) => {
    if (!analysis.canConfigure(requireAuth(req))) throw forbidden();
  });
  const result = objectGuard(analysisIdParamSchema, (_req, { id }, auth) => analysis.visibleResult(auth, id));
  const camera = objectGuard(cameraIdParamSchema, (_req, { camId }, auth) => analysis.visibleCamera(auth, camId));
  r.get(
    '/api/analysis/results/',
    { schema: { tags, querystring: analysisResultQuerySchema, response: { 200: analysisResultPageSchema } } },
    async (req) => analysis.list(requireAuth(req), req.query),
  );
  r.get(
    '/api/analysis/results/:id/frame/',
    { schema: { tags, params: analysisIdParamSchema, querystring: emptyQuery } },
    async (req, reply) => sendImage(reply, await analysis.frame(requireAuth(req), req.params.id)),
  );
  r.put(
    '/api/analysis/results/:id/verdict/',
    {
      preHandler: [verifiers, result],
      schema: { tags, params: analysisIdParamSchema, body: analysisVerdictSchema, response: { 200: analysisResultSchema } },
    },
    async (req) => {
      const auth = requireAuth(req);
      return analysis.verdict(auth, req.params.id, req.body, (ticketId) => deps.resolveTicket(auth, ticketId), originOf(req));
    },
  );
  r.get(
    '/api/analysis/queue/',
    { schema: { tags, querystring: analysisQueueQuerySchema, response: { 200: analysisQueueSchema } } },
    async (req) => analysis.queue(requireAuth(req), req.query.after),
  );
  r.get(
    '/api/analysis/summary/',
    { schema: { tags, querystring: analysisSummaryQuerySchema, response: { 200: analysisSummarySchema } } },
    async (req) => ({
      rows: await analysis.summary(requireAuth(req), req.query),
    }),
  );
  r.post(
    '/api/analysis/cameras/:camId/run/',
    { schema: { tags, params: cameraIdParamSchema, response: { 200: analysisRunSchema } } },
    async (req) => analysis.runNow(requireAuth(req), req.params.camId),
  );
  r.get(
    '/api/analysis/cameras/:camId/reference/',
    { schema: { tags, params: cameraIdParamSchema, querystring: emptyQuery } },
    async (req, reply) => sendImage(reply, await analysis.reference(requireAuth(req), req.params.camId)),
  );
  r.get(
    '/api/analysis/cameras/:camId/settings/',
    { schema: { tags, params: cameraIdParamSchema, querystring: emptyQuery, response: { 200: analysisCameraSettingsSchema } } },
    async (req) => analysis.cameraSettings(requireAuth(req), req.params.camId),
  );
  r.put(
    '/api/analysis/cameras/:camId/settings/',
    {
      preHandler: [configurers, camera],
      schema: {
        tags,
        params: cameraIdParamSchema,
        body: analysisCameraSettingsBodySchema,
        response: { 200: analysisCameraSettingsSchema },
      },
    },
    async (req) => analysis.saveCameraSettings(requireAuth(req), req.params.camId, req.body, originOf(req)),
  );
  r.delete(
    '/api/analysis/cameras/:camId/reference/',
    { schema: { tags, params: cameraIdParamSchema, response: { 200: okSchema } } },
    async (req) => analysis.resetReference(requireAuth(req), req.params.camId, originOf(req)),
  );
}
