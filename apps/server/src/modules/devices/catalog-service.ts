import {
  DEVICE_MESSAGES,
  type DeviceTemplate,
  type DeviceType,
  type deviceTemplateInputSchema,
  type deviceTemplateUpdateSchema,
  type EntityKind,
  type EntityMapping,
  RELATION_ENDS,
  type RelationType,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, changedFields, masked, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { isoOf, type Viewer } from '../sites/scope.ts';
import type { SiteService } from '../sites/service.ts';
import * as repo from './catalog-repository.ts';

type TemplateInput = z.output<typeof deviceTemplateInputSchema>;
type TemplatePatch = z.output<typeof deviceTemplateUpdateSchema>;

const toTemplate = (row: repo.TemplateRow): DeviceTemplate => ({
  id: row.id,
  name: row.name,
  type: row.type as DeviceType,
  vendor: row.vendor,
  model: row.model,
  description: row.description,
  telemetry: row.telemetry,
  attributes: row.attributes,
  deviceCount: row.device_count,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** A template's fields as its activity log entries show them. */
const templateRecord = (v: repo.TemplateValues) =>
  masked({
    name: v.name,
    type: v.type,
    vendor: v.vendor,
    model: v.model,
    description: v.description,
    telemetry: v.telemetry,
    attributes: v.attributes,
  } as Record<string, unknown>);

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Device templates (per type and vendor) and entity mappings between sites and devices. */
export function createCatalogService(db: Db, sites: Pick<SiteService, 'visibleSite'>) {
  /** A mapping's end the viewer may see, with its device type (null for a site). */
  async function visibleEntity(viewer: Viewer, kind: string, id: number) {
    if (kind === 'DEVICE') return repo.visibleDevice(db, viewer, id);
    return (await sites.visibleSite(viewer, id)) ? { id, type: null } : undefined;
  }

  async function template(tenantId: number, id: number) {
    const row = await repo.findTemplate(db, tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  async function unique<T>(work: () => Promise<T>, message: string) {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(message, 'exists');
      throw error;
    }
  }

  return {
    async listTemplates(tenantId: number, q: Parameters<typeof repo.listTemplates>[2]) {
      const { rows, total } = await repo.listTemplates(db, tenantId, q);
      return { contents: rows.map(toTemplate), totalCount: total };
    },
    getTemplate: async (tenantId: number, id: number) => toTemplate(await template(tenantId, id)),
    async createTemplate(tenantId: number, input: TemplateInput, origin: AuditOrigin | null) {
      const values: repo.TemplateValues = { ...input, model: input.model ?? null, description: input.description ?? null };
      const { id } = await unique(
        () =>
          db.transaction().execute(async (trx) => {
            const created = await repo.insertTemplate(trx, tenantId, values);
            if (origin) {
              const object = { type: 'device-template', id: created.id };
              await writeActivity(trx, origin, { action: 'device-template.create', object, after: templateRecord(values) });
            }
            return created;
          }),
        DEVICE_MESSAGES.templateExists,
      );
      return toTemplate(await template(tenantId, id));
    },
    async updateTemplate(tenantId: number, id: number, patch: TemplatePatch, origin: AuditOrigin | null) {
      const current = await template(tenantId, id);
      if (patch.type && patch.type !== current.type && current.device_count > 0) {
        throw badRequest('type: The template is used by devices; its type cannot change');
      }
      const next: repo.TemplateValues = {
        name: patch.name ?? current.name,
        type: patch.type ?? current.type,
        vendor: patch.vendor ?? current.vendor,
        model: patch.model !== undefined ? patch.model : current.model,
        description: patch.description !== undefined ? patch.description : current.description,
        telemetry: patch.telemetry ?? current.telemetry,
        attributes: patch.attributes ?? current.attributes,
      };
      await unique(
        () =>
          db.transaction().execute(async (trx) => {
            await repo.updateTemplate(trx, tenantId, id, next);
            if (origin) {
              const change = changedFields(templateRecord(current), templateRecord(next));
              await writeActivity(trx, origin, { action: 'device-template.update', object: { type: 'device-template', id }, ...change });
            }
          }),
        DEVICE_MESSAGES.templateExists,
      );
      return toTemplate(await template(tenantId, id));
    },
    async deleteTemplate(tenantId: number, id: number, origin: AuditOrigin | null) {
      const current = await template(tenantId, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteTemplate(trx, tenantId, id))) throw notFound();
        if (origin)
          await writeActivity(trx, origin, {
            action: 'device-template.delete',
            object: { type: 'device-template', id },
            before: templateRecord(current),
          });
      });
    },

    async listMappings(viewer: Viewer, q: Parameters<typeof repo.listMappings>[2]) {
      const { rows, total } = await repo.listMappings(db, viewer, q);
      const contents: EntityMapping[] = rows.map((r) => ({
        id: r.id,
        relationType: r.relation_type as RelationType,
        fromType: r.from_type as EntityKind,
        fromEntity: r.from_entity as NonNullable<typeof r.from_entity>,
        toType: r.to_type as EntityKind,
        toEntity: r.to_entity as NonNullable<typeof r.to_entity>,
        createdAt: isoOf(r.created_at),
      }));
      return { contents, totalCount: total };
    },

    async createMapping(
      viewer: Viewer,
      input: { relationType: RelationType; fromType: EntityKind; fromEntity: number; toType: EntityKind; toEntity: number },
      origin: AuditOrigin | null,
    ) {
      const ends = RELATION_ENDS[input.relationType];
      if (!ends.from.includes(input.fromType) || ends.to !== input.toType) {
        throw badRequest(`relationType: ${input.relationType} maps ${ends.from.join(' or ')} to ${ends.to}`);
      }
      if (input.fromType === input.toType && input.fromEntity === input.toEntity)
        throw badRequest('toEntity: An entity cannot map to itself');
      const from = await visibleEntity(viewer, input.fromType, input.fromEntity);
      if (!from) throw badRequest('fromEntity: Unknown entity');
      const to = await visibleEntity(viewer, input.toType, input.toEntity);
      if (!to) throw badRequest('toEntity: Unknown entity');
      if (ends.toDeviceType && to.type !== ends.toDeviceType) throw badRequest('toEntity: A camera mapping must end at a camera');
      const { id } = await unique(
        () =>
          db.transaction().execute(async (trx) => {
            const created = await repo.insertMapping(trx, viewer.tenantId, {
              relationType: input.relationType,
              fromType: input.fromType,
              fromId: input.fromEntity,
              toType: input.toType,
              toId: input.toEntity,
              userId: viewer.userId,
            });
            if (origin) {
              const object = { type: 'entity-mapping', id: created.id };
              await writeActivity(trx, origin, { action: 'entity-mapping.create', object, after: { ...input } });
            }
            return created;
          }),
        DEVICE_MESSAGES.mappingExists,
      );
      const { rows } = await repo.listMappings(db, viewer, {
        page: 1,
        limit: 1,
        fromType: input.fromType,
        fromEntity: input.fromEntity,
        toType: input.toType,
        toEntity: input.toEntity,
        relationType: input.relationType,
      });
      const row = rows.find((r) => r.id === id);
      if (!row) throw notFound();
      return {
        id: row.id,
        relationType: row.relation_type as RelationType,
        fromType: row.from_type as EntityKind,
        fromEntity: row.from_entity as NonNullable<typeof row.from_entity>,
        toType: row.to_type as EntityKind,
        toEntity: row.to_entity as NonNullable<typeof row.to_entity>,
        createdAt: isoOf(row.created_at),
      };
    },

    async deleteMapping(viewer: Viewer, id: number, origin: AuditOrigin | null) {
      const mapping = await repo.findMapping(db, viewer.tenantId, id);
      if (!mapping) throw notFound();
      const from = await visibleEntity(viewer, mapping.from_type, mapping.from_id);
      const to = await visibleEntity(viewer, mapping.to_type, mapping.to_id);
      if (!from || !to) throw notFound();
      await db.transaction().execute(async (trx) => {
        await repo.deleteMapping(trx, viewer.tenantId, id);
        if (origin) {
          const before = {
            relationType: mapping.relation_type,
            fromType: mapping.from_type,
            fromEntity: mapping.from_id,
            toType: mapping.to_type,
            toEntity: mapping.to_id,
          };
          await writeActivity(trx, origin, { action: 'entity-mapping.delete', object: { type: 'entity-mapping', id }, before });
        }
      });
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
