import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of what happens around a ticket: history, comments, attachments and attendance (user ids only, named by the service). */

export async function listHistory(db: Db, tenantId: number, ticketId: number, page: { offset: number; limit: number; ascending: boolean }) {
  const direction = page.ascending ? 'asc' : 'desc';
  // One round trip: the page and the total (a window count) together; an empty page past the end counts apart.
  const rows = await db
    .selectFrom('ticket_history as h')
    .select(['h.id', 'h.ticket_id', 'h.action', 'h.changes', 'h.note', 'h.created_at', 'h.performed_at', 'h.actor_id'])
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('h.ticket_id', '=', ticketId)
    .where('h.tenant_id', '=', tenantId)
    .orderBy('h.created_at', direction)
    .orderBy('h.id', direction)
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  if (rows.length > 0 || page.offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
  const total = await db
    .selectFrom('ticket_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ticket_id', '=', ticketId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}
export type HistoryRow = Awaited<ReturnType<typeof listHistory>>['rows'][number];

export async function listComments(
  db: Db,
  tenantId: number,
  ticketId: number,
  page: { offset: number; limit: number; ascending: boolean },
) {
  const direction = page.ascending ? 'asc' : 'desc';
  const [rows, total] = await Promise.all([
    db
      .selectFrom('ticket_comments as m')
      .select(['m.id', 'm.text', 'm.created_at', 'm.updated_at', 'm.performed_at', 'm.author_id'])
      .where('m.ticket_id', '=', ticketId)
      .where('m.tenant_id', '=', tenantId)
      .orderBy('m.updated_at', direction)
      .orderBy('m.id', direction)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('ticket_comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ticket_id', '=', ticketId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
export type CommentRow = Awaited<ReturnType<typeof listComments>>['rows'][number];

export const insertComment = (
  db: Db,
  values: { tenantId: number; ticketId: number; authorId: number; text: string; performedAt: Date | null },
) =>
  db
    .insertInto('ticket_comments')
    .values({
      tenant_id: values.tenantId,
      ticket_id: values.ticketId,
      author_id: values.authorId,
      text: values.text,
      performed_at: values.performedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const findComment = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('ticket_comments as m')
    .select(['m.id', 'm.text', 'm.created_at', 'm.updated_at', 'm.performed_at', 'm.author_id'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.id', '=', id)
    .executeTakeFirstOrThrow();

// Attachments ---------------------------------------------------------------------------------------------------

const attachmentSelect = (db: Db) =>
  db
    .selectFrom('ticket_attachments as f')
    .select(['f.id', 'f.ticket_id', 'f.name', 'f.blob_key', 'f.size', 'f.content_type', 'f.created_at', 'f.updated_at', 'f.uploaded_by']);
export type AttachmentRow = Awaited<ReturnType<ReturnType<typeof attachmentSelect>['executeTakeFirstOrThrow']>>;

export const listAttachments = (db: Db, tenantId: number, ticketId: number) =>
  attachmentSelect(db).where('f.tenant_id', '=', tenantId).where('f.ticket_id', '=', ticketId).orderBy('f.id').execute();

export const findAttachment = (db: Db, tenantId: number, ticketId: number, id: number) =>
  attachmentSelect(db).where('f.tenant_id', '=', tenantId).where('f.ticket_id', '=', ticketId).where('f.id', '=', id).executeTakeFirst();

export const insertAttachment = (
  db: Db,
  v: { tenantId: number; ticketId: number; name: string; blobKey: string; size: number; contentType: string; userId: number | null },
) =>
  db
    .insertInto('ticket_attachments')
    .values({
      tenant_id: v.tenantId,
      ticket_id: v.ticketId,
      name: v.name,
      blob_key: v.blobKey,
      size: v.size,
      content_type: v.contentType,
      uploaded_by: v.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const deleteAttachment = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('ticket_attachments').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

/** Keeps the ticket's attachment count and thumbnail (first image) in step with its attachments. */
export const refreshAttachmentSummary = (db: Db, tenantId: number, ticketId: number) =>
  db
    .updateTable('tickets')
    .set({
      attachment_count: sql`(select count(*) from ticket_attachments f where f.ticket_id = ${ticketId} and f.tenant_id = ${tenantId})`,
      thumbnail_id: sql`(select min(f.id) from ticket_attachments f where f.ticket_id = ${ticketId} and f.tenant_id = ${tenantId} and f.content_type like 'image/%')`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', ticketId)
    .execute();

// Attendance ----------------------------------------------------------------------------------------------------

export const listAttendance = (db: Db, tenantId: number, ticketId: number) =>
  db
    .selectFrom('ticket_attendance as d')
    .select(['d.id', 'd.note', 'd.latitude', 'd.longitude', 'd.created_at', 'd.user_id'])
    .where('d.tenant_id', '=', tenantId)
    .where('d.ticket_id', '=', ticketId)
    .orderBy('d.created_at', 'desc')
    .limit(100)
    .execute();
