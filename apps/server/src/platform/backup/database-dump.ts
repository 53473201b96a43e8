import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';

import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** The tools of Debian's postgresql-client; PG_BIN names another folder holding them. */
const pgTool = (name: 'pg_dump' | 'pg_restore') => (process.env.PG_BIN ? `${process.env.PG_BIN}/${name}` : name);

/**
 * A connection string without its password, and the environment that carries the password instead, so that it never
 * shows in the process list.
 */
function connectionFor(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a PostgreSQL client tool; rejects with its last lines of error output. */
function runTool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgTool(name), args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(`${name} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client) or set PG_BIN`)
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

/** pg_dump of the database as of an exported snapshot, in custom format, into `file`. */
export async function pgDump(url: string, snapshot: string, file: string) {
  const { dbname, env } = connectionFor(url);
  await runTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`],
    env,
  );
}

/** pg_restore of a custom-format archive into an empty database, all or nothing. */
export async function pgRestore(url: string, file: string) {
  const { dbname, env } = connectionFor(url);
  await runTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
    env,
  );
}

/** Tables, views and sequences outside PostgreSQL's own schemas: an empty database has none. */
export async function pgObjectCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%' and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Runs statements on a PostgreSQL database over one connection. */
export async function pgExec(url: string, statements: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

/** Writes an uncompressed tar of PGlite's data folder gzipped into `file`. */
export async function writeGzip(tar: Readable, file: string) {
  await pipeline(tar, createGzip({ level: 1, chunkSize: 1 << 20 }), createWriteStream(file));
}

/** Makes the PGlite data folder `dbDir` from a gzipped dump of one, and runs `after` on it before closing it. */
export async function loadPgliteDump(file: string, dbDir: string, after: (db: PGlite) => Promise<void>) {
  const chunks: Buffer[] = [];
  await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  });
  const pglite = await PGlite.create(dbDir, { loadDataDir: new Blob(chunks) });
  try {
    await after(pglite);
  } finally {
    await pglite.close();
  }
}
