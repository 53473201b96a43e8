import { randomUUID } from 'node:crypto';
import { HELPDESK_MESSAGES, TICKET_LIMITS, type TicketType } from '@sitewatch/contracts';
import type { Updateable } from 'kysely';
import type { AuditOrigin } from '../../platform/audit.ts';
import { type BlobStore, blobKey } from '../../platform/blobs.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import { sniffContentType } from '../../platform/sniff.ts';
import { type Actor, canChange, canEdit, canRate } from './access.ts';
import * as activity from './activity-repository.ts';
import { iso, toComment, toHistory } from './mapper.ts';
import type { StoredChange, TicketsTable } from './tables.ts';
import * as repo from './ticket-repository.ts';
import { isTerminal } from './ticket-rules.ts';
import { type HelpdeskDeps, staleVersion, type TicketService } from './ticket-service.ts';
import { withUserNames } from './user-names.ts';

/** A file name safe to store and to send back in a header: no path, quotes or control characters, 200 at most. */
function cleanFileName(name: string) {
  const cleaned = [...name].map((ch) => (ch.charCodeAt(0) < 32 || '\\/"'.includes(ch) ? '_' : ch)).join('');
  return cleaned.slice(0, 200) || 'attachment';
}

/** History, comments, watchers, rating, attachments, work orders and attendance of a ticket. */
export function createActivityService(deps: HelpdeskDeps & { tickets: TicketService; blobs: BlobStore }) {
  const { db, tickets, admin } = deps;

  /**
   * Runs one change of a ticket under its row lock: `change` returns the columns to set and the history entry,
   * or null for nothing to do. The version goes up and the history is written in the same transaction.
   */
  async function change(
    actor: Actor,
    id: number,
    apply: (
      row: repo.TicketRow,
      trx: typeof db,
    ) => Promise<{ set: Updateable<TicketsTable>; action: string; changes: StoredChange[]; note?: string | null } | null>,
  ) {
    await tickets.visibleTicket(actor, id);
    const done = await db.transaction().execute(async (trx) => {
      const row = await repo.lockTicket(trx, actor.tenantId, id);
      if (!row) throw notFound();
      const plan = await apply(row, trx);
      if (!plan) return null;
      if (!(await repo.updateTicket(trx, actor.tenantId, id, row.version, plan.set, null))) throw staleVersion();
      const historyId = await repo.insertHistory(trx, {
        tenantId: actor.tenantId,
        ticketId: id,
        actorId: actor.userId,
        action: plan.action,
        changes: plan.changes,
        note: plan.note ?? null,
      });
      return { historyId, fields: plan.changes.map((c) => c.field) };
    });
    const fresh = await repo.findTicket(db, actor.tenantId, id);
    if (!fresh) throw notFound();
    if (done) tickets.emit(fresh, 'updated', { changes: done.fields, historyId: done.historyId, actorId: actor.userId });
    return { row: fresh, historyId: done?.historyId ?? null };
  }

  const page = (q: { page: number; limit: number; orderBy: string }) => ({
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
    ascending: q.orderBy === 'updatedAt',
  });

  async function viewSettings(tenantId: number, type: string) {
    return (await admin.config(tenantId)).types[type as TicketType].ticketViewConfigs;
  }

  return {
    async history(actor: Actor, id: number, q: { page: number; limit: number; orderBy: string }) {
      await tickets.visibleTicket(actor, id);
      const { rows, total } = await activity.listHistory(db, actor.tenantId, id, page(q));
      const names = await withUserNames(
        deps.users,
        actor.tenantId,
        rows.map((r) => r.actor_id),
      );
      return { contents: rows.map((r) => toHistory(r, names)), totalCount: total };
    },

    async comments(actor: Actor, id: number, q: { page: number; limit: number; orderBy: string }) {
      await tickets.visibleTicket(actor, id);
      const { rows, total } = await activity.listComments(db, actor.tenantId, id, page(q));
      const names = await withUserNames(
        deps.users,
        actor.tenantId,
        rows.map((r) => r.author_id),
      );
      return { contents: rows.map((r) => toComment(r, names)), totalCount: total };
    },

    async addComment(actor: Actor, id: number, text: string, performedAt: Date | null = null) {
      const row = await tickets.visibleTicket(actor, id);
      const commentId = await activity.insertComment(db, {
        tenantId: actor.tenantId,
        ticketId: id,
        authorId: actor.userId,
        text,
        performedAt,
      });
      tickets.emit(row, 'updated', { changes: ['comment'], actorId: actor.userId });
      const comment = await activity.findComment(db, actor.tenantId, commentId);
      return toComment(comment, await withUserNames(deps.users, actor.tenantId, [comment.author_id]));
    },

    async watch(actor: Actor, id: number, userId: number | undefined) {
      const target = userId ?? actor.userId;
      const row = await tickets.visibleTicket(actor, id);
      if (!(await viewSettings(actor.tenantId, row.type)).watchers) throw forbidden('Watchers are turned off for this kind of ticket');
      if (target !== actor.userId && !canChange(actor)) throw forbidden('You may add only yourself as a watcher');
      const [user] = await deps.users.byIds(actor.tenantId, [target]);
      if (!user) throw badRequest('The watcher is not a user of this customer');
      const { row: fresh } = await change(actor, id, async (locked) => {
        if (locked.watchers.includes(target)) return null;
        if (locked.watchers.length >= TICKET_LIMITS.watchers)
          throw badRequest(`A ticket can have at most ${TICKET_LIMITS.watchers} watchers`);
        const next = [...locked.watchers, target];
        return { set: { watchers: next }, action: 'watchers', changes: [{ field: 'watchers', from: locked.watchers, to: next }] };
      });
      return tickets.detail(actor, fresh);
    },

    async unwatch(actor: Actor, id: number, userId: number) {
      if (userId !== actor.userId && !canChange(actor)) throw forbidden('You may remove only yourself as a watcher');
      const { row: fresh } = await change(actor, id, async (locked) => {
        if (!locked.watchers.includes(userId)) return null;
        const next = locked.watchers.filter((w) => w !== userId);
        return { set: { watchers: next }, action: 'watchers', changes: [{ field: 'watchers', from: locked.watchers, to: next }] };
      });
      return tickets.detail(actor, fresh);
    },

    /** Rates a finished ticket; a rating under the threshold raises a follow-up ticket when the helpdesk says so. */
    /** Refuses a caller who may not rate this ticket at all (rating off for its kind, or not theirs to rate). */
    async mayRate(actor: Actor, id: number) {
      const seen = await tickets.visibleTicket(actor, id);
      const view = (await admin.config(actor.tenantId)).types[seen.type as TicketType].ticketViewConfigs;
      if (!view.rating) throw forbidden('Rating is turned off for this kind of ticket');
      if (!canRate(actor, seen, view.ratingOwnerOnly)) throw forbidden(HELPDESK_MESSAGES.ratingNotAllowed);
    },

    async rate(actor: Actor, id: number, body: { rating: number; comment: string }) {
      const seen = await tickets.visibleTicket(actor, id);
      const config = await admin.config(actor.tenantId);
      const view = config.types[seen.type as TicketType].ticketViewConfigs;
      if (!view.rating) throw forbidden('Rating is turned off for this kind of ticket');
      const { row } = await change(actor, id, async (locked) => {
        if (!canRate(actor, locked, view.ratingOwnerOnly)) throw forbidden(HELPDESK_MESSAGES.ratingNotAllowed);
        if (!isTerminal(locked.status)) throw conflict(HELPDESK_MESSAGES.ratingTooEarly, 'rating_too_early');
        return {
          set: { rating: body.rating, rating_comment: body.comment, rated_by: actor.userId, rated_at: new Date() },
          action: 'rating',
          changes: [{ field: 'rating', from: locked.rating, to: body.rating }],
          note: body.comment || null,
        };
      });
      let raised: { id: number; ticketId: string } | null = null;
      if (body.rating < config.ratingThreshold && config.raiseTicketOnLowRating && row.rating_ticket_id === null) {
        raised = await tickets.create(
          null,
          actor.tenantId,
          {
            type: 'TICKET',
            title: `Low rating (${body.rating}/${TICKET_LIMITS.ratingMax}) on ${row.ticket_no}: ${row.title}`.slice(0, 250),
            description: body.comment,
            event: row.event,
            subEvent: row.sub_event,
            priority: config.priorities.some((p) => p.name === 'MAJOR') ? 'MAJOR' : undefined,
            locationId: row.location_id,
            entityId: row.entity_id,
            parentId: row.id,
            ownerId: actor.userId,
          },
          { history: `Raised by a rating of ${body.rating} on ${row.ticket_no}`, skipIssueCheck: true },
        );
        const link = raised;
        await change(actor, id, async (_locked) => ({
          set: { rating_ticket_id: link.id },
          action: 'linked',
          changes: [{ field: 'ratingTicket', from: null, to: link.ticketId }],
          note: `Follow-up ticket ${link.ticketId} raised by the low rating`,
        }));
      }
      const fresh = await repo.findTicket(db, actor.tenantId, id);
      if (!fresh) throw notFound();
      const raisedRow = raised ? await repo.findTicket(db, actor.tenantId, raised.id) : undefined;
      return {
        ticket: await tickets.detail(actor, fresh, config),
        raisedTicket: raisedRow
          ? {
              id: raisedRow.id,
              ticketId: raisedRow.ticket_no,
              type: raisedRow.type as TicketType,
              status: raisedRow.status as 'OPEN',
              title: raisedRow.title,
            }
          : null,
        message: HELPDESK_MESSAGES.ratingSaved,
      };
    },

    /** Raises a work order from a ticket: same place and issue, linked both ways, one history entry on each. */
    async raiseWorkOrder(
      actor: Actor,
      id: number,
      body: { title?: string; description?: string; assignedTo?: number | null; dueDate?: string | null; priority?: string },
    ) {
      const seen = await tickets.visibleTicket(actor, id);
      if (seen.type === 'WORKORDERTICKET') throw badRequest('A work order cannot have a work order of its own');
      if (!(await viewSettings(actor.tenantId, seen.type)).workOrder) throw forbidden('Work orders are turned off for this kind of ticket');
      const created = await tickets.create(
        actor,
        actor.tenantId,
        {
          type: 'WORKORDERTICKET',
          title: body.title ?? `Work order for ${seen.ticket_no}: ${seen.title}`.slice(0, 250),
          description: body.description ?? seen.description,
          event: seen.event,
          subEvent: seen.sub_event,
          priority: body.priority ?? seen.priority,
          assignedTo: body.assignedTo ?? null,
          dueDate: body.dueDate,
          locationId: seen.location_id,
          entityId: seen.entity_id,
          parentId: id,
        },
        { history: `Raised from ${seen.ticket_no}`, skipIssueCheck: true },
      );
      await change(actor, id, async () => ({
        set: {},
        action: 'linked',
        changes: [{ field: 'workOrder', from: null, to: created.ticketId }],
        note: `Work order ${created.ticketId} raised`,
      }));
      return tickets.get(actor, created.id);
    },

    // Attachments -----------------------------------------------------------------------------------------------

    async addAttachments(actor: Actor, id: number, files: Array<{ name: string; data: Buffer }>) {
      const seen = await tickets.visibleTicket(actor, id);
      if (!canEdit(actor, seen)) throw forbidden('You may not add attachments to this ticket');
      if (files.length === 0) throw badRequest('Choose a file to attach');
      const prepared = files.map((f) => {
        if (f.data.length > TICKET_LIMITS.attachmentBytes)
          throw new HttpError(413, HELPDESK_MESSAGES.attachmentTooLarge, 'attachment_too_large');
        if (f.data.length === 0) throw badRequest(`The file ${f.name} is empty`);
        const type = sniffContentType(f.data);
        if (!type) throw new HttpError(415, HELPDESK_MESSAGES.attachmentType, 'attachment_type');
        const name = cleanFileName(f.name);
        return { name, data: f.data, type, key: blobKey('tickets', actor.tenantId, id, randomUUID()) };
      });
      if (seen.attachment_count + prepared.length > TICKET_LIMITS.attachmentsPerTicket) {
        throw badRequest(`A ticket can have at most ${TICKET_LIMITS.attachmentsPerTicket} attachments`);
      }
      for (const p of prepared) await deps.blobs.put(p.key, p.data);
      try {
        await change(actor, id, async (_locked, trx) => {
          for (const p of prepared) {
            await activity.insertAttachment(trx, {
              tenantId: actor.tenantId,
              ticketId: id,
              name: p.name,
              blobKey: p.key,
              size: p.data.length,
              contentType: p.type,
              userId: actor.userId,
            });
          }
          await activity.refreshAttachmentSummary(trx, actor.tenantId, id);
          return {
            set: {},
            action: 'attachment',
            changes: [{ field: 'attachments', from: null, to: prepared.map((p) => p.name) }],
          };
        });
      } catch (error) {
        for (const p of prepared) await deps.blobs.delete(p.key).catch(() => undefined);
        throw error;
      }
      return tickets.get(actor, id);
    },

    async openAttachment(actor: Actor, id: number, attachmentId: number) {
      await tickets.visibleTicket(actor, id);
      const row = await activity.findAttachment(db, actor.tenantId, id, attachmentId);
      if (!row) throw notFound();
      const blob = await deps.blobs.open(row.blob_key);
      if (!blob) throw notFound();
      return { ...blob, name: row.name, type: row.content_type, updatedAt: iso(row.updated_at) };
    },

    async removeAttachment(actor: Actor, id: number, attachmentId: number) {
      const seen = await tickets.visibleTicket(actor, id);
      if (!canEdit(actor, seen)) throw forbidden('You may not remove attachments of this ticket');
      const found = await activity.findAttachment(db, actor.tenantId, id, attachmentId);
      if (!found) throw notFound();
      await change(actor, id, async (_locked, trx) => {
        await activity.deleteAttachment(trx, actor.tenantId, attachmentId);
        await activity.refreshAttachmentSummary(trx, actor.tenantId, id);
        return { set: {}, action: 'attachment', changes: [{ field: 'attachments', from: found.name, to: null }] };
      });
      await deps.blobs.delete(found.blob_key).catch((err) => deps.log.warn({ err }, 'attachment blob not removed'));
      return tickets.get(actor, id);
    },

    /** Assigns many tickets, each in its own transaction with its history; reports the ones that failed. */
    async bulkAssign(actor: Actor, body: { ticketIds: number[]; assignedTo: number | null; note?: string }, origin: AuditOrigin | null) {
      if (!canChange(actor)) throw forbidden();
      const updated: number[] = [];
      const failed: { id: number; detail: string }[] = [];
      for (const id of [...new Set(body.ticketIds)]) {
        try {
          const current = await tickets.visibleTicket(actor, id);
          await tickets.update(actor, id, { version: current.version, assignedTo: body.assignedTo, note: body.note }, origin);
          updated.push(id);
        } catch (error) {
          failed.push({ id, detail: error instanceof HttpError ? error.message : 'Not updated' });
          if (!(error instanceof HttpError)) deps.log.error({ err: error, ticket: id }, 'bulk assignment failed');
        }
      }
      return { updated, failed };
    },
  };
}
export type ActivityService = ReturnType<typeof createActivityService>;
