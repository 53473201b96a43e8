// Timed browser runs of field work without a connection: the same server, browser and fixtures as the e2e suite,
// figures instead of assertions, run on demand (`npm run bench:field-outbox`), never in the test command.
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/bench-field',
  workers: 1,
  retries: 0,
  reporter: 'list',
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: '../..' } : base.webServer,
});
