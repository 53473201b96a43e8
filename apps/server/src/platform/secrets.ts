import { randomBytes } from 'node:crypto';
import type { Db } from './db.ts';

/** A signing secret generated once per install and kept in the database, so every node shares it. */
export async function installSecret(db: Db, name: string): Promise<Uint8Array> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
