/**
 * Publish → screen latency of live values: the product (embedded database, demo estate, the demo simulator
 * publishing for every device) runs on PORT; Chromium shows a meter's device page; the bench publishes a new value
 * over MQTT (QoS 1) and over HTTP, and measures from the publish until the value is in the page's Values card (a
 * MutationObserver in the page stamps the time; browser and bench share the clock). Values are sent SPACING_MS
 * apart (more than the 500 ms push throttle), then a burst at 20/s shows what the throttle adds.
 * Run: node --import tsx bench/push/live-values.ts   (PORT=8340 SAMPLES=40 SPACING_MS=700)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import mqtt from 'mqtt';
import { chromium, type Page } from 'playwright-core';

const PORT = Number(process.env.PORT ?? 8340);
const MQTT_PORT = PORT + 1000;
const SAMPLES = Number(process.env.SAMPLES ?? 40);
const SPACING_MS = Number(process.env.SPACING_MS ?? 700);
const BASE = `http://localhost:${PORT}`;
const CAPTCHA = 'BENCH';

function startServer(): ChildProcess {
  return spawn('node', ['--import', 'tsx', 'e2e/server.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      MQTT_PORT: String(MQTT_PORT),
      DATA_DIR: `/tmp/sitewatch-bench-live-${PORT}`,
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      LOGIN_RATE_LIMIT_PER_MINUTE: '5000',
      DEMO_CAMERAS: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitReady() {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${BASE}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not get ready');
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (name: string, ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `${name.padEnd(28)} n=${s.length}  p50 ${pct(s, 50)} ms  p95 ${pct(s, 95)} ms  max ${s.at(-1)} ms`;
};

/** Arms an observer for the value, runs the publish, and returns when the value was in the page (epoch ms). */
async function seenAt(page: Page, value: string, publish: () => Promise<void>): Promise<number> {
  await page.evaluate((v) => {
    const w = window as unknown as { __seenAt: number | null };
    w.__seenAt = null;
    const el = document.querySelector('[data-testid="device-values"]') as HTMLElement;
    const observer = new MutationObserver(() => {
      if (el.textContent?.includes(v)) {
        w.__seenAt = Date.now();
        observer.disconnect();
      }
    });
    observer.observe(el, { subtree: true, childList: true, characterData: true });
  }, value);
  await publish();
  await page.waitForFunction(() => (window as unknown as { __seenAt: number | null }).__seenAt !== null, undefined, { timeout: 10_000 });
  return page.evaluate(() => (window as unknown as { __seenAt: number }).__seenAt);
}

/** Publish → in-the-page time of one value. */
async function measure(page: Page, value: string, publish: () => Promise<void>): Promise<number> {
  const sent = Date.now();
  return (await seenAt(page, value, publish)) - sent;
}

const server = startServer();
try {
  await waitReady();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ baseURL: BASE });
  const csrf = async () => (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  await context.request.get('/api/auth/csrf/');
  const captcha = await (await context.request.get('/api/auth/captcha/')).json();
  const login = await context.request.post('/api/auth/login/', {
    data: { username: 'customeradmin', password: 'Demo@2026!', captchaId: captcha.captchaId, captcha: CAPTCHA },
    headers: { 'x-csrftoken': await csrf() },
  });
  if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
  const list = await (await context.request.get('/iotapp/devices/?type=METER&limit=1')).json();
  const id: number = list.contents[0].id;
  // the token is in no device answer: it is read by the device page's copy action
  const copied = await context.request.post(`/iotapp/devices/${id}/access-token/`, { headers: { 'x-csrftoken': await csrf() } });
  const device = { id, accessToken: (await copied.json()).accessToken as string };
  const page = await context.newPage();
  await page.goto(`/devices/${device.id}/view`);
  await page.getByTestId('device-values').waitFor();
  await page.waitForTimeout(1500); // the socket opens and announces the watched device

  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, { username: device.accessToken, reconnectPeriod: 0 });
  const key = 'benchValue';
  let n = 100_000;
  const viaMqtt: number[] = [];
  const viaHttp: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const v = ++n;
    viaMqtt.push(
      await measure(page, String(v), () =>
        client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ [key]: v }), { qos: 1 }).then(() => undefined),
      ),
    );
    await page.waitForTimeout(SPACING_MS);
    const w = ++n;
    viaHttp.push(
      await measure(page, String(w), async () => {
        const res = await fetch(`${BASE}/api/v1/${device.accessToken}/telemetry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ [key]: w }),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
      }),
    );
    await page.waitForTimeout(SPACING_MS);
  }
  // a burst at 20 messages a second: the page gets at most two events a second, the newest value last
  const last = n + 40;
  let lastSentAt = 0;
  const shownAt = await seenAt(page, String(last), async () => {
    for (let i = 0; i < 40; i++) {
      const v = ++n;
      if (v === last) lastSentAt = Date.now();
      await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ [key]: v }), { qos: 0 });
      if (v !== last) await new Promise((r) => setTimeout(r, 50));
    }
  });
  const burst = [shownAt - lastSentAt];
  console.log(summary('MQTT QoS 1 publish → page', viaMqtt));
  console.log(summary('HTTP POST → page', viaHttp));
  console.log(`last value of a 20/s burst reached the page ${burst[0]} ms after it was published (throttle: ≤ 500 ms)`);
  await client.endAsync();
  await browser.close();
} finally {
  server.kill('SIGTERM');
}
