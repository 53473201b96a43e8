import { sql } from 'kysely';
import type { Db } from '../db.ts';

export interface LiveSession {
  roles: string[];
  permissions: Set<string>;
}

/**
 * Of these users of a tenant, the active ones with their current roles and permissions (their group's), in one
 * lookup; the others are left out. The users module supplies it (app.ts): platform reads no module's tables.
 */
export type ActiveUsers = (tenantId: number, userIds: number[]) => Promise<Array<LiveSession & { userId: number }>>;

/**
 * Of the given sessions, those still good for a request (not revoked, not expired, not idle, user active),
 * with the user's current roles and permissions: an open socket is held to the same rule as an HTTP call.
 */
export async function liveSessions(
  db: Db,
  activeUsers: ActiveUsers,
  sessionIds: string[],
  idleMinutes: number,
): Promise<Map<string, LiveSession>> {
  const live = new Map<string, LiveSession>();
  for (let i = 0; i < sessionIds.length; i += 1000) {
    const chunk = sessionIds.slice(i, i + 1000);
    const rows = await db
      .selectFrom('sessions as s')
      .select(['s.id', 's.tenant_id', 's.user_id'])
      .where('s.id', 'in', chunk)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${idleMinutes})`)
      .execute();
    const usersByTenant = new Map<number, Set<number>>();
    for (const row of rows) {
      const ids = usersByTenant.get(row.tenant_id) ?? new Set<number>();
      usersByTenant.set(row.tenant_id, ids.add(row.user_id));
    }
    const users = new Map<string, LiveSession>();
    await Promise.all(
      [...usersByTenant].map(async ([tenantId, ids]) => {
        for (const user of await activeUsers(tenantId, [...ids])) {
          users.set(`${tenantId}:${user.userId}`, { roles: user.roles, permissions: user.permissions });
        }
      }),
    );
    for (const row of rows) {
      const user = users.get(`${row.tenant_id}:${row.user_id}`);
      if (user) live.set(row.id, { roles: user.roles, permissions: new Set(user.permissions) });
    }
  }
  return live;
}
