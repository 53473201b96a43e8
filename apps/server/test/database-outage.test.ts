import { SERVER_MESSAGES } from '@sitewatch/contracts';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../src/platform/db.ts';
import { registerErrorHandler } from '../src/platform/errors.ts';
import { createTestApp } from './support/harness.ts';
import { freePort } from './telemetry-fixtures.ts';

describe('database outage', () => {
  it('answers 503 with Retry-After when PostgreSQL cannot be reached', async () => {
    const down = openPostgres(`postgres://postgres@127.0.0.1:${await freePort()}/test`, 1);
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/probe', async () => (await sql<{ one: number }>`select 1 as one`.execute(down.db)).rows);
    const res = await app.inject({ method: 'GET', url: '/probe' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ detail: SERVER_MESSAGES.serviceUnavailable, code: 'service_unavailable' });
    await app.close();
    await down.close();
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'answers 503 with Retry-After from the whole app once the database is gone',
    async () => {
      const t = await createTestApp();
      const admin = await t.login('customeradmin');
      expect((await admin.get('/api/alarms/rules/')).statusCode).toBeLessThan(500);
      // the embedded database goes away under the running app (PostgreSQL mode is the first test)
      await t.database.pglite?.close();
      const res = await admin.get('/api/alarms/rules/');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().detail).toBe(SERVER_MESSAGES.serviceUnavailable);
      await t.app.close().catch(() => undefined);
    },
  );
});
