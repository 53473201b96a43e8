import {
  consumptionReportQuerySchema,
  consumptionReportSchema,
  movementReportQuerySchema,
  movementReportSchema,
  PR_STATES,
  prReportQuerySchema,
  prReportSchema,
  reportScheduleIdSchema,
  reportScheduleInputSchema,
  reportScheduleListSchema,
  reportScheduleQuerySchema,
  reportScheduleSchema,
  stockReportQuerySchema,
  stockReportSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { InventoryReports } from '../inventory/index.ts';
import type { PurchaseRequestService } from '../purchase-requests/index.ts';
import type { ReportScheduleService } from './service.ts';

const tags = ['reports'];
const pageOf = (q: { page: number; limit: number }) => ({ offset: (q.page - 1) * q.limit, limit: q.limit });

/** /inventory-report and /pr-report tables, and the schedules of any report. */
export function reportRoutes(
  app: FastifyInstance,
  deps: { inventory: InventoryReports; requests: PurchaseRequestService; schedules: ReportScheduleService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { inventory, requests, schedules } = deps;
  const schedulers = accessGuard(async (request) => {
    if (!schedules.mayScheduleAny(requireAuth(request))) throw forbidden();
  });

  r.get(
    '/iotapp/reports/inventory/stock/',
    { schema: { tags, querystring: stockReportQuerySchema, response: { 200: stockReportSchema } } },
    async (request) => inventory.stock(requireAuth(request), request.query, pageOf(request.query)),
  );
  r.get(
    '/iotapp/reports/inventory/movements/',
    { schema: { tags, querystring: movementReportQuerySchema, response: { 200: movementReportSchema } } },
    async (request) => inventory.movements(requireAuth(request), request.query, pageOf(request.query)),
  );
  r.get(
    '/iotapp/reports/inventory/consumption/',
    { schema: { tags, querystring: consumptionReportQuerySchema, response: { 200: consumptionReportSchema } } },
    async (request) => inventory.consumption(requireAuth(request), request.query, pageOf(request.query)),
  );
  r.get(
    '/iotapp/reports/purchase-requests/',
    { schema: { tags, querystring: prReportQuerySchema, response: { 200: prReportSchema } } },
    async (request) => {
      const q = request.query;
      const result = await requests.report(requireAuth(request), q);
      const groups =
        q.groupBy === 'state' ? PR_STATES.map((s) => result.groups.find((g) => g.key === s)).filter((g) => g !== undefined) : result.groups;
      return {
        contents: result.rows.map((p) => ({
          id: p.id,
          number: p.number,
          title: p.title,
          state: p.state,
          source: p.source,
          storeName: p.store.name,
          siteName: p.site?.name ?? null,
          ticketId: p.ticket?.ticketId ?? null,
          requester: p.requester?.name ?? '',
          createdAt: p.createdAt,
          total: p.total,
        })),
        totalCount: result.totalCount,
        groups,
        grandTotal: Math.round(groups.reduce((n, g) => n + g.total, 0) * 100) / 100,
      };
    },
  );

  r.get(
    '/iotapp/report-schedules/',
    { schema: { tags, querystring: reportScheduleQuerySchema, response: { 200: reportScheduleListSchema } } },
    async (request) => schedules.list(requireAuth(request), request.query.kind),
  );
  r.post(
    '/iotapp/report-schedules/',
    { preHandler: schedulers, schema: { tags, body: reportScheduleInputSchema, response: { 201: reportScheduleSchema } } },
    async (request, reply) => reply.status(201).send(await schedules.create(requireAuth(request), request.body, originOf(request))),
  );
  r.delete(
    '/iotapp/report-schedules/:id/',
    { schema: { tags, params: reportScheduleIdSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await schedules.remove(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
}
