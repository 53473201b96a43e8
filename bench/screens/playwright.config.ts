// Timed browser runs: the same server, browser and fixtures as the e2e suite, but figures instead of assertions, run on
// demand (`npm run bench:screens`), never in the test command.
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/bench-screens',
  workers: 1,
  retries: 0,
  reporter: 'list',
  // the server is started from the project root, as the e2e suite starts it
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: '../..' } : base.webServer,
});
