import type { FormActions, FormMetadata } from '@sitewatch/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Repository functions take the database or a transaction first and the tenant second. */
type Q = Kysely<Database>;

export interface TemplateContent {
  name: string;
  label: string;
  description: string;
  icon: string;
  views: string[];
  metadata: FormMetadata;
  actions: FormActions;
  hideCancel: boolean;
}

const templateColumns = [
  'id',
  'name',
  'label',
  'description',
  'icon',
  'views',
  'metadata',
  'actions',
  'hide_cancel',
  'version',
  'response_count',
  'created_at',
  'updated_at',
] as const;

const templateBase = (db: Q, tenantId: number) => db.selectFrom('form_templates').select(templateColumns).where('tenant_id', '=', tenantId);
export type TemplateRow = NonNullable<Awaited<ReturnType<typeof templateById>>>;

export const templateById = (db: Q, tenantId: number, id: number) => templateBase(db, tenantId).where('id', '=', id).executeTakeFirst();

export const templateByName = (db: Q, tenantId: number, name: string) =>
  templateBase(db, tenantId).where(sql<string>`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();

export async function listTemplates(db: Q, tenantId: number, filter: { view?: string; search?: string }) {
  let q = templateBase(db, tenantId);
  if (filter.view !== undefined) q = q.where(sql<boolean>`views @> array[${filter.view}]::text[]`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('label', 'ilike', like), eb('name', 'ilike', like)]));
  }
  return q.orderBy('label').orderBy('id').limit(500).execute();
}

const json = (v: unknown) => JSON.stringify(v);

export async function insertTemplate(db: Q, tenantId: number, content: TemplateContent, userId: number) {
  const row = await db
    .insertInto('form_templates')
    .values({
      tenant_id: tenantId,
      name: content.name,
      label: content.label,
      description: content.description,
      icon: content.icon,
      views: content.views,
      metadata: json(content.metadata),
      actions: json(content.actions),
      hide_cancel: content.hideCancel,
      created_by: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertVersion(db, tenantId, row.id, 1, content, userId);
  return row.id;
}

async function insertVersion(
  db: Q,
  tenantId: number,
  templateId: number,
  version: number,
  content: TemplateContent,
  userId: number | null,
) {
  await db
    .insertInto('form_template_versions')
    .values({
      tenant_id: tenantId,
      template_id: templateId,
      version,
      label: content.label,
      description: content.description,
      icon: content.icon,
      views: content.views,
      metadata: json(content.metadata),
      actions: json(content.actions),
      hide_cancel: content.hideCancel,
      created_by: userId,
    })
    .execute();
}

/** Saves the content as the next version; null when the template changed since `expectedVersion` was read. */
export async function updateTemplate(
  db: Q,
  tenantId: number,
  id: number,
  content: TemplateContent,
  userId: number,
  expectedVersion?: number,
) {
  let q = db
    .updateTable('form_templates')
    .set({
      name: content.name,
      label: content.label,
      description: content.description,
      icon: content.icon,
      views: content.views,
      metadata: json(content.metadata),
      actions: json(content.actions),
      hide_cancel: content.hideCancel,
      version: sql`version + 1`,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id);
  if (expectedVersion !== undefined) q = q.where('version', '=', expectedVersion);
  const row = await q.returning('version').executeTakeFirst();
  if (!row) return null;
  await insertVersion(db, tenantId, id, row.version, content, userId);
  return row.version;
}

export const deleteTemplate = (db: Q, tenantId: number, id: number) =>
  db.deleteFrom('form_templates').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const listVersions = (db: Q, tenantId: number, templateId: number) =>
  db
    .selectFrom('form_template_versions as v')
    .select([
      'v.version',
      'v.label',
      'v.created_at',
      'v.created_by',
      sql<number>`(select count(*) from jsonb_object_keys(v.metadata->'schema'->'properties'))::int`.as('field_count'),
    ])
    .where('v.tenant_id', '=', tenantId)
    .where('v.template_id', '=', templateId)
    .orderBy('v.version', 'desc')
    .execute();

export const versionOf = (db: Q, tenantId: number, templateId: number, version: number) =>
  db
    .selectFrom('form_template_versions')
    .select(['version', 'label', 'description', 'icon', 'views', 'metadata', 'actions', 'hide_cancel', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst();

/**
 * Older versions that have a field besides `keys` (the current template's), newest first, for an export's columns: a
 * template saved a hundred times without new fields costs nothing.
 */
export const versionsWithOtherFields = (db: Q, tenantId: number, templateId: number, below: number, keys: string[]) =>
  db
    .selectFrom('form_template_versions as v')
    .select(['v.version', 'v.metadata'])
    .where('v.tenant_id', '=', tenantId)
    .where('v.template_id', '=', templateId)
    .where('v.version', '<', below)
    .where(sql<boolean>`(v.metadata->'schema'->'properties') - array[${sql.join(keys.length ? keys : [''])}]::text[] <> '{}'::jsonb`)
    .orderBy('v.version', 'desc')
    .execute();

/** The layouts of some versions of a template (to read the responses filled against them). */
export const versionsMetadata = (db: Q, tenantId: number, templateId: number, versions: number[]) =>
  versions.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('form_template_versions')
        .select(['version', 'metadata'])
        .where('tenant_id', '=', tenantId)
        .where('template_id', '=', templateId)
        .where('version', 'in', versions)
        .execute();

// Attachments

export const insertAttachment = (
  db: Q,
  tenantId: number,
  a: { userId: number; name: string; size: number; type: string; blobKey: string; uid: string },
) =>
  db
    .insertInto('form_attachments')
    .values({ uid: a.uid, tenant_id: tenantId, user_id: a.userId, name: a.name, size: a.size, type: a.type, blob_key: a.blobKey })
    .returning(['uid', 'name', 'size', 'type'])
    .executeTakeFirstOrThrow();

/** The caller's own uploads not yet part of a response. */
export const unclaimedAttachments = (db: Q, tenantId: number, userId: number, uids: string[]) =>
  uids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('form_attachments')
        .select(['uid', 'name', 'size', 'type'])
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('response_id', 'is', null)
        .where('uid', 'in', uids)
        .execute();

export const claimAttachments = (db: Q, tenantId: number, uids: string[], responseId: number) =>
  uids.length === 0
    ? Promise.resolve()
    : db
        .updateTable('form_attachments')
        .set({ response_id: responseId })
        .where('tenant_id', '=', tenantId)
        .where('uid', 'in', uids)
        .execute();

export const attachmentsOf = (db: Q, tenantId: number, responseIds: number[]) =>
  responseIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('form_attachments')
        .select(['uid', 'name', 'size', 'type', 'response_id'])
        .where('tenant_id', '=', tenantId)
        .where('response_id', 'in', responseIds)
        .orderBy('created_at')
        .execute();

export const attachmentByUid = (db: Q, tenantId: number, uid: string) =>
  db
    .selectFrom('form_attachments as a')
    .leftJoin('form_responses as r', (j) => j.onRef('r.id', '=', 'a.response_id').onRef('r.tenant_id', '=', 'a.tenant_id'))
    .select(['a.uid', 'a.name', 'a.size', 'a.type', 'a.blob_key', 'a.user_id', 'a.response_id', 'r.submitted_by'])
    .where('a.tenant_id', '=', tenantId)
    .where('a.uid', '=', uid)
    .executeTakeFirst();

/** Uploads of every tenant older than `before` that no response claimed (the cleanup job). */
export const staleAttachments = (db: Q, before: Date) =>
  db
    .selectFrom('form_attachments')
    .select(['uid', 'blob_key'])
    .where('response_id', 'is', null)
    .where('created_at', '<', before)
    .limit(1000)
    .execute();

export const deleteAttachments = (db: Q, uids: string[]) =>
  uids.length === 0
    ? Promise.resolve()
    : db.deleteFrom('form_attachments').where('uid', 'in', uids).where('response_id', 'is', null).execute();

// Responses

export async function insertResponse(
  db: Q,
  tenantId: number,
  r: { templateId: number; version: number; data: Record<string, unknown>; userId: number; createdAt: Date; performedAt: Date | null },
) {
  const row = await db
    .insertInto('form_responses')
    .values({
      tenant_id: tenantId,
      template_id: r.templateId,
      version: r.version,
      data: json(r.data),
      submitted_by: r.userId,
      created_at: r.createdAt,
      performed_at: r.performedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('form_templates')
    .set({ response_count: sql`response_count + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', r.templateId)
    .execute();
  return Number(row.id);
}

export const setResponseTickets = (db: Q, tenantId: number, id: number, ticketIds: number[]) =>
  db.updateTable('form_responses').set({ ticket_ids: ticketIds }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();

const responseBase = (db: Q, tenantId: number) =>
  db
    .selectFrom('form_responses as r')
    .select(['r.id', 'r.template_id', 'r.version', 'r.data', 'r.submitted_by', 'r.ticket_ids', 'r.created_at', 'r.performed_at'])
    .where('r.tenant_id', '=', tenantId);
export type ResponseRow = Awaited<ReturnType<typeof responseById>> & object;

export const responseById = (db: Q, tenantId: number, templateId: number, id: number) =>
  responseBase(db, tenantId).where('r.template_id', '=', templateId).where('r.id', '=', id).executeTakeFirst();

export interface ResponseFilter {
  from?: string;
  to?: string;
  submittedBy?: number;
  version?: number;
  search?: string;
  /** Only the responses of this user (callers who may not read others'). */
  onlyUser?: number;
}

/** The filter as one SQL condition on `r` (form_responses). */
function filterSql(templateId: number, filter: ResponseFilter) {
  const conds = [sql`r.template_id = ${templateId}`];
  if (filter.from) conds.push(sql`r.created_at >= ${new Date(filter.from)}`);
  if (filter.to) conds.push(sql`r.created_at < ${new Date(filter.to)}`);
  if (filter.submittedBy !== undefined) conds.push(sql`r.submitted_by = ${filter.submittedBy}`);
  if (filter.onlyUser !== undefined) conds.push(sql`r.submitted_by = ${filter.onlyUser}`);
  if (filter.version !== undefined) conds.push(sql`r.version = ${filter.version}`);
  if (filter.search) conds.push(sql`r.data::text ilike ${`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  return sql<boolean>`${sql.join(conds, sql` and `)}`;
}

/** Newest first, keyset on (created_at, id) so that every page costs the same at any depth. */
export async function listResponses(
  db: Q,
  tenantId: number,
  templateId: number,
  filter: ResponseFilter,
  after: { createdAt: string; id: number } | null,
  limit: number,
) {
  let q = responseBase(db, tenantId).where(filterSql(templateId, filter));
  if (after) q = q.where(sql<boolean>`(r.created_at, r.id) < (${new Date(after.createdAt)}::timestamptz, ${after.id}::bigint)`);
  return q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

export const COUNT_CAP = 10_000;

/** The stored counter without filters; with filters an exact count up to COUNT_CAP (a large list needs no exact number). */
export async function countResponses(db: Q, tenantId: number, templateId: number, filter: ResponseFilter) {
  const hasFilter = Object.values(filter).some((v) => v !== undefined && v !== '');
  if (!hasFilter) {
    const row = await db
      .selectFrom('form_templates')
      .select('response_count')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', templateId)
      .executeTakeFirst();
    return row?.response_count ?? 0;
  }
  const row = await db
    .selectFrom(
      db
        .selectFrom('form_responses as r')
        .select(sql`1`.as('one'))
        .where('r.tenant_id', '=', tenantId)
        .where(filterSql(templateId, filter))
        .limit(COUNT_CAP)
        .as('x'),
    )
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

// Drafts

export const draftOf = (db: Q, tenantId: number, templateId: number, userId: number) =>
  db
    .selectFrom('form_drafts')
    .select(['data', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('template_id', '=', templateId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const saveDraft = (db: Q, tenantId: number, templateId: number, userId: number, data: Record<string, unknown>) =>
  db
    .insertInto('form_drafts')
    .values({ tenant_id: tenantId, template_id: templateId, user_id: userId, data: json(data) })
    .onConflict((oc) => oc.columns(['tenant_id', 'template_id', 'user_id']).doUpdateSet({ data: json(data), updated_at: sql`now()` }))
    .returning(['data', 'updated_at'])
    .executeTakeFirstOrThrow();

export const deleteDraft = (db: Q, tenantId: number, templateId: number, userId: number) =>
  db
    .deleteFrom('form_drafts')
    .where('tenant_id', '=', tenantId)
    .where('template_id', '=', templateId)
    .where('user_id', '=', userId)
    .execute();
