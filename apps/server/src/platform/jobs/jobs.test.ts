import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../test/support/database.ts';
import type { DbHandle } from '../db.ts';
import { migrateToLatest } from '../migrate.ts';
import { cancelJob, enqueueJob } from './queue.ts';
import { createJobWorker } from './worker.ts';

const log = { info() {}, warn() {}, error() {} };
let database: DbHandle;
beforeAll(async () => {
  database = await freshDatabase();
  await migrateToLatest(database.db);
});
afterAll(() => database?.close());

const jobRow = (id: number) => database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('job queue', () => {
  it('runs a job, retries a failing one and gives up after the last attempt', async () => {
    const worker = createJobWorker(database.db, { log });
    let calls = 0;
    worker.register('test.flaky', async () => {
      calls++;
      if (calls < 2) throw new Error('transient');
      return { ok: true };
    });
    worker.register('test.broken', async () => {
      throw new Error('always');
    });
    const flaky = await enqueueJob(database.db, { tenantId: null, queue: 'test.flaky' });
    const broken = await enqueueJob(database.db, { tenantId: null, queue: 'test.broken', maxAttempts: 2 });
    await worker.drain();
    await database.db
      .updateTable('jobs')
      .set({ run_at: new Date(0) })
      .where('status', '=', 'queued')
      .execute();
    await worker.drain();
    await database.db
      .updateTable('jobs')
      .set({ run_at: new Date(0) })
      .where('status', '=', 'queued')
      .execute();
    await worker.drain();
    expect(await jobRow(flaky)).toMatchObject({ status: 'completed', attempts: 2, progress: 100, result: { ok: true } });
    expect(await jobRow(broken)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'always' });
  });

  it('adds a job under a dedupe key once', async () => {
    const a = await enqueueJob(database.db, { tenantId: null, queue: 'test.once', dedupeKey: 'ticket-1-level-1' });
    const b = await enqueueJob(database.db, { tenantId: null, queue: 'test.once', dedupeKey: 'ticket-1-level-1' });
    expect(a).toBe(b);
  });

  it('resumes a job whose worker died once its lease runs out', async () => {
    const id = await enqueueJob(database.db, { tenantId: null, queue: 'test.resume' });
    // A worker took it and died: running, with a lease in the past.
    await database.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead', locked_until: new Date(Date.now() - 1000), attempts: 1 })
      .where('id', '=', id)
      .execute();
    const worker = createJobWorker(database.db, { log });
    worker.register('test.resume', async () => ({ resumed: true }));
    await worker.drain();
    expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 2, result: { resumed: true } });
  });

  it('stops a running job when it is cancelled', async () => {
    const worker = createJobWorker(database.db, { log });
    let aborted = false;
    worker.register(
      'test.long',
      async (job) => {
        for (let i = 0; i < 200 && !job.signal.aborted; i++) {
          await job.progress(i / 2);
          await new Promise((r) => setTimeout(r, 10));
        }
        aborted = job.signal.aborted;
        throw new Error('stopped');
      },
      { leaseSeconds: 3 },
    );
    const id = await enqueueJob(database.db, { tenantId: null, queue: 'test.long' });
    const done = worker.drain();
    await new Promise((r) => setTimeout(r, 100));
    expect(await cancelJob(database.db, null, id)).toBe(true);
    await done;
    expect(aborted).toBe(true);
    expect((await jobRow(id)).status).toBe('cancelled');
  });
});
