import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * Runs `fn` while this process holds a PostgreSQL session lock on `key`, so that processes sharing one database do a
 * piece of work one after another. The lock lives on one pooled connection; `fn` may use the others.
 */
export function withAdvisoryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
