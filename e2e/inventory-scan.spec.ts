import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'uqr';
import config from '../playwright.config.ts';
import { apiSession, expect, test } from './fixtures.ts';

/**
 * Scanning an item label with the phone's camera: Chromium's fake camera plays a picture of the label's QR code, the
 * scanner decodes it and opens the item.
 */

const CODE = `E2E-SCN-${Date.now().toString(36).toUpperCase()}`;

/** One name for every run: the file is rewritten by each process that loads this spec and removed after the test. */
const VIDEO_FILE = join(tmpdir(), 'sitewatch-e2e-label.y4m');

/** One still frame of a QR code of `text`, black on white in the middle of a 640x480 picture, as a Y4M video. */
function qrVideo(text: string): string {
  const width = 640;
  const height = 480;
  const qr = encode(text, { border: 4 });
  const scale = Math.floor(360 / qr.size);
  const left = Math.floor((width - qr.size * scale) / 2);
  const top = Math.floor((height - qr.size * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < qr.size * scale; y++) {
    for (let x = 0; x < qr.size * scale; x++) {
      if (qr.data[Math.floor(y / scale)]?.[Math.floor(x / scale)]) luma[(top + y) * width + left + x] = 16;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  writeFileSync(VIDEO_FILE, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return VIDEO_FILE;
}

const base = config.use?.launchOptions ?? {};
test.use({
  viewport: { width: 390, height: 844 },
  permissions: ['camera'],
  launchOptions: {
    ...base,
    args: [
      ...(base.args ?? []),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${qrVideo(CODE)}`,
    ],
  },
});

test.afterAll(() => rmSync(VIDEO_FILE, { force: true }));

test('a store manager scans an item label with the camera and the item opens', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'storemanager');
  const made = await api.post('/iotapp/inventory/items/', { code: CODE, name: `E2E scanned ${CODE}`, tracking: 'QUANTITY', unit: 'pcs' });
  expect(made.status(), await made.text()).toBe(201);
  const item = (await made.json()) as { id: number };
  await api.dispose();

  await signIn('storemanager', { next: '/inventory-management' });
  await page.getByTestId('inventory-scan').click({ timeout: 30_000 });
  await expect(page.getByRole('dialog', { name: 'Scan item label' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/inventory-management/${item.id}/view$`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: `E2E scanned ${CODE}` })).toBeVisible();
});
