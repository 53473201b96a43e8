import type { EntitiesQueryCount, EntityKind, KeyFilter, KeyPredicate } from '@sitewatch/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { badRequest } from '../../platform/errors.ts';
import { assetVisible, countVisibleSites, likeEscape, SITE_FIELDS, siteNameOf, type Viewer } from '../sites/scope.ts';

/**
 * POST /iotapp/entities-query-count/: the ThingsBoard entity count query (entity filter + key filters) translated
 * to one `select count(*)` in PostgreSQL. Keys map to columns, metadata attributes or stored state; every value
 * is a bound parameter and every key name is checked against a pattern, so the query text is never built from input.
 */

type Sql = RawBuilder<unknown>;

/** The three typed views of a key: as text, as a number (null when it is not one), as a boolean. */
interface KeyExpr {
  text: Sql;
  num: Sql;
  bool: Sql;
}

const NUMBER_PATTERN = '^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$';
const fromText = (text: Sql): KeyExpr => ({
  text,
  num: sql`(case when ${text} ~ ${NUMBER_PATTERN} then (${text})::numeric end)`,
  bool: sql`(case lower(${text}) when 'true' then true when 'false' then false end)`,
});
const native = (text: Sql, num: Sql, bool: Sql = sql`null::boolean`): KeyExpr => ({ text, num, bool });
const epochMs = (column: Sql) => sql`(extract(epoch from ${column}) * 1000)`;

const DEVICE_FIELDS: Record<string, KeyExpr> = {
  name: fromText(sql`d.name`),
  label: fromText(sql`d.label`),
  type: fromText(sql`d.type`),
  status: fromText(sql`d.status`),
  alarmStatus: fromText(sql`d.alarm_status`),
  createdTime: native(sql`d.created_at::text`, epochMs(sql`d.created_at`)),
  lastActivityTime: native(sql`d.last_activity_at::text`, epochMs(sql`d.last_activity_at`)),
  assetId: native(sql`d.asset_id::text`, sql`d.asset_id::numeric`),
  parentId: native(sql`d.parent_id::text`, sql`d.parent_id::numeric`),
  isParent: native(sql`d.is_parent::text`, sql`null::numeric`, sql`d.is_parent`),
  siteName: fromText(siteNameOf('d.asset_id')),
};

const ASSET_FIELDS: Record<string, KeyExpr> = {
  name: fromText(SITE_FIELDS.name),
  label: fromText(SITE_FIELDS.name),
  type: fromText(sql`'SITE'::text`),
  createdTime: native(sql`${SITE_FIELDS.createdAt}::text`, epochMs(SITE_FIELDS.createdAt)),
  customerId: native(sql`${SITE_FIELDS.customerId}::text`, sql`${SITE_FIELDS.customerId}::numeric`),
  assetCode: fromText(SITE_FIELDS.metadata('assetCode')),
  merchantId: fromText(SITE_FIELDS.metadata('merchantId')),
};

function keyExpr(kind: EntityKind, filter: KeyFilter): KeyExpr {
  const { type, key } = filter.key;
  if (type === 'ENTITY_FIELD') {
    const field = (kind === 'DEVICE' ? DEVICE_FIELDS : ASSET_FIELDS)[key];
    if (!field) throw badRequest(`query.keyFilters: Unknown ${kind === 'DEVICE' ? 'device' : 'asset'} field "${key}"`);
    return field;
  }
  if (type === 'TIME_SERIES') {
    return kind === 'DEVICE' ? fromText(sql`(d.state->>${key})`) : fromText(sql`null::text`);
  }
  // Attributes: "active" is the connectivity attribute ThingsBoard keeps; the rest live in metadata.
  if (kind === 'DEVICE' && key === 'active')
    return native(sql`(d.status = 'Online')::text`, sql`null::numeric`, sql`(d.status = 'Online')`);
  return fromText(kind === 'DEVICE' ? sql`(d.metadata->>${key})` : SITE_FIELDS.metadata(key));
}

function predicateSql(expr: KeyExpr, p: KeyPredicate): Sql {
  switch (p.type) {
    case 'STRING': {
      const value = p.value.defaultValue;
      const lower = p.ignoreCase === true;
      const t = lower ? sql`lower(${expr.text})` : expr.text;
      const v = lower ? value.toLowerCase() : value;
      const like = lower ? sql`ilike` : sql`like`;
      switch (p.operation) {
        case 'EQUAL':
          return sql`${t} = ${v}`;
        case 'NOT_EQUAL':
          return sql`${t} is distinct from ${v}`;
        case 'STARTS_WITH':
          return sql`${expr.text} ${like} ${`${likeEscape(value)}%`}`;
        case 'ENDS_WITH':
          return sql`${expr.text} ${like} ${`%${likeEscape(value)}`}`;
        case 'CONTAINS':
          return sql`${expr.text} ${like} ${`%${likeEscape(value)}%`}`;
        case 'NOT_CONTAINS':
          return sql`coalesce(${expr.text}, '') not ${like} ${`%${likeEscape(value)}%`}`;
        case 'IN':
        case 'NOT_IN': {
          const list = v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          return p.operation === 'IN' ? sql`${t} = any(${list}::text[])` : sql`not (coalesce(${t}, '') = any(${list}::text[]))`;
        }
      }
      break;
    }
    case 'NUMERIC': {
      const v = p.value.defaultValue;
      const ops = { EQUAL: '=', NOT_EQUAL: '<>', GREATER: '>', LESS: '<', GREATER_OR_EQUAL: '>=', LESS_OR_EQUAL: '<=' } as const;
      return sql`${expr.num} ${sql.raw(ops[p.operation])} ${v}::numeric`;
    }
    case 'BOOLEAN': {
      const v = p.value.defaultValue;
      return p.operation === 'EQUAL' ? sql`${expr.bool} = ${v}::boolean` : sql`${expr.bool} is distinct from ${v}::boolean`;
    }
    case 'COMPLEX': {
      const parts = p.predicates.map((inner) => predicateSql(expr, inner));
      return sql`(${sql.join(parts, p.operation === 'AND' ? sql` and ` : sql` or `)})`;
    }
  }
  throw badRequest('query.keyFilters: Unsupported predicate');
}

const idOf = (kind: EntityKind) => (kind === 'DEVICE' ? sql`d.id` : SITE_FIELDS.id);

/** Counts matching entities of one kind, with extra conditions from the entity filter. */
async function countKind(db: Db, viewer: Viewer, kind: EntityKind, conditions: Sql[], keyFilters: KeyFilter[]) {
  const where: Sql[] = [...conditions];
  for (const filter of keyFilters) where.push(sql`(${predicateSql(keyExpr(kind, filter), filter.predicate)}) is true`);
  const body =
    kind === 'DEVICE'
      ? sql`select count(*)::int as n from devices d where d.tenant_id = ${viewer.tenantId} and not d.discovered
          and ${assetVisible(viewer, 'd.asset_id')} ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}`
      : countVisibleSites(viewer, where);
  const result = await sql<{ n: number }>`${body}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

export async function countEntities(db: Db, viewer: Viewer, body: EntitiesQueryCount): Promise<number> {
  const { entityFilter: f, keyFilters } = body.query;
  switch (f.type) {
    case 'deviceType': {
      const types = f.deviceTypes ?? (f.deviceType ? [f.deviceType] : []);
      const conditions: Sql[] = [];
      if (types.length) conditions.push(sql`d.type = any(${types}::text[])`);
      if (f.deviceNameFilter) conditions.push(sql`d.name like ${`${likeEscape(f.deviceNameFilter)}%`}`);
      return countKind(db, viewer, 'DEVICE', conditions, keyFilters);
    }
    case 'assetType': {
      if (f.assetTypes?.length && !f.assetTypes.some((t) => t.toUpperCase() === 'SITE')) return 0;
      const conditions: Sql[] = [];
      if (f.assetNameFilter) conditions.push(sql`${SITE_FIELDS.name} like ${`${likeEscape(f.assetNameFilter)}%`}`);
      return countKind(db, viewer, 'ASSET', conditions, keyFilters);
    }
    case 'entityList': {
      return countKind(db, viewer, f.entityType, [sql`${idOf(f.entityType)} = any(${f.entityList}::int[])`], keyFilters);
    }
    case 'singleEntity': {
      return countKind(db, viewer, f.singleEntity.entityType, [sql`${idOf(f.singleEntity.entityType)} = ${f.singleEntity.id}`], keyFilters);
    }
    case 'relationsQuery': {
      const root = f.rootEntity;
      const relation = f.relationType ? sql`and m.relation_type = ${f.relationType}` : sql``;
      let total = 0;
      for (const kind of ['DEVICE', 'ASSET'] as const) {
        const mapped =
          f.direction === 'FROM'
            ? sql`select m.to_id from entity_mappings m where m.tenant_id = ${viewer.tenantId} and m.from_type = ${root.entityType}
                and m.from_id = ${root.id} and m.to_type = ${kind} ${relation}`
            : sql`select m.from_id from entity_mappings m where m.tenant_id = ${viewer.tenantId} and m.to_type = ${root.entityType}
                and m.to_id = ${root.id} and m.from_type = ${kind} ${relation}`;
        total += await countKind(db, viewer, kind, [sql`${idOf(kind)} in (${mapped})`], keyFilters);
      }
      return total;
    }
  }
}
