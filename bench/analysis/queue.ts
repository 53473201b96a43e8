/**
 * The verification queue in Chromium through the real web app: from the verdict's keystrokes to the next result on
 * screen with its clip playing (the recorded footage around the finding, HLS). Ten results of a recording camera,
 * verified one after another by keyboard. Goal: next item with its clip playing ≤ 500 ms.
 *   (build the web first: vite build apps/web)   node --import tsx bench/analysis/queue.ts   (PostgreSQL)
 */
import { loadavg } from 'node:os';
import { openVideoBench } from '../video/setup.ts';

const PORT = Number(process.env.PORT ?? 8097);
const ITEMS = 10;

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const bench = await openVideoBench({ port: PORT, cameras: 1, segmentSec: 1, dataDirPrefix: 'analysis-queue-' });
try {
  const { tenantId, handle, page, base } = bench;
  const cam = bench.cameraIds[0] as number;
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
  await bench.close();
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
process.exit(0);
