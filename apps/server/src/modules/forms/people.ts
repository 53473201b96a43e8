import { type UserDirectory, usersById } from '../users/directory.ts';

type Users = Pick<UserDirectory, 'byIds'>;

/** "Firstname Lastname" with the spaces at either end trimmed, or null when both are empty. */
const fullName = (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname}`.replace(/^ +| +$/g, '') || null;

/** Template versions with the name of who saved each (null when unknown or nameless). */
export async function withCreators<R extends { created_by: number | null }>(users: Users, tenantId: number, rows: R[]) {
  const people = await usersById(
    users,
    tenantId,
    rows.map((r) => r.created_by),
  );
  return rows.map((r) => {
    const user = r.created_by === null ? undefined : people.get(r.created_by);
    return { ...r, created_by_name: user ? fullName(user) : null };
  });
}

/** Responses with their submitter's name (null when unknown or nameless) and username (the name's fallback). */
export async function withSubmitters<R extends { submitted_by: number | null }>(users: Users, tenantId: number, rows: R[]) {
  const people = await usersById(
    users,
    tenantId,
    rows.map((r) => r.submitted_by),
  );
  return rows.map((r) => {
    const user = r.submitted_by === null ? undefined : people.get(r.submitted_by);
    return { ...r, submitter_name: user ? fullName(user) : null, username: user?.username ?? null };
  });
}
