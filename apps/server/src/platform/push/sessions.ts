import { sql } from 'kysely';
import type { Db } from '../db.ts';

export interface LiveSession {
  roles: string[];
  permissions: Set<string>;
}

/**
 * Of the given sessions, those still good for a request (not revoked, not expired, not idle, user active),
 * with the user's current roles and permissions: an open socket is held to the same rule as an HTTP call.
 */
export async function liveSessions(db: Db, sessionIds: string[], idleMinutes: number): Promise<Map<string, LiveSession>> {
  const live = new Map<string, LiveSession>();
  for (let i = 0; i < sessionIds.length; i += 1000) {
    const chunk = sessionIds.slice(i, i + 1000);
    const rows = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.tenant_id', '=', 's.tenant_id'))
      .leftJoin('groups as g', (join) => join.on(sql<boolean>`g.id = u.group_ids[1]`))
      .select(['s.id', 'u.roles', 'g.permissions'])
      .where('s.id', 'in', chunk)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${idleMinutes})`)
      .where('u.is_active', '=', true)
      .execute();
    for (const row of rows) {
      live.set(row.id, { roles: row.roles, permissions: new Set((row.permissions ?? []).map((p) => p.codename)) });
    }
  }
  return live;
}
