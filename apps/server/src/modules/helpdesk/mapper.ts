import type {
  Attachment,
  Comment,
  HistoryEntry,
  TicketEventPayload,
  TicketStatus,
  TicketSummary,
  TicketType,
  UserRef,
} from '@sitewatch/contracts';
import type { AttachmentRow, CommentRow, HistoryRow } from './activity-repository.ts';
import type { TicketRow, TicketSummaryRow } from './ticket-repository.ts';
import { nameOf, type UserNames } from './user-names.ts';

/**
 * Database rows to API shapes, explicitly: table types never leak out. The users a row names come from the users
 * module's directory (`withUserNames`), looked up once per list.
 */

/** Instants formatted lately: a screen refetches the same page on every change pushed to it. */
const formatted = new Map<number, string>();
const FORMATTED_MAX = 20_000;

/**
 * An instant as the API writes it (ISO 8601, UTC, milliseconds). Looking up one formatted before costs a tenth of
 * `toISOString`, which took 4 % of the process's time serving a page of tickets under load.
 */
export function iso(d: Date | string): string {
  const date = d instanceof Date ? d : new Date(d);
  const ms = date.getTime();
  let text = formatted.get(ms);
  if (text === undefined) {
    text = date.toISOString();
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(ms, text);
  }
  return text;
}
export const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);

export const displayName = (u: { firstname?: string | null; lastname?: string | null; email?: string | null }) =>
  `${u.firstname ?? ''} ${u.lastname ?? ''}`.trim() || (u.email ?? '');

export function userRef(id: number | null, u: { firstname: string | null; lastname: string | null; email: string | null }): UserRef | null {
  if (id === null || u.email === null) return null;
  return { id, name: displayName(u), email: u.email };
}

export const attachmentPath = (ticketId: number, attachmentId: number) => `/helpdesk/tickets/${ticketId}/attachments/${attachmentId}/`;

export function toSummary(r: TicketSummaryRow, names: UserNames, vendors: ReadonlyMap<number, string> = new Map()): TicketSummary {
  return {
    id: r.id,
    ticketId: r.ticket_no,
    type: r.type as TicketType,
    status: r.status as TicketStatus,
    priority: r.priority,
    event: r.event,
    subEvent: r.sub_event,
    title: r.title,
    description: r.description,
    assignedTo: r.assigned_to,
    assignee: userRef(r.assigned_to, nameOf(names, r.assigned_to)),
    vendorId: r.vendor_id,
    vendor: r.vendor_id === null ? null : { id: r.vendor_id, name: vendors.get(r.vendor_id) ?? '' },
    createdBy:
      r.created_by === null
        ? null
        : (userRef(r.created_by, nameOf(names, r.created_by)) ?? {
            id: r.created_by,
            name: r.created_by_email ?? '',
            email: r.created_by_email ?? '',
          }),
    onHold: r.on_hold,
    acknowledged: r.acknowledged,
    locationId: r.location_id,
    entityId: r.entity_id,
    entityProfileType: r.entity_profile_type,
    eventDate: iso(r.event_date),
    dueDate: isoOrNull(r.due_date),
    resolvedDate: isoOrNull(r.resolved_date),
    assignedDate: isoOrNull(r.assigned_date),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    city: r.city,
    assetType: r.asset_type,
    deviceName: r.device_name,
    additionalInformation: r.additional_information ?? {},
    overdue: r.sla_breached,
    slaPausedAt: isoOrNull(r.sla_paused_at),
    escalationLevel: r.escalation_level,
    attachmentCount: r.attachment_count,
    thumbnail: r.thumbnail_id ? attachmentPath(r.id, r.thumbnail_id) : null,
    rating: r.rating,
    version: r.version,
  };
}

export function toAttachment(r: AttachmentRow, names: UserNames): Attachment {
  return {
    id: r.id,
    name: r.name,
    src: attachmentPath(r.ticket_id, r.id),
    size: r.size,
    type: r.content_type,
    updatedBy: nameOf(names, r.uploaded_by).email,
    updatedAt: iso(r.updated_at),
    createdAt: iso(r.created_at),
  };
}

export function toHistory(r: HistoryRow, names: UserNames): HistoryEntry {
  return {
    history_id: r.id,
    ticket: r.ticket_id,
    action: r.action,
    changes: r.changes ?? [],
    note: r.note,
    actor: userRef(r.actor_id, nameOf(names, r.actor_id)),
    updatedAt: iso(r.created_at),
    performedAt: r.performed_at ? iso(r.performed_at) : null,
  };
}

export function toComment(r: CommentRow, names: UserNames): Comment {
  return {
    id: r.id,
    text: r.text,
    author: userRef(r.author_id, nameOf(names, r.author_id)),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    performedAt: r.performed_at ? iso(r.performed_at) : null,
  };
}

export function eventPayload(
  r: TicketRow,
  extra: { changes?: string[]; historyId?: number | null; actorId?: number | null },
): TicketEventPayload {
  const info = (r.additional_information ?? {}) as { assetLabel?: string | null; deviceLabel?: string | null };
  return {
    id: r.id,
    ticketId: r.ticket_no,
    title: r.title,
    type: r.type,
    event: r.event,
    status: r.status,
    priority: r.priority,
    locationId: r.location_id,
    entityId: r.entity_id,
    assetLabel: info.assetLabel ?? null,
    deviceLabel: info.deviceLabel ?? null,
    ownerId: r.created_by,
    assignedTo: r.assigned_to,
    vendorId: r.vendor_id,
    watcherIds: r.watchers ?? [],
    changes: extra.changes ?? [],
    historyId: extra.historyId ?? null,
    actorId: extra.actorId ?? null,
  };
}
