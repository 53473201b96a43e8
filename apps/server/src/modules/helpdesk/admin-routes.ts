import multipart from '@fastify/multipart';
import {
  assigneeListSchema,
  assigneeQuerySchema,
  bulkImportListSchema,
  bulkImportSchema,
  dashboardQuerySchema,
  dashboardSchema,
  escalationPolicyInputSchema,
  escalationPolicyListSchema,
  escalationPolicyQuerySchema,
  escalationPolicySchema,
  helpdeskConfigSchema,
  helpdeskConfigUpdateSchema,
  IMPORT_LIMITS,
  idParamSchema,
  importQuerySchema,
  importResultSchema,
  issueTypeInputSchema,
  issueTypeListSchema,
  issueTypeQuerySchema,
  issueTypeSchema,
  pageQuerySchema,
  prefsQuerySchema,
  prefsResponseSchema,
  prefsUpdateSchema,
  reportQuerySchema,
  reportSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, requireAuth } from '../../platform/auth/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { readFiles } from '../../platform/uploads.ts';
import { isAdmin } from './access.ts';
import type { AdminService } from './admin-service.ts';
import { type ImportService, mayImport } from './import-service.ts';
import type { ReportService } from './report-service.ts';

const tags = ['helpdesk'];

export async function adminRoutes(app: FastifyInstance, deps: { admin: AdminService; reports: ReportService; imports: ImportService }) {
  await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.fileBytes, files: 1, fields: 5, parts: 10 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin, reports, imports } = deps;
  // the helpdesk's settings are the administrators' (the service checks the same)
  const admins = accessGuard(async (request) => {
    if (!isAdmin(requireAuth(request))) throw forbidden();
  });
  const importers = accessGuard(async (request) => {
    if (!mayImport(requireAuth(request))) throw forbidden();
  });

  r.get('/helpdesk/config/', { schema: { tags, response: { 200: helpdeskConfigSchema } } }, async (request) =>
    admin.config(requireAuth(request).tenantId),
  );
  r.put(
    '/helpdesk/config/',
    { preHandler: admins, schema: { tags, body: helpdeskConfigUpdateSchema, response: { 200: helpdeskConfigSchema } } },
    async (request) => admin.updateConfig(requireAuth(request), request.body, originOf(request)),
  );
  r.get(
    '/helpdesk/preferences/',
    { schema: { tags, querystring: prefsQuerySchema, response: { 200: prefsResponseSchema } } },
    async (request) => admin.prefs(requireAuth(request), request.query.type),
  );
  r.put('/helpdesk/preferences/', { schema: { tags, body: prefsUpdateSchema, response: { 200: prefsResponseSchema } } }, async (request) =>
    admin.savePrefs(requireAuth(request), request.body),
  );
  r.get(
    '/helpdesk/assignees/',
    { schema: { tags, querystring: assigneeQuerySchema, response: { 200: assigneeListSchema } } },
    async (request) => admin.assignees(requireAuth(request).tenantId, request.query),
  );

  r.get(
    '/helpdesk/issue-types/',
    { schema: { tags, querystring: issueTypeQuerySchema, response: { 200: issueTypeListSchema } } },
    async (request) => admin.listIssueTypes(requireAuth(request).tenantId, request.query),
  );
  r.post(
    '/helpdesk/issue-types/',
    { preHandler: admins, schema: { tags, body: issueTypeInputSchema, response: { 201: issueTypeSchema } } },
    async (request, reply) => reply.status(201).send(await admin.createIssueType(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/helpdesk/issue-types/:id/', { schema: { tags, params: idParamSchema, response: { 200: issueTypeSchema } } }, async (request) =>
    admin.getIssueType(requireAuth(request).tenantId, request.params.id),
  );
  r.put(
    '/helpdesk/issue-types/:id/',
    { preHandler: admins, schema: { tags, params: idParamSchema, body: issueTypeInputSchema, response: { 200: issueTypeSchema } } },
    async (request) => admin.updateIssueType(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/helpdesk/issue-types/:id/',
    { preHandler: admins, schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await admin.deleteIssueType(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/helpdesk/escalation-policies/',
    { schema: { tags, querystring: escalationPolicyQuerySchema, response: { 200: escalationPolicyListSchema } } },
    async (request) => admin.listPolicies(requireAuth(request).tenantId, request.query),
  );
  r.post(
    '/helpdesk/escalation-policies/',
    { preHandler: admins, schema: { tags, body: escalationPolicyInputSchema, response: { 201: escalationPolicySchema } } },
    async (request, reply) => reply.status(201).send(await admin.savePolicy(requireAuth(request), null, request.body, originOf(request))),
  );
  r.get(
    '/helpdesk/escalation-policies/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: escalationPolicySchema } } },
    async (request) => admin.getPolicy(requireAuth(request).tenantId, request.params.id),
  );
  r.put(
    '/helpdesk/escalation-policies/:id/',
    {
      preHandler: admins,
      schema: { tags, params: idParamSchema, body: escalationPolicyInputSchema, response: { 200: escalationPolicySchema } },
    },
    async (request) => admin.savePolicy(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/helpdesk/escalation-policies/:id/',
    { preHandler: admins, schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await admin.deletePolicy(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/helpdesk/dashboard/',
    { schema: { tags, querystring: dashboardQuerySchema, response: { 200: dashboardSchema } } },
    async (request) => reports.dashboard(requireAuth(request), request.query),
  );
  r.get('/helpdesk/reports/', { schema: { tags, querystring: reportQuerySchema, response: { 200: reportSchema } } }, async (request) => {
    const { kind, ...filter } = request.query;
    return reports.report(requireAuth(request), kind, filter);
  });

  r.post(
    '/helpdesk/tickets/import/',
    {
      preHandler: importers,
      schema: { tags, querystring: importQuerySchema, consumes: ['multipart/form-data'], response: { 200: importResultSchema } },
    },
    async (request) => {
      const [file] = await readFiles(request, IMPORT_LIMITS.fileBytes, 1, 'The file is larger than 10 MB');
      if (!file) throw badRequest('Choose a CSV file');
      return imports.interactive(requireAuth(request), file, request.query.dryRun);
    },
  );
  r.post(
    '/helpdesk/imports/',
    { preHandler: importers, schema: { tags, consumes: ['multipart/form-data'], response: { 202: bulkImportSchema } } },
    async (request, reply) => {
      const [file] = await readFiles(request, IMPORT_LIMITS.fileBytes, 1, 'The file is larger than 10 MB');
      if (!file) throw badRequest('Choose a CSV file');
      return reply.status(202).send(await imports.startBulk(requireAuth(request), file));
    },
  );
  r.get(
    '/helpdesk/imports/',
    { preHandler: importers, schema: { tags, querystring: pageQuerySchema, response: { 200: bulkImportListSchema } } },
    async (request) => imports.listBulk(requireAuth(request), request.query),
  );
  r.get('/helpdesk/imports/:id/', { schema: { tags, params: idParamSchema, response: { 200: bulkImportSchema } } }, async (request) =>
    imports.getBulk(requireAuth(request), request.params.id),
  );
}
