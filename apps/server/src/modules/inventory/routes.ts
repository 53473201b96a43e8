import {
  categoryListSchema,
  INVENTORY_PERMISSIONS,
  idParamSchema,
  inventoryUserSchema,
  itemDetailSchema,
  itemInputSchema,
  itemListSchema,
  itemQuerySchema,
  itemSchema,
  itemUpdateSchema,
  movementInputSchema,
  movementListSchema,
  movementQuerySchema,
  movementResultSchema,
  replacementInputSchema,
  replacementResultSchema,
  stockListSchema,
  stockQuerySchema,
  storeInputSchema,
  storeListSchema,
  storeSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { can } from './access.ts';
import type { MoveService } from './moves.ts';
import type { CatalogService } from './service.ts';

const tags = ['inventory'];
const storeQuerySchema = z.object({
  search: z.string().trim().max(100, 'Please use maximum 100 characters').optional(),
  page: z.coerce.number().int().min(1).max(2_147_483_647).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** /inventory-management's calls: stores, items, stock on hand, the movement ledger and device replacements. */
export function inventoryRoutes(app: FastifyInstance, deps: { catalog: CatalogService; moves: MoveService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { catalog, moves } = deps;
  // receiving needs add, writing off delete, the other movements change: one who holds none of them may make none
  const movers = accessGuard(async (request) => {
    const actor = requireAuth(request);
    if (!can(actor, 'add') && !can(actor, 'change') && !can(actor, 'delete')) throw forbidden();
  });

  r.get(
    '/iotapp/inventory/stores/',
    { schema: { tags, querystring: storeQuerySchema, response: { 200: storeListSchema } } },
    async (request) => catalog.listStores(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/inventory/stores/',
    { preHandler: permissionGuard('add_inventory'), schema: { tags, body: storeInputSchema, response: { 201: storeSchema } } },
    async (request, reply) => reply.status(201).send(await catalog.createStore(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/iotapp/inventory/stores/:id/', { schema: { tags, params: idParamSchema, response: { 200: storeSchema } } }, async (request) =>
    catalog.getStore(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/inventory/stores/:id/',
    {
      preHandler: permissionGuard('change_inventory'),
      schema: { tags, params: idParamSchema, body: storeInputSchema, response: { 200: storeSchema } },
    },
    async (request) => catalog.updateStore(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/inventory/stores/:id/',
    { preHandler: permissionGuard('delete_inventory'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await catalog.deleteStore(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.get(
    '/iotapp/inventory/store-managers/',
    { schema: { tags, response: { 200: z.object({ contents: z.array(inventoryUserSchema) }) } } },
    async (request) => catalog.storeManagers(requireAuth(request)),
  );

  r.get(
    '/iotapp/inventory/items/',
    { schema: { tags, querystring: itemQuerySchema, response: { 200: itemListSchema } } },
    async (request) => catalog.listItems(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/inventory/items/',
    { preHandler: permissionGuard('add_inventory'), schema: { tags, body: itemInputSchema, response: { 201: itemSchema } } },
    async (request, reply) => reply.status(201).send(await catalog.createItem(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/iotapp/inventory/items/:id/', { schema: { tags, params: idParamSchema, response: { 200: itemDetailSchema } } }, async (request) =>
    catalog.getItem(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/inventory/items/:id/',
    {
      preHandler: permissionGuard('change_inventory'),
      schema: { tags, params: idParamSchema, body: itemUpdateSchema, response: { 200: itemSchema } },
    },
    async (request) => catalog.updateItem(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/inventory/items/:id/',
    { preHandler: permissionGuard('delete_inventory'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await catalog.deleteItem(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.get('/iotapp/inventory/categories/', { schema: { tags, response: { 200: categoryListSchema } } }, async (request) =>
    catalog.categories(requireAuth(request)),
  );

  r.get(
    '/iotapp/inventory/stock/',
    { schema: { tags, querystring: stockQuerySchema, response: { 200: stockListSchema } } },
    async (request) => catalog.stock(requireAuth(request), request.query),
  );
  r.get(
    '/iotapp/inventory/movements/',
    { schema: { tags, querystring: movementQuerySchema, response: { 200: movementListSchema } } },
    async (request) => catalog.movements(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/inventory/movements/',
    { preHandler: movers, schema: { tags, body: movementInputSchema, response: { 201: movementResultSchema } } },
    async (request, reply) => reply.status(201).send(await moves.move(requireAuth(request), request.body, originOf(request))),
  );
  r.post(
    '/iotapp/inventory/replacements/',
    {
      preHandler: permissionGuard(INVENTORY_PERMISSIONS.change),
      schema: { tags, body: replacementInputSchema, response: { 201: replacementResultSchema } },
    },
    async (request, reply) => reply.status(201).send(await moves.replace(requireAuth(request), request.body, originOf(request))),
  );
}
