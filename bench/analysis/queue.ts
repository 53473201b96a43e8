/**
 * The verification queue in Chromium through the real web app: from the verdict's keystrokes to the next result on
 * screen with its clip playing (the recorded footage around the finding, HLS). Ten results of a recording camera,
 * verified one after another by keyboard. Goal: next item with its clip playing ≤ 500 ms.
 *   (build the web first: vite build apps/web)   node --import tsx bench/analysis/queue.ts   (PostgreSQL)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/demo/foundation.ts';
import { benchDatabase, seedCameras } from '../video/setup.ts';

const PORT = Number(process.env.PORT ?? 8097);
const ITEMS = 10;
const CAPTCHA = 'BENCH';

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const handle = await benchDatabase();
const dataDir = await mkdtemp(join(tmpdir(), 'analysis-queue-'));
process.env.VIDEO_SIM_SIZE = '1280x720';
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DEMO: 'false',
  PORT: String(PORT),
  DATA_DIR: dataDir,
  CAPTCHA_FIXED_ANSWER: CAPTCHA,
  LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
});
const { app, handles } = await buildApp({ config, database: handle, logger: false });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const { tenantId, cameraIds } = await seedCameras(handle, 1, 1);
  const cam = cameraIds[0] as number;
  await app.listen({ port: PORT, host: '127.0.0.1' });
  await handles.video.recorder.start();
  // 40 s of footage, then ten findings inside it (as the sweep would store them)
  await new Promise((r) => setTimeout(r, 40_000));
  const asset = await handle.db.selectFrom('devices').select('asset_id').where('id', '=', cam).executeTakeFirstOrThrow();
  const now = Date.now();
  await handle.db
    .insertInto('analysis_results')
    .values(
      Array.from({ length: ITEMS + 1 }, (_, i) => ({
        tenant_id: tenantId,
        device_id: cam,
        asset_id: asset.asset_id,
        analyser: 'blur',
        at: new Date(now - 25_000 + i * 1000),
        end_at: null,
        score: 0.7,
        detail: 'Mean blur 31.0 over 3 keyframes (threshold 15)',
        frame_file: null,
      })),
    )
    .execute();

  const page = await browser.newPage();
  const base = `http://localhost:${PORT}`;
  await page.goto(`${base}/auth/login/`);
  await page.getByLabel(/username/i).fill('customeradmin');
  await page.getByLabel(/^password/i).fill(DEMO_PASSWORD);
  await page.getByLabel(/captcha/i).fill(CAPTCHA);
  await page.getByRole('button', { name: /sign in|login|log in/i }).click();
  await page.waitForURL((u) => !u.pathname.includes('/login'));
  await page.goto(`${base}/result-verification`);
  const item = page.getByTestId('verification-item');
  const playing = () =>
    page.waitForFunction(
      (sel) => {
        const v = document.querySelector(sel) as HTMLVideoElement | null;
        return !!v && !v.paused && v.readyState >= 3 && v.currentTime > 0;
      },
      `[data-testid="verification-item"] video`,
      { timeout: 20_000, polling: 'raf' },
    );
  await item.waitFor();
  await playing();
  const samples: number[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const id = await item.getAttribute('data-result-id');
    const started = await page.evaluate(() => performance.now());
    await page.keyboard.press('t');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid="verification-item"]')?.getAttribute('data-result-id') !== old,
      id,
      {
        polling: 'raf',
      },
    );
    await playing();
    samples.push((await page.evaluate(() => performance.now())) - started);
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] as number;
  console.log(
    `\nVerification queue, ${ITEMS} results verified by keyboard: next result with its clip playing median ${Math.round(pct(50))} ms, ` +
      `p95 ${Math.round(pct(95))} ms, max ${Math.round(samples.at(-1) as number)} ms (goal ≤ 500 ms)`,
  );
} finally {
  await browser.close();
  await app.close();
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
process.exit(0);
