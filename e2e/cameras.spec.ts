import { expect, test } from './fixtures.ts';

type Camera = { id: number; label: string; parentLabel: string | null; configured: boolean; recordingEnabled: boolean; state: string };

test.describe('one notion of camera', () => {
  test.describe.configure({ timeout: 120_000 });

  test('every CAMERA device is in video, and a demo camera without a stream plays on its device page on demand', async ({
    page,
    signIn,
  }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: '404|503' });
    await signIn('customeradmin');
    const devices = await (await page.request.get('/iotapp/devices/?type=CAMERA&limit=1')).json();
    const cameras = await (await page.request.get('/api/cameras/?limit=200')).json();
    expect(cameras.totalCount).toBe(devices.totalCount);
    expect(cameras.totalCount).toBeGreaterThan(6);
    const onDemand = (cameras.contents as Camera[]).find((c) => c.configured && !c.recordingEnabled && c.parentLabel);
    expect(onDemand, 'a demo camera streamed on demand').toBeTruthy();
    const camera = onDemand as Camera;
    expect(camera.state).not.toBe('recording');

    await page.goto(`/devices/${camera.id}/view`);
    const panel = page.getByTestId('device-camera');
    await expect(panel).toBeVisible({ timeout: 30_000 });
    const video = panel.locator(`video[data-testid="live-video-${camera.id}"]`);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 60_000 }).toBeGreaterThan(0.2);
    await expect(panel.getByTestId('snapshot')).toBeVisible({ timeout: 30_000 });

    // leaving the page (to its recorder's page) releases the stream: the camera stops again
    await page.getByRole('link', { name: camera.parentLabel as string, exact: true }).click();
    await expect(page.getByTestId('device-camera')).toHaveCount(0);
    await expect
      .poll(async () => ((await (await page.request.get(`/api/cameras/${camera.id}/`)).json()) as Camera).state, { timeout: 30_000 })
      .not.toMatch(/recording|starting/);
  });
});
