import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { filesWithoutDatabase } from './vitest.database-files.ts';
import { SlowFilesFirst } from './vitest.sequencer.ts';

const ALONE = ['test/demo-offline.test.ts'];

export default defineConfig({
  test: {
    // Vitest leaves one core to itself by default (one worker on two cores), but its main process idles while the
    // workers run the embedded database: every core runs a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // the PostgreSQL pass runs only the files that use the test database
          exclude: [
            ...ALONE,
            ...(process.env.TEST_DATABASE_URL ? filesWithoutDatabase(fileURLToPath(new URL('./apps/server', import.meta.url))) : []),
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // A worker runs file after file with the modules it has loaded (the whole app), instead of a new process and
          // a fresh import per file: the suite takes two thirds of the time. Files build their own app and database,
          // and put back what they change in process.env.
          isolate: false,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        // Files that watch the whole process (every socket it opens) run in a process of their own: in a worker shared
        // with other files, what those left running would count as theirs.
        test: {
          name: 'server-alone',
          root: './apps/server',
          include: [...ALONE],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          isolate: true,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // some tests load screens through their routes: each first import is a transform of a whole page, seconds
          // on a busy machine
          testTimeout: 30_000,
        },
      },
    ],
  },
});
