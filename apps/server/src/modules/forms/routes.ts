import multipart from '@fastify/multipart';
import {
  attachmentUidParamSchema,
  FORM_LIMITS,
  FORM_MESSAGES,
  formAttachmentListSchema,
  formDraftSaveSchema,
  formDraftSchema,
  formResponseCreateSchema,
  formResponseListQuerySchema,
  formResponseListSchema,
  formResponseParamSchema,
  formResponseSchema,
  formResponseViewSchema,
  formTemplateInputSchema,
  formTemplateListSchema,
  formTemplateQuerySchema,
  formTemplateSchema,
  formVersionListSchema,
  formVersionParamSchema,
  INT4_MAX,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { objectGuard, permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import { readFiles } from '../../platform/uploads.ts';
import type { ResponseService } from './response-service.ts';
import type { TemplateService } from './template-service.ts';

const tags = ['forms'];
const T = '/ifmapp/dynamic-form-templates';
/** PUT takes the whole template; `version` (the one read) refuses a save over someone else's. */
const templateUpdateSchema = formTemplateInputSchema.extend({ version: z.number().int().positive().max(INT4_MAX).optional() });

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name. */
const contentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export async function formRoutes(app: FastifyInstance, deps: { templates: TemplateService; responses: ResponseService }) {
  await app.register(multipart, { limits: { fileSize: FORM_LIMITS.attachmentBytes, files: 10, fields: 5, parts: 15 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { templates, responses } = deps;
  const visibleTemplate = objectGuard(idParamSchema, (_request, { id }, auth) => templates.get(auth, id));

  // GET by name answers the one template (SPEC 7); without a name, the list (by bound view or search).
  r.get(
    `${T}/`,
    { schema: { tags, querystring: formTemplateQuerySchema, response: { 200: z.union([formTemplateSchema, formTemplateListSchema]) } } },
    async (request) => {
      const auth = requireAuth(request);
      if (request.query.name !== undefined) return templates.byName(auth, request.query.name);
      return templates.list(auth, request.query);
    },
  );
  r.post(
    `${T}/`,
    {
      preHandler: permissionGuard('change_form_template'),
      schema: { tags, body: formTemplateInputSchema, response: { 201: formTemplateSchema } },
    },
    async (request, reply) => reply.status(201).send(await templates.create(requireAuth(request), request.body, originOf(request))),
  );
  r.get(`${T}/:id/`, { schema: { tags, params: idParamSchema, response: { 200: formTemplateSchema } } }, async (request) =>
    templates.get(requireAuth(request), request.params.id),
  );
  r.put(
    `${T}/:id/`,
    {
      preHandler: permissionGuard('change_form_template'),
      schema: { tags, params: idParamSchema, body: templateUpdateSchema, response: { 200: formTemplateSchema } },
    },
    async (request) => {
      const { version, ...input } = request.body;
      return templates.update(requireAuth(request), request.params.id, input, originOf(request), version);
    },
  );
  r.delete(
    `${T}/:id/`,
    { preHandler: permissionGuard('change_form_template'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await templates.remove(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.get(`${T}/:id/versions/`, { schema: { tags, params: idParamSchema, response: { 200: formVersionListSchema } } }, async (request) =>
    templates.versions(requireAuth(request), request.params.id),
  );
  r.get(
    `${T}/:id/versions/:version/`,
    { schema: { tags, params: formVersionParamSchema, response: { 200: formTemplateSchema } } },
    async (request) => templates.atVersion(requireAuth(request), request.params.id, request.params.version),
  );
  r.post(
    `${T}/:id/versions/:version/restore/`,
    {
      preHandler: permissionGuard('change_form_template'),
      schema: { tags, params: formVersionParamSchema, response: { 200: formTemplateSchema } },
    },
    async (request) => templates.restore(requireAuth(request), request.params.id, request.params.version, originOf(request)),
  );

  r.get(
    `${T}/:id/responses/`,
    { schema: { tags, params: idParamSchema, querystring: formResponseListQuerySchema, response: { 200: formResponseListSchema } } },
    async (request) => responses.list(requireAuth(request), request.params.id, request.query),
  );
  r.get(
    `${T}/:id/responses/:responseId/`,
    { schema: { tags, params: formResponseParamSchema, response: { 200: formResponseViewSchema } } },
    async (request) => responses.view(requireAuth(request), request.params.id, request.params.responseId),
  );

  r.get(`${T}/:id/draft/`, { schema: { tags, params: idParamSchema, response: { 200: formDraftSchema } } }, async (request) =>
    responses.draft(requireAuth(request), request.params.id),
  );
  r.put(
    `${T}/:id/draft/`,
    { preHandler: visibleTemplate, schema: { tags, params: idParamSchema, body: formDraftSaveSchema, response: { 200: formDraftSchema } } },
    async (request) => responses.saveDraft(requireAuth(request), request.params.id, request.body.data),
  );
  r.delete(`${T}/:id/draft/`, { schema: { tags, params: idParamSchema, response: { 204: z.null() } } }, async (request, reply) => {
    await responses.deleteDraft(requireAuth(request), request.params.id);
    return reply.status(204).send(null);
  });

  r.post(
    '/ifmapp/dynamic-forms-attachments/',
    { schema: { tags, consumes: ['multipart/form-data'], response: { 201: formAttachmentListSchema } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const files = await readFiles(request, FORM_LIMITS.attachmentBytes, 10, FORM_MESSAGES.attachmentTooLarge);
      return reply.status(201).send(await responses.upload(auth, files));
    },
  );
  r.get('/ifmapp/dynamic-forms-attachments/:uid/', { schema: { tags, params: attachmentUidParamSchema } }, async (request, reply) => {
    const file = await responses.attachmentFile(requireAuth(request), request.params.uid);
    return reply
      .header('content-type', file.type)
      .header('content-length', file.size)
      .header('content-disposition', contentDisposition(file.name))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });

  r.post(
    '/ifmapp/dynamic-forms/',
    { schema: { tags, body: formResponseCreateSchema, response: { 201: formResponseSchema } } },
    async (request, reply) => reply.status(201).send(await responses.submit(requireAuth(request), request.body, originOf(request))),
  );
}
