import { createReadStream } from 'node:fs';
import {
  eventCamerasQuerySchema,
  eventCamerasSchema,
  videoEvidenceIdParamSchema,
  videoEvidenceListSchema,
  videoEvidenceQuerySchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/context.ts';
import type { TicketEvidence } from './ticket-evidence.ts';

/** The video evidence of a ticket: its cameras' clips around the alarm (or finding), and each clip's MP4. */
export function evidenceRoutes(app: FastifyInstance, evidence: TicketEvidence) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['video'];
  r.get(
    '/api/video-evidence/',
    { schema: { tags, querystring: videoEvidenceQuerySchema, response: { 200: videoEvidenceListSchema } } },
    async (req) => evidence.list(requireAuth(req), req.query.ticketId),
  );
  r.get(
    '/api/video-evidence/cameras/',
    { schema: { tags, querystring: eventCamerasQuerySchema, response: { 200: eventCamerasSchema } } },
    async (req) => evidence.camerasFor(requireAuth(req), req.query.deviceId),
  );
  r.get('/api/video-evidence/:id/clip/', { schema: { tags, params: videoEvidenceIdParamSchema } }, async (req, reply) => {
    const file = await evidence.clip(requireAuth(req), req.params.id);
    reply
      .header('content-type', 'video/mp4')
      .header('content-length', String(file.size))
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="${file.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
    return reply.send(createReadStream(file.path));
  });
}
