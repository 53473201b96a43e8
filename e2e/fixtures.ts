import { test as base, expect, type Page, request } from '@playwright/test';
import axe from 'axe-core';

export const PASSWORD = 'Demo@2026!';
export const CAPTCHA = 'E2ETS';

/** Console messages that are not failures of the page under test. */
const IGNORED = [/Download the React DevTools/, /favicon\.ico/];

type Fixtures = {
  /** Fails the test on any console error or uncaught exception of the page. */
  consoleGuard: undefined;
  signIn: (username: string, options?: { role?: string; next?: string }) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error' || IGNORED.some((re) => re.test(message.text()))) return;
        // The sign-in check asks /current-login/ first; a 401 there is how a signed-out visit begins.
        if (/status of 401/.test(message.text()) && message.location().url.includes('/current-login/')) return;
        errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use();
      const allowed = (testInfo.annotations.find((a) => a.type === 'allow-console-errors')?.description ?? '').split('|').filter(Boolean);
      const unexpected = errors.filter((e) => !allowed.some((a) => e.includes(a)));
      expect(unexpected, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
  signIn: async ({ page }, use) => {
    await use(async (username, options = {}) => {
      await signInThroughForm(page, username, options);
    });
  },
});

/** Signs in with the password form of /{role}/login/ and waits for the app shell. */
export async function signInThroughForm(page: Page, username: string, options: { role?: string; next?: string } = {}) {
  const role = options.role ?? 'auth';
  const next = options.next ? `?next=${encodeURIComponent(options.next)}` : '';
  await page.goto(`/${role}/login/${next}`);
  await submitSignInForm(page, username);
  await page.waitForURL((url) => !url.pathname.includes('/login'));
}

/** Fills the password form of the sign-in page open in `page` and sends it, without waiting for the outcome. */
export async function submitSignInForm(page: Page, username: string, captcha = CAPTCHA) {
  // A person answers the captcha they see: a form sent before the image arrives is refused.
  await expect(page.getByTestId('captcha-image')).toBeVisible();
  await page.getByLabel(/username/i).fill(username);
  await page.getByLabel(/^password/i).fill(PASSWORD);
  await page.getByLabel(/captcha/i).fill(captcha);
  await page.getByRole('button', { name: /sign in|login|log in/i }).click();
}

/**
 * Signs in through the API with the test captcha; the returned context carries the session cookie and sends the
 * CSRF header, so tests can prepare data or read what the UI cannot show (the SMS outbox).
 */
export async function apiSession(baseURL: string, username: string) {
  const context = await request.newContext({ baseURL });
  // the CSRF cookie, as the web app fetches it before its first unsafe request
  await context.get('/api/auth/csrf/');
  const captcha = await (await context.get('/api/auth/captcha/')).json();
  const csrf = async () => (await context.storageState()).cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
  const login = await context.post('/api/auth/login/', {
    data: { username, password: PASSWORD, captchaId: captcha.captchaId, captcha: CAPTCHA },
    headers: { 'x-csrftoken': await csrf() },
  });
  if (!login.ok()) throw new Error(`API sign-in of ${username} failed: ${login.status()} ${await login.text()}`);
  const body = await login.json();
  const headers = async () => ({ 'x-csrftoken': await csrf(), authorization: `Bearer ${body.access}` });
  return {
    context,
    user: body.user,
    get: async (url: string) => context.get(url, { headers: await headers() }),
    post: async (url: string, data?: unknown) => context.post(url, { data, headers: await headers() }),
    put: async (url: string, data?: unknown) => context.put(url, { data, headers: await headers() }),
    delete: async (url: string) => context.delete(url, { headers: await headers() }),
    dispose: () => context.dispose(),
  };
}

/**
 * A user of the test's own, made by the customer admin through the API with the demo password; `more` adds fields
 * of the user form (a group, notification settings). Returns its username and id.
 */
export async function createUser(
  baseURL: string,
  user: { username: string; firstname: string; lastname: string; role: string; more?: Record<string, unknown> },
) {
  const api = await apiSession(baseURL, 'customeradmin');
  const created = await api.post('/iotapp/users/', {
    username: user.username,
    email: `${user.username}@demo.example.com`,
    firstname: user.firstname,
    lastname: user.lastname,
    userRole: [user.role],
    password: PASSWORD,
    ...user.more,
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as number;
  await api.dispose();
  return { username: user.username, id };
}

/**
 * Waits until the app is kept on the device: its service worker has installed (precached the build: hundreds of
 * files, slow on a busy machine), finished activating and controls the page. `navigator.serviceWorker.ready` resolves earlier, while the worker is still
 * activating; a page opened offline in that moment is not yet the one a phone would open.
 */
export async function appKeptOnDevice(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 60_000 });
}

export { expect };

export type Theme = 'light' | 'dark';

/** Switches the app's theme as a change in another tab does, and waits for the page drawn in it. */
export async function switchTheme(page: Page, theme: Theme) {
  await page.evaluate(async (mode) => {
    localStorage.setItem('config-theme', mode);
    window.dispatchEvent(new StorageEvent('storage', { key: 'config-theme', newValue: mode }));
    while (document.documentElement.dataset.theme !== mode) await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // colours that pass from one theme to the other are checked once they have arrived
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  }, theme);
}

/** Puts axe-core into the page once: moving inside the app keeps it (`window.axe`). */
export async function withAxe(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
}

/**
 * The colour-contrast violations axe-core finds in `selector` of the page in `theme`. For parts of a screen that
 * appear only after some work: the sweep of every screen (accessibility.spec.ts) sees each screen as the demo has it.
 */
export async function contrastViolations(page: Page, selector: string, theme: Theme) {
  await switchTheme(page, theme);
  await withAxe(page);
  return page.evaluate(async (include) => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    const result = await engine.run(
      { include: [include] },
      { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] },
    );
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html} (${n.failureSummary})`));
  }, selector);
}
