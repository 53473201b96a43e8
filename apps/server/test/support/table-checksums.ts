import { sql } from 'kysely';
import type { RunQuery } from '../../src/platform/backup/data-files.ts';
import type { Db } from '../../src/platform/db.ts';

/** Every table's row count and a checksum of its rows (each row as text, in a fixed order), as `count:md5`. */
export async function tableChecksums(run: RunQuery): Promise<Record<string, string>> {
  const tables = await run(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`);
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const quoted = `"${String(name).replace(/"/g, '""')}"`;
    const [row] = await run(`select count(*)::int as n, md5(string_agg(md5(t::text), '' order by md5(t::text))) as sum from ${quoted} t`);
    sums[String(name)] = `${row?.n}:${row?.sum ?? ''}`;
  }
  return sums;
}

/** Statements on a database handle's pool, as a RunQuery. */
export const runOn =
  (db: Db): RunQuery =>
  async (text) =>
    (await sql.raw<Record<string, unknown>>(text).execute(db)).rows;
