import type { FieldProfileInput } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from '../sites/scope.ts';

/** SQL of the field staff directories: users of a field role with their field profiles. */

const ORDER = {
  firstname: sql`lower(u.firstname)`,
  lastname: sql`lower(u.lastname)`,
  username: sql`lower(u.username)`,
  createdAt: sql`u.created_at`,
} as const;

export async function listStaff(
  db: Db,
  tenantId: number,
  role: string,
  q: { searchText?: string; area?: string; status: string; orderBy: string; page: number; limit: number },
) {
  let query = db
    .selectFrom('users as u')
    .leftJoin('field_profiles as p', 'p.user_id', 'u.id')
    .where('u.tenant_id', '=', tenantId)
    .where(sql<boolean>`${role} = any(u.roles)`);
  if (q.status !== 'all') query = query.where('u.is_active', '=', q.status !== 'deactivated');
  if (q.area) query = query.where(sql`lower(p.area)`, '=', q.area.toLowerCase());
  if (q.searchText) {
    const p = contains(q.searchText);
    query = query.where(
      sql<boolean>`(u.username ilike ${p} or u.email ilike ${p} or u.mobile ilike ${p} or (u.firstname || ' ' || u.lastname) ilike ${p}
        or p.employee_code ilike ${p} or p.area ilike ${p} or p.designation ilike ${p})`,
    );
  }
  const key = q.orderBy.replace('-', '') as keyof typeof ORDER;
  const [rows, total] = await Promise.all([
    query
      .select('u.id')
      .orderBy(ORDER[key], q.orderBy.startsWith('-') ? 'desc' : 'asc')
      .orderBy('u.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.id), total: total.n };
}

const profileColumns = [
  'p.user_id',
  'p.employee_code',
  'p.designation',
  'p.area',
  'p.territory',
  sql<string | null>`to_char(p.joined_on, 'YYYY-MM-DD')`.as('joined_on'),
  'p.notes',
] as const;

export const profilesOf = (db: Db, tenantId: number, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('field_profiles as p')
        .select(profileColumns)
        .where('p.tenant_id', '=', tenantId)
        .where('p.user_id', 'in', userIds)
        .execute();
export type ProfileRow = Awaited<ReturnType<typeof profilesOf>>[number];

/** The areas the role's people are in, for the list's filter. */
export const areasOf = (db: Db, tenantId: number, role: string) =>
  db
    .selectFrom('field_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(sql<string>`min(p.area)`.as('area'))
    .where('p.tenant_id', '=', tenantId)
    .where('p.area', 'is not', null)
    .where(sql<boolean>`${role} = any(u.roles)`)
    .groupBy(sql`lower(p.area)`)
    .orderBy(sql`lower(p.area)`)
    .limit(500)
    .execute()
    .then((rows) => rows.map((r) => r.area));

export const codeTaken = (db: Db, tenantId: number, code: string, exceptUserId?: number) =>
  db
    .selectFrom('field_profiles')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(employee_code)`, '=', code.toLowerCase())
    .$if(exceptUserId !== undefined, (q) => q.where('user_id', '!=', exceptUserId as number))
    .executeTakeFirst()
    .then(Boolean);

export const upsertProfile = (db: Db, tenantId: number, userId: number, p: FieldProfileInput) =>
  db
    .insertInto('field_profiles')
    .values({
      user_id: userId,
      tenant_id: tenantId,
      employee_code: p.employeeCode,
      designation: p.designation,
      area: p.area,
      territory: p.territory,
      joined_on: p.joinedOn,
      notes: p.notes,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        employee_code: p.employeeCode,
        designation: p.designation,
        area: p.area,
        territory: p.territory,
        joined_on: p.joinedOn,
        notes: p.notes,
        updated_at: sql`now()`,
      }),
    )
    .execute();
