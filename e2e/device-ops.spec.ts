import { apiSession, expect, test } from './fixtures.ts';

/** Device operations: open a door and see its event, switch an RTU output, run a diagnostic with live output, phone. */

// The door and RTU tests wait up to three minutes for a device the simulator drives (`onlineOf`), and take their own
// time for that; the others keep the default, or say why they need more.
const WAITS_FOR_A_LIVE_DEVICE = 300_000;

interface Door {
  deviceId: number;
  deviceLabel: string;
  assetId: number;
  siteName: string;
  door: number;
  name: string;
  status: string;
  lastActivityAt: string | null;
}
interface Rtu {
  deviceId: number;
  deviceLabel: string;
  assetId: number;
  status: string;
  lastActivityAt: string | null;
  outputs: { no: number; name: string; on: boolean | null }[];
}

/**
 * A device the simulator drives right now: its last contact moves between two looks (the demo keeps some devices
 * offline, never connected, or at sites whose link is down at night).
 */
async function onlineOf<T extends { deviceId: number; status: string; lastActivityAt: string | null }>(
  baseURL: string,
  path: string,
): Promise<T> {
  const api = await apiSession(baseURL, 'customeradmin');
  const seen = new Map<number, string | null>();
  try {
    for (let attempt = 0; attempt < 90; attempt++) {
      const list = (await (await api.get(path)).json()).contents as T[];
      const found = list.find((x) => x.status === 'Online' && seen.has(x.deviceId) && x.lastActivityAt !== seen.get(x.deviceId));
      if (found) return found;
      for (const x of list) if (!seen.has(x.deviceId)) seen.set(x.deviceId, x.lastActivityAt);
      await new Promise((r) => setTimeout(r, 2000));
    }
    throw new Error(`no live device in ${path}`);
  } finally {
    await api.dispose();
  }
}

test('opens a door remotely after a confirmation and sees the event', async ({ page, signIn, baseURL }) => {
  test.setTimeout(WAITS_FOR_A_LIVE_DEVICE);
  const door = await onlineOf<Door>(baseURL as string, '/api/device-ops/access/doors/?limit=200');
  await signIn('customeradmin', { next: '/access-control' });
  await expect(page.getByRole('heading', { name: 'Access Control' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('site-picker').getByRole('combobox').fill(door.siteName);
  await page.getByRole('option', { name: door.siteName, exact: true }).click();
  const card = page.getByTestId('door-card').filter({ hasText: door.name }).first();
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByTestId('open-door').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`Open ${door.name}`);
  await dialog.getByTestId('confirm-dialog-confirm').click();
  await expect(card.getByTestId('command-state')).toBeVisible();
  await expect(card.getByTestId('command-state')).toHaveText('Successful', { timeout: 60_000 });
  const row = page.getByTestId('event-row').filter({ hasText: 'Opened remotely' }).filter({ hasText: door.name }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
});

test('switches an RTU output on one site and sees it follow', async ({ page, signIn, baseURL }) => {
  test.setTimeout(WAITS_FOR_A_LIVE_DEVICE);
  const rtu = await onlineOf<Rtu>(baseURL as string, '/api/device-ops/rtus/?limit=200');
  const output = rtu.outputs[0];
  if (!output) throw new Error('RTU without outputs');
  await signIn('customeradmin', { next: '/rtu-multisite' });
  await expect(page.getByRole('heading', { name: 'RTU' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('rtu-card').first()).toBeVisible({ timeout: 30_000 });
  await page.goto(`/eth-single-site/view/${rtu.assetId}`);
  const card = page.getByTestId('rtu-card').filter({ hasText: rtu.deviceLabel });
  const toggle = card.getByRole('switch', { name: `${output.name} of ${rtu.deviceLabel}` });
  await expect(toggle).toBeVisible({ timeout: 30_000 });
  const wasOn = await toggle.isChecked();
  await toggle.click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`Switch ${output.name} of ${rtu.deviceLabel} ${wasOn ? 'off' : 'on'}?`);
  await dialog.getByTestId('confirm-dialog-confirm').click();
  await expect(card.getByTestId('command-state').first()).toHaveText('Successful', { timeout: 60_000 });
  if (wasOn) await expect(toggle).not.toBeChecked({ timeout: 30_000 });
  else await expect(toggle).toBeChecked({ timeout: 30_000 });
});

test('runs a diagnostic and sees its output streamed live', async ({ page, signIn, baseURL }) => {
  // two runs whose lines arrive over seconds each (a ping waits for its replies)
  test.setTimeout(120_000);
  const api = await apiSession(baseURL as string, 'customeradmin');
  const routers = (await (await api.get('/api/device-ops/diagnostics/targets/?search=RTR-01&limit=5')).json()).contents as {
    deviceLabel: string;
    siteName: string;
    host: string | null;
  }[];
  await api.dispose();
  const router = routers.find((r) => r.host);
  if (!router) throw new Error('no router with a host');
  await signIn('customeradmin', { next: '/diagnostics' });
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible({ timeout: 30_000 });
  const device = page.getByTestId('diagnostic-device').getByRole('combobox');
  await device.fill(router.siteName);
  // every site has an RTR-01: the option is the one of this site
  await page.getByRole('option').filter({ hasText: router.deviceLabel }).filter({ hasText: router.siteName }).first().click();
  // the device picked stays picked (a search answered after the click must not undo it)
  await expect(device).toHaveValue(`${router.deviceLabel} · ${router.siteName}`);
  await page.getByTestId('diagnostic-tool').click();
  await page.getByRole('option', { name: 'Ping' }).click();
  await page.getByTestId('run-diagnostic').click();
  const output = page.getByTestId('diagnostic-output');
  // the probe's lines arrive one by one, then the run ends
  await expect(output).toContainText(router.host as string, { timeout: 45_000 });
  await expect(output).toContainText(/attempt 1|bytes from|icmp_seq/, { timeout: 20_000 });
  await expect(page.getByTestId('diagnostic-status')).toHaveText(/Succeeded|Failed/, { timeout: 40_000 });
  await expect(output).toContainText(/of 4 connected|packets transmitted/);
  await page.getByTestId('diagnostic-tool').click();
  await page.getByRole('option', { name: 'Last contact (MQTT/HTTP)' }).click();
  await page.getByTestId('run-diagnostic').click();
  await expect(output).toContainText('Status:', { timeout: 45_000 });
  await expect(output).toContainText('Last contact over MQTT/HTTP');
  await expect(page.getByTestId('diagnostic-status')).toHaveText('Succeeded', { timeout: 15_000 });
  await expect(page.getByTestId('attach-run')).toBeVisible();
});

test('probes a camera stream of a demo site (answered by the simulator) and sees its lines, without the credentials', async ({
  page,
  signIn,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await apiSession(baseURL as string, 'customeradmin');
  const [site] = (await (await api.get('/iotapp/assets/?limit=1')).json()).contents as { id: number; name: string }[];
  if (!site) throw new Error('no site');
  const label = `CAM-PROBE-${Date.now()}`;
  // a private address on a demo tenant: the demo's simulated network answers for it, and nothing leaves the machine
  const created = await api.post('/iotapp/devices/', {
    label,
    type: 'CAMERA',
    assetId: site.id,
    metadata: { rtspUrl: 'rtsp://viewer:s3cr3t-pw@10.255.255.1:554/live' },
  });
  expect(created.status()).toBe(201);
  const camera = (await created.json()) as { id: number };
  try {
    await signIn('customeradmin', { next: '/diagnostics' });
    await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('diagnostic-device').getByRole('combobox').fill(label);
    await page.getByRole('option').filter({ hasText: label }).first().click();
    await expect(page.getByTestId('diagnostic-device').getByRole('combobox')).toHaveValue(`${label} · ${site.name}`);
    await page.getByTestId('diagnostic-tool').click();
    await page.getByRole('option', { name: 'RTSP stream probe' }).click();
    await expect(page.getByTestId('diagnostic-target')).toHaveText('Stream: rtsp://***@10.255.255.1:554/live');
    await page.getByTestId('run-diagnostic').click();
    const output = page.getByTestId('diagnostic-output');
    await expect(output).toContainText('RTSP stream probe: rtsp://***@10.255.255.1:554/live', { timeout: 30_000 });
    await expect(output).toContainText('simulated network: the demo simulator answers for this device; nothing is sent', {
      timeout: 20_000,
    });
    await expect(output).toContainText(/video: h264 \d+x\d+/, { timeout: 20_000 });
    await expect(page.getByTestId('diagnostic-status')).toHaveText('Succeeded', { timeout: 20_000 });
    await expect(output).not.toContainText('s3cr3t-pw');
    await expect(page.getByTestId('attach-run')).toBeVisible();
  } finally {
    // The page is closed before the device is deleted: it follows the device, and would ask for what is gone.
    await page.close();
    await api.delete(`/iotapp/devices/${camera.id}/`);
    await api.dispose();
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every device operations screen fits 390 px', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/access-control' });
    const screens = [
      { path: '/access-control', ready: 'door-card' },
      { path: '/router', ready: 'router-card' },
      { path: '/rtu-multisite', ready: 'rtu-card' },
      { path: '/diagnostics', ready: 'run-diagnostic' },
    ];
    for (const s of screens) {
      await page.goto(s.path);
      await expect(page.getByTestId(s.ready).first()).toBeVisible({ timeout: 30_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${s.path} scrolls sideways`).toBeLessThanOrEqual(1);
    }
    await page.goto('/router');
    await page.getByTestId('router-charts').first().click();
    await expect(page.getByTestId('router-detail')).toBeVisible();
    await expect(page.getByText('Cellular SIM 1 signal (dBm)')).toBeVisible();
  });

  test('a user without diagnostics rights is refused the screen', async ({ page, signIn }) => {
    await signIn('customer', { next: '/diagnostics' });
    await expect(page).toHaveURL(/access-denied/);
  });
});
