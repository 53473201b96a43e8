import type { AlarmEventPayload, TicketEventPayload } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';

/** Event payloads for tests and benchmarks. */
let seq = 0;

/** A ticket event payload as the helpdesk emits it; override what the test is about. */
export function ticketPayload(overrides: Partial<TicketEventPayload> = {}): TicketEventPayload {
  seq++;
  return {
    id: 1000 + seq,
    ticketId: `TKT-${1000 + seq}`,
    title: `Generator offline ${seq}`,
    type: 'TICKET',
    event: 'Power Failure',
    status: 'OPEN',
    priority: 'MAJOR',
    locationId: 7,
    entityId: 70,
    assetLabel: 'Store 7',
    deviceLabel: 'GEN-7',
    ownerId: null,
    assignedTo: null,
    watcherIds: [],
    changes: [],
    historyId: 5000 + seq,
    actorId: null,
    ...overrides,
  };
}

export function alarmPayload(overrides: Partial<AlarmEventPayload> = {}): AlarmEventPayload {
  return {
    deviceId: 88,
    deviceLabel: 'UPS-88',
    assetId: 8,
    assetLabel: 'Store 8',
    severity: 'CRITICAL',
    alarmStatus: 'ACTIVE',
    message: 'Battery low',
    ...overrides,
  };
}

/** The id of a demo user (username = role) of a tenant. */
export async function userIdOf(db: Db, tenantId: number, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}
