import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_CAPTCHA = 'E2ETS';
/**
 * Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself runs headless) renders the
 * same engine without the desktop browser around it: the suite spends a third less CPU than in the full browser.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export default defineConfig({
  testDir: './e2e',
  // the server starts first (webServer), then this holds the tests until `npm test` lets them run
  globalSetup: './e2e/start-gate.ts',
  // Runs on their own port (several at once on one machine) keep their artifacts apart: each run empties its folder,
  // which is never test-results itself (the Vitest reports and the logs of npm test are kept there).
  outputDir: process.env.E2E_PORT ? `./test-results/e2e-${PORT}` : './test-results/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    headless: true,
    // The product keeps still under the system's reduced-motion setting: the tests need no animation frames, and a
    // machine of two cores spends that time on the pages and the server instead. The app shell's test covers both.
    reducedMotion: 'reduce',
    // Each test's fresh context would install the service worker, which precaches the whole build (hundreds of
    // files) beside the test; the offline spec allows it where the worker is what it tests.
    serviceWorkers: 'block',
    // Recording a trace costs a screencast of every test; the retry of a failed one records it.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node e2e/server.ts',
    url: `http://localhost:${PORT}/ready`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: `/tmp/sitewatch-e2e-${PORT}`,
      CAPTCHA_FIXED_ANSWER: E2E_CAPTCHA,
      LOGIN_RATE_LIMIT_PER_MINUTE: '5000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      MQTT_PORT: String(PORT + 1000),
      // the SNMP trap receiver of this server, and forwarding to a manager the test runs on loopback
      SNMP_TRAP_PORT: String(PORT + 2000),
      // (the demo tenants' own networks are loopback only: their devices are simulated)
      TRAP_FORWARD_NETWORKS: 'any',
      // Tests expect the whole demo estate from the first request on.
      DEMO_SEEDING: 'before-listen',
      // A new data folder's first scheduled backup would run at every start; the backup test starts its own.
      BACKUP_EVERY_HOURS: '0',
    },
  },
});
