/**
 * The form screen in Chromium with a 200-field form:
 * - first render: from pressing Fill on the forms list (app and chunks warm, a second after the list shows) until
 *   all 200 fields are on screen (goal ≤ 300 ms), which includes reading the draft from the server (and the
 *   template, unless the list just read it); p95 over 20 rounds;
 * - key press to paint: from keydown in a text field to the frame after the input shows it, p95 over 120 key
 *   presses, typed as soon as the form shows and again once it has settled (goal ≤ 16 ms: the key press is handled
 *   and painted within one 60 Hz frame). Measured twice: with the display's frame clock, where the paint also waits
 *   for the next vsync tick (up to 16.7 ms even on an empty page), and with frames unthrottled
 *   (`--disable-frame-rate-limit --disable-gpu-vsync`: a frame is produced as soon as there is something to show),
 *   which is the work of the key press itself: handler, style, layout, paint.
 * The app's server shares this machine's cores with the browser. For the browser's own figures, run it with
 * DEMO_CAMERAS=false: the simulated cameras' recording and their analysis passes are server work that a user's
 * browser does not share a machine with.
 * Needs a running app with a fixed captcha: BASE_URL (default http://localhost:8310) and CAPTCHA_FIXED_ANSWER.
 * Prints each round, the key press figure of a page with only an input (the floor of that measure in this browser)
 * and the machine's load average, since figures on a busy machine are noisy.
 * Run: node --import tsx bench/forms/render.ts
 */
import { readFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';

const BASE = process.env.BASE_URL ?? 'http://localhost:8310';
const CAPTCHA = process.env.CAPTCHA_FIXED_ANSWER ?? 'ABCDE';
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
/** The machine's load beside the figures: on a busy machine they are noisy. */
const load = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};

/** Key presses per figure: the p95 of 120 is the sixth slowest, so one burst of other work does not decide it. */
const KEYS = 120;
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const UNTHROTTLED = ['--disable-frame-rate-limit', '--disable-gpu-vsync'];

const signIn = async (page: Page) => {
  await page.goto(`${BASE}/auth/login/?next=/forms`);
  await page.getByTestId('captcha-image').waitFor();
  await page.getByLabel(/username/i).fill('customeradmin');
  await page.getByLabel(/^password/i).fill('Demo@2026!');
  await page.getByLabel(/captcha/i).fill(CAPTCHA);
  await page.getByRole('button', { name: /sign in|login|log in/i }).click();
  await page.waitForURL((u) => !u.pathname.includes('/login'));
};

// Key press to paint, timed the same way in the form and, for reference, on a page with nothing but an input.
const keyLatencies = async (target: Page, selector: string, settleMs = 0) => {
  await target.locator(selector).click();
  await target.waitForTimeout(settleMs);
  await target.evaluate(`(() => {
    window.__lat = [];
    if (window.__timed) return;
    window.__timed = true;
    document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
    document.addEventListener('input', () => requestAnimationFrame(() => setTimeout(() => window.__lat.push(performance.now() - window.__t0), 0)), true);
  })()`);
  for (let i = 0; i < KEYS; i++) await target.keyboard.type(String.fromCharCode(97 + (i % 26)), { delay: 40 });
  await target.waitForTimeout(300);
  return (await target.evaluate('window.__lat')) as number[];
};

/**
 * Typed twice into the form: as soon as it shows, while the browser still rasterises the page it just laid out
 * (on this machine's 2 cores, beside the main thread), and into another field once the page has settled.
 */
const SETTLE_MS = 3000;

const keyPressFigures = async (page: Page, empty: Page, label: string) => {
  const report = (when: string, lat: number[]) =>
    console.log(
      `key press to paint, ${label}, ${when} (200 fields): p95 ${p95(lat).toFixed(1)} ms, median ${median(lat).toFixed(1)} ms over ${lat.length} keys (goal ≤ 16 ms)`,
    );
  const atOnce = await keyLatencies(page, '#form-field-q0');
  if (process.env.BENCH_RAW) console.log(atOnce.map((x) => x.toFixed(0)).join(' '));
  report('typing as soon as the form shows', atOnce);
  const settled = await keyLatencies(page, '#form-field-q8', SETTLE_MS);
  if (process.env.BENCH_RAW) console.log(settled.map((x) => x.toFixed(0)).join(' '));
  report(`typing ${SETTLE_MS / 1000} s after`, settled);
  await empty.setContent('<input id="only">');
  const floor = await keyLatencies(empty, '#only', SETTLE_MS);
  console.log(
    `key press to paint, ${label}, a page with only an input (this measure's floor): p95 ${p95(floor).toFixed(1)} ms, median ${median(floor).toFixed(1)} ms`,
  );
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await signIn(page);

  // FIELD_TYPES=string isolates the cost of the pickers from the cost of the form engine.
  const types = process.env.FIELD_TYPES
    ? process.env.FIELD_TYPES.split(',')
    : ['string', 'radio', 'rating', 'toggle', 'dateTime', 'duration', 'time', 'button'];
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) {
    const type = types[i % types.length] as string;
    properties[`q${i}`] = { type, label: `Question ${i}`, ...(type === 'radio' || type === 'button' ? { enum: ['Yes', 'No'] } : {}) };
  }
  const name = `bench-200-${Date.now()}`;
  const created = await page.evaluate(
    async ({ name, properties }: { name: string; properties: Record<string, unknown> }) => {
      const csrf = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? '';
      const res = await fetch('/ifmapp/dynamic-form-templates/', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrftoken': csrf,
          authorization: `Bearer ${localStorage.getItem('access') ?? ''}`,
        },
        body: JSON.stringify({ name, label: 'Two hundred questions', metadata: { schema: { type: 'object', properties, required: [] } } }),
      });
      return res.json();
    },
    { name, properties },
  );
  const id = created.id as number;

  const loadBefore = load();
  const renders: number[] = [];
  // The first round loads the form screen's code; the p95 of the next 20 is their second slowest.
  for (let round = 0; round <= 20; round++) {
    await page.goto(`${BASE}/forms?search=${name}`);
    const fill = page.getByTestId(`form-card-${name}`).getByRole('link', { name: 'Fill' });
    await fill.waitFor();
    // A person reads the list before pressing Fill; by then the page that just loaded has settled.
    await page.waitForTimeout(1000);
    // A string, not a function: the TypeScript loader would wrap named helpers in code the page does not have.
    // This run's card by its exact name: the list does not read ?search= and shows earlier runs' forms too.
    const elapsed = (await page.evaluate(`new Promise((resolve) => {
      const link = document.querySelector('[data-testid="form-card-${name}"] a[href$="/create"]');
      const t0 = performance.now();
      link.click();
      const check = () => {
        if (document.querySelectorAll('[data-testid^="field-form-field-"]').length >= 200) requestAnimationFrame(() => resolve(performance.now() - t0));
        else requestAnimationFrame(check);
      };
      check();
    })`)) as number;
    if (round > 0) renders.push(elapsed);
  }
  console.log(
    `200-field form first render: p95 ${p95(renders).toFixed(0)} ms, median ${median(renders).toFixed(0)} ms (goal ≤ 300 ms); rounds ${renders.map((r) => r.toFixed(0)).join(', ')} ms`,
  );

  await keyPressFigures(page, await browser.newPage(), 'display frame clock');
  // One browser at a time: the first one's open form would otherwise keep working beside the second on 2 cores.
  await browser.close();
  const unthrottled = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...BROWSER_ARGS, ...UNTHROTTLED] });
  try {
    const other = await unthrottled.newPage({ viewport: { width: 1366, height: 900 } });
    await signIn(other);
    await other.goto(`${BASE}/form/${id}/create`);
    await other.locator('#form-field-q0').waitFor();
    await keyPressFigures(other, await unthrottled.newPage(), 'frames unthrottled');
  } finally {
    await unthrottled.close();
  }
  console.log(`fields: ${types.join(',')}; load average (1, 5, 15 min) before ${loadBefore}, after ${load()}`);
} finally {
  await browser.close();
}
