/**
 * Live latency from a frame's capture to its display, in Chromium through the real web app (/camview/live, HLS via
 * hls.js). A simulated camera reads its clip in real time (-re), so a frame is "captured" at its programme
 * date-time; the player exposes the programme date-time of the frame on screen, and latency = now − that.
 * Runs for 2 s segments (the default) and 1 s segments (SEGMENTS=2,1).
 * The low-latency path (MODES=mse, or MODES=hls,mse): fMP4 over WebSocket into MSE; the server stamps each fragment
 * with the time it left the camera's remuxer and the player maps the frame on screen to that stamp (the fragment's
 * last frame was captured at the stamp, so the figure includes the fragment buffering).
 *   (build the web first: vite build apps/web)   node --import tsx bench/video/latency.ts
 *   MODES=mse SEGMENTS=2 node --import tsx bench/video/latency.ts
 */
import { openVideoBench } from './setup.ts';

const PORT = Number(process.env.PORT ?? 8099);
const SAMPLE_S = Number(process.env.SAMPLE_S ?? 20);

async function measure(segmentSec: number, mode: 'hls' | 'mse') {
  const bench = await openVideoBench({ port: PORT, cameras: 1, segmentSec, dataDirPrefix: 'video-latency-' });
  try {
    const { page, base } = bench;
    const cam = bench.cameraIds[0] as number;
    await page.evaluate(
      ({ id, mode }) => {
        localStorage.setItem('camview-live-grid', JSON.stringify({ layout: 1, tiles: [{ id, label: 'Bench' }] }));
        localStorage.setItem('camview-live-player', mode);
      },
      { id: cam, mode },
    );
    await page.goto(`${base}/camview/live`);
    const video = page.locator(`video[data-testid="live-video-${cam}"]`);
    await video.waitFor({ timeout: 30_000 });
    if (mode === 'mse' && (await video.getAttribute('data-player')) !== 'mse') throw new Error('the MSE player did not start');
    await page.waitForFunction(
      (sel) => Number((document.querySelector(sel) as HTMLVideoElement | null)?.dataset.playingDate ?? 0) > 0,
      `video[data-testid="live-video-${cam}"]`,
      { timeout: 40_000 },
    );
    await page.waitForTimeout(5000); // let the player settle at the live edge
    const samples: number[] = [];
    for (let i = 0; i < SAMPLE_S * 2; i++) {
      const lag = await video.evaluate((v: HTMLVideoElement) => Date.now() - Number(v.dataset.playingDate));
      samples.push(lag);
      await page.waitForTimeout(500);
    }
    samples.sort((a, b) => a - b);
    const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] as number;
    if (mode === 'mse' && (await video.getAttribute('data-player')) !== 'mse') throw new Error('the MSE player fell back to HLS');
    const label = mode === 'mse' ? 'Low latency (fMP4 over WebSocket, MSE)' : `HLS, ${segmentSec} s segments`;
    console.log(
      `${label}: capture→display median ${(pct(50) / 1000).toFixed(2)} s, p95 ${(pct(95) / 1000).toFixed(2)} s (${samples.length} samples)`,
    );
  } finally {
    await bench.close();
  }
}

const modes = (process.env.MODES ?? 'hls,mse').split(',') as Array<'hls' | 'mse'>;
for (const mode of modes) {
  // the low-latency path does not depend on the recorder's segment length: measure it once
  const segments = mode === 'mse' ? [2] : (process.env.SEGMENTS ?? '2,1').split(',').map(Number);
  for (const seg of segments) await measure(seg, mode);
}
// The app, browser and database are closed; timers of other modules can keep Node alive a while after the figures.
process.exit(0);
