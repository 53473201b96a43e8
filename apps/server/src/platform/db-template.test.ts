import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTemplate } from '../db/make-template.ts';
import { openPglite } from './db.ts';
import { migrateToLatest } from './migrate.ts';

describe('embedded database template', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-template-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts a new data folder with every migration applied and no install secret', async () => {
    await ensureTemplate();
    const database = await openPglite(dataDir);
    try {
      expect(await migrateToLatest(database.db)).toEqual([]);
      const secrets = await sql<{ n: number }>`select count(*)::int as n from app_secrets`.execute(database.db);
      expect(secrets.rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
    // The folder is a database of its own: it opens again where it was left.
    const again = await openPglite(dataDir);
    try {
      expect(await migrateToLatest(again.db)).toEqual([]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
