import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appKeptOnDevice, expect, test } from './fixtures.ts';

const PORT = Number(process.env.E2E_PORT ?? 8181);

test.describe('network banner', () => {
  test('says "You are offline" when the network is cut and "Back online" when it returns; the push socket reconnects', async ({
    page,
    context,
    signIn,
  }) => {
    // requests the open page makes while cut off fail in the console: that is the point of the test
    test
      .info()
      .annotations.push({ type: 'allow-console-errors', description: 'ERR_INTERNET_DISCONNECTED|Failed to load resource|WebSocket' });
    // push sockets of the page that are open now (Chromium may or may not drop them while offline)
    let sockets = 0;
    page.on('websocket', (ws) => {
      if (!ws.url().endsWith('/ws')) return;
      sockets++;
      ws.on('close', () => sockets--);
    });
    await signIn('customeradmin');
    await expect(page.getByTestId('network-offline')).toHaveCount(0);
    await expect.poll(() => sockets).toBe(1);

    await context.setOffline(true);
    await expect(page.getByTestId('network-offline')).toHaveText(/You are offline/);

    await context.setOffline(false);
    await expect(page.getByTestId('network-offline')).toHaveCount(0);
    await expect(page.getByTestId('network-back')).toHaveText('Back online');
    await expect(page.getByTestId('network-back')).toHaveCount(0, { timeout: 10_000 });
    // live again: one open socket, reopened at once on the browser's online event if it was dropped
    await expect.poll(() => sockets, { timeout: 20_000 }).toBe(1);
  });

  test('says the server cannot be reached when the phone says it is online but nothing gets through, and "Back online" once it answers', async ({
    page,
    signIn,
  }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'Failed to load resource|WebSocket' });
    await signIn('customeradmin');
    await expect(page.getByTestId('profile-button')).toBeVisible();
    // a network that takes the requests and delivers none of them (a weak signal, a network without internet)
    await page.route(/\/(api|iotapp|helpdesk|notification|ifmapp)\/|\/health$/, (route) => route.abort('internetdisconnected'));
    await page.getByTestId('profile-button').click();
    await page.getByTestId('menu-my-profile').click();
    await expect(page.getByTestId('network-offline')).toHaveText(/^The server cannot be reached\./);
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);

    // the app asks again by itself every few seconds: no action of the user is needed
    await page.unrouteAll();
    await expect(page.getByTestId('network-back')).toHaveText('Back online', { timeout: 15_000 });
    await expect(page.getByTestId('network-offline')).toHaveCount(0);
  });
});

/**
 * A server of its own on a copy of the built web app, so that the test can stop it (dead backend) and change the
 * service worker (a new version deployed).
 */
test.describe('service worker', () => {
  test.describe.configure({ mode: 'serial', timeout: 150_000 });
  test.use({ serviceWorkers: 'allow' });
  const port = PORT + 3;
  const base = `http://localhost:${port}`;
  let dist: string;
  let dataDir: string;
  let server: ChildProcess | null = null;

  async function startServer() {
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        MQTT_PORT: String(port + 1000),
        DATA_DIR: dataDir,
        WEB_DIST: dist,
        DEMO: 'true',
        DEMO_CAMERAS: 'false',
        DEMO_SIMULATOR: 'false',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the test server did not start');
  }
  async function stopServer() {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }

  test.beforeAll(async () => {
    // a fresh embedded database migrates first: slow on a loaded machine
    test.setTimeout(180_000);
    dist = mkdtempSync(join(tmpdir(), 'sw-e2e-dist-'));
    dataDir = mkdtempSync(join(tmpdir(), 'sw-e2e-data-'));
    cpSync(process.env.WEB_DIST ?? 'apps/web/dist', dist, { recursive: true });
    await startServer();
  });
  test.afterAll(async () => {
    await stopServer();
    rmSync(dist, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a new version is announced and taken on "Reload"', async ({ page }) => {
    await page.goto(`${base}/auth/login/`);
    await appKeptOnDevice(page);
    await expect(page.getByTestId('new-version')).toHaveCount(0);

    // deploy a new version: the worker script changes (a new build changes its precache list the same way)
    appendFileSync(join(dist, 'sw.js'), "\nself.addEventListener('message',(e)=>{if(e.data==='version')e.ports[0].postMessage('v2')});\n");
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByTestId('new-version')).toContainText('A new version of Sitewatch is available.');

    const reloaded = page.waitForEvent('load');
    await page.getByTestId('new-version-reload').click();
    await reloaded;
    await appKeptOnDevice(page);
    const version = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e) => resolve(String(e.data));
          navigator.serviceWorker.controller?.postMessage('version', [channel.port2]);
          setTimeout(() => resolve('old version still in control'), 3000);
        }),
    );
    expect(version).toBe('v2');
    await expect(page.getByTestId('new-version')).toHaveCount(0);
  });

  test('a page opened while the server is down gets the offline page, which returns once it is back', async ({ page }) => {
    test
      .info()
      .annotations.push({ type: 'allow-console-errors', description: 'Failed to load resource|ERR_CONNECTION_REFUSED|Failed to fetch' });
    await page.goto(`${base}/auth/login/`);
    await appKeptOnDevice(page);

    await stopServer();
    await page.goto(`${base}/tickets?status=OPEN`);
    // nobody answered at all: the page says so (a gateway that answered 502 would be named instead)
    await expect(page).toHaveURL(`${base}/offline.html?returnUrl=${encodeURIComponent('/tickets?status=OPEN')}&reason=unreachable`);
    await expect(page.getByRole('heading', { name: "We can't reach the server right now" })).toBeVisible();
    // nobody answered: no gateway is blamed
    await expect(page.getByText('502 Bad Gateway')).toHaveCount(0);

    await startServer();
    // The page checks every few seconds by itself: while the server was starting it may already have gone back.
    // Otherwise "Try again now" takes the user back at once.
    if (page.url().includes('/offline.html')) {
      await page
        .getByTestId('offline-retry')
        .click({ timeout: 5000 })
        .catch(() => undefined);
    }
    await expect(page).toHaveURL(/\/(tickets|auth\/login)/);
  });

  test('a full page load while the browser is offline says so, and never blames the server', async ({ page, context }) => {
    test
      .info()
      .annotations.push({ type: 'allow-console-errors', description: 'ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch' });
    await page.goto(`${base}/auth/login/`);
    await appKeptOnDevice(page);

    await context.setOffline(true);
    try {
      await page.goto(`${base}/tickets?status=OPEN`);
      // the app kept on the device, or the offline page: either way it says the device is offline
      await expect(page.getByText('You are offline').first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('502 Bad Gateway')).toHaveCount(0);
      await expect(page.getByText("We can't reach the server right now")).toHaveCount(0);
    } finally {
      await context.setOffline(false);
    }
  });

  test('a gateway that answers 502 is named on the offline page', async ({ page }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'Failed to load resource|502' });
    await page.goto(`${base}/auth/login/`);
    await appKeptOnDevice(page);

    // the server is down behind a proxy that answers 502 to everything
    await stopServer();
    const gateway = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>502 Bad Gateway</h1>');
    });
    await new Promise<void>((resolve) => gateway.listen(port, '127.0.0.1', resolve));
    try {
      await page.goto(`${base}/tickets?status=OPEN`);
      await expect(page).toHaveURL(`${base}/offline.html?returnUrl=${encodeURIComponent('/tickets?status=OPEN')}&reason=502`);
      await expect(page.getByRole('heading', { name: "We can't reach the server right now" })).toBeVisible();
      await expect(page.getByText('The server answered 502 Bad Gateway')).toBeVisible();
      await expect(page.getByText('You are offline')).toHaveCount(0);
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
      await startServer();
    }
  });
});
