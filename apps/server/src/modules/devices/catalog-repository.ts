import type { TemplateTelemetry } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { assetVisible, contains, siteEntityOf, type Viewer } from '../sites/scope.ts';

/** SQL of device templates and entity mappings. */

export interface TemplateValues {
  name: string;
  type: string;
  vendor: string;
  model: string | null;
  description: string | null;
  telemetry: TemplateTelemetry[];
  attributes: Record<string, string | number | boolean | null>;
}

const TEMPLATE_ORDER = {
  updatedAt: sql`t.updated_at`,
  createdAt: sql`t.created_at`,
  vendor: sql`lower(t.vendor)`,
  type: sql`t.type`,
  name: sql`lower(t.name)`,
} as const;

const templateColumns = (db: Db) =>
  db
    .selectFrom('device_templates as t')
    .select([
      't.id',
      't.name',
      't.type',
      't.vendor',
      't.model',
      't.description',
      't.telemetry',
      't.attributes',
      't.created_at',
      't.updated_at',
      sql<number>`(select count(*) from devices d where d.template_id = t.id)::int`.as('device_count'),
    ]);
export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

export async function listTemplates(
  db: Db,
  tenantId: number,
  q: { type?: string; vendor?: string; searchText?: string; orderBy: string; page: number; limit: number },
) {
  const where = [sql`t.tenant_id = ${tenantId}`];
  if (q.type) where.push(sql`t.type = ${q.type}`);
  if (q.vendor) where.push(sql`lower(t.vendor) = lower(${q.vendor})`);
  if (q.searchText) {
    const p = contains(q.searchText);
    where.push(sql`(t.name ilike ${p} or t.vendor ilike ${p} or t.model ilike ${p})`);
  }
  const condition = sql<boolean>`${sql.join(where, sql` and `)}`;
  const key = q.orderBy.replace('-', '') as keyof typeof TEMPLATE_ORDER;
  const [rows, total] = await Promise.all([
    templateColumns(db)
      .where(condition)
      .orderBy(TEMPLATE_ORDER[key], q.orderBy.startsWith('-') ? 'desc' : 'asc')
      .orderBy('t.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    db.selectFrom('device_templates as t').where(condition).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export const findTemplate = (db: Db, tenantId: number, id: number) =>
  templateColumns(db).where('t.tenant_id', '=', tenantId).where('t.id', '=', id).executeTakeFirst();

export const insertTemplate = (db: Db, tenantId: number, v: TemplateValues) =>
  db
    .insertInto('device_templates')
    .values({ tenant_id: tenantId, ...v, telemetry: JSON.stringify(v.telemetry), attributes: JSON.stringify(v.attributes) })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateTemplate = (db: Db, tenantId: number, id: number, v: TemplateValues) =>
  db
    .updateTable('device_templates')
    .set({ ...v, telemetry: JSON.stringify(v.telemetry), attributes: JSON.stringify(v.attributes), updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const deleteTemplate = (db: Db, tenantId: number, id: number) =>
  db
    .deleteFrom('device_templates')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows) > 0);

/* ------------------------------------------------------------------ entity mappings */

/** Name, label and type of an entity end, null when the viewer may not see it. */
const endColumns = (side: 'from' | 'to', viewer: Viewer) => {
  const idCol = sql.ref(`m.${side}_id`);
  const typeCol = sql.ref(`m.${side}_type`);
  return sql<{ id: number; name: string; label: string; type: string | null } | null>`case ${typeCol}
    when 'DEVICE' then (select json_build_object('id', d.id, 'name', d.name, 'label', d.label, 'type', d.type) from devices d
      where d.id = ${idCol} and d.tenant_id = m.tenant_id and ${assetVisible(viewer, 'd.asset_id')})
    else ${siteEntityOf(viewer, `m.${side}_id`)} end`;
};

export async function listMappings(
  db: Db,
  viewer: Viewer,
  q: { fromType?: string; fromEntity?: number; toType?: string; toEntity?: number; relationType?: string; page: number; limit: number },
) {
  const where = [sql`m.tenant_id = ${viewer.tenantId}`];
  if (q.fromType) where.push(sql`m.from_type = ${q.fromType}`);
  if (q.fromEntity) where.push(sql`m.from_id = ${q.fromEntity}`);
  if (q.toType) where.push(sql`m.to_type = ${q.toType}`);
  if (q.toEntity) where.push(sql`m.to_id = ${q.toEntity}`);
  if (q.relationType) where.push(sql`m.relation_type = ${q.relationType}`);
  const condition = sql.join(where, sql` and `);
  // A mapping is listed when the viewer sees both of its ends.
  const rows = await sql<{
    id: number;
    relation_type: string;
    from_type: string;
    to_type: string;
    from_entity: { id: number; name: string; label: string; type: string | null } | null;
    to_entity: { id: number; name: string; label: string; type: string | null } | null;
    created_at: Date;
    total: number;
  }>`
    select * from (
      select m.id, m.relation_type, m.from_type, m.to_type, ${endColumns('from', viewer)} as from_entity,
        ${endColumns('to', viewer)} as to_entity, m.created_at
      from entity_mappings m where ${condition}
    ) x
    where x.from_entity is not null and x.to_entity is not null
    order by x.id
    limit ${q.limit} offset ${(q.page - 1) * q.limit}`.execute(db);
  const total = await sql<{ n: number }>`
    select count(*)::int as n from (
      select ${endColumns('from', viewer)} as f, ${endColumns('to', viewer)} as t from entity_mappings m where ${condition}
    ) x where x.f is not null and x.t is not null`.execute(db);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

export const findMapping = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('entity_mappings').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const insertMapping = (
  db: Db,
  tenantId: number,
  m: { relationType: string; fromType: string; fromId: number; toType: string; toId: number; userId: number },
) =>
  db
    .insertInto('entity_mappings')
    .values({
      tenant_id: tenantId,
      relation_type: m.relationType,
      from_type: m.fromType,
      from_id: m.fromId,
      to_type: m.toType,
      to_id: m.toId,
      created_by: m.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const deleteMapping = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('entity_mappings').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

/** A device the viewer may see, with its type (a mapping's device end). */
export const visibleDevice = (db: Db, viewer: Viewer, id: number) =>
  db
    .selectFrom('devices')
    .select(['id', 'type'])
    .where('tenant_id', '=', viewer.tenantId)
    .where('id', '=', id)
    .where(assetVisible(viewer, 'asset_id'))
    .executeTakeFirst();
