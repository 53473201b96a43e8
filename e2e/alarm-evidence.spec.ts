import { apiSession, expect, test } from './fixtures.ts';

interface Clip {
  id: number;
  cameraId: number;
  cameraLabel: string;
  status: string;
  eventAt: string;
}

/** An alarm ticket of the demo tenant with a ready clip of its mapped camera (the demo's evidence). */
async function alarmTicketWithClip(baseURL: string) {
  const api = await apiSession(baseURL, 'customeradmin');
  try {
    const tickets = (await (await api.get('/helpdesk/tickets/?type=AlarmTicket&limit=200')).json()).contents as Array<{
      id: number;
      entityId: number | null;
    }>;
    for (const ticket of tickets) {
      const clips = (await (await api.get(`/api/video-evidence/?ticketId=${ticket.id}`)).json()).contents as Clip[];
      // a ticket of a device that is not itself the camera (its Device Details offers the mapped cameras)
      const clip = clips.find((c) => c.status === 'ready' && c.cameraId !== ticket.entityId);
      if (clip) return { ticketId: ticket.id, clip };
    }
    throw new Error('no alarm ticket with a clip in the demo data');
  } finally {
    await api.dispose();
  }
}

test('an alarm ticket plays its mapped camera clip and opens live view and playback at the event time', async ({
  page,
  signIn,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { ticketId, clip } = await alarmTicketWithClip(baseURL as string);
  await signIn('customeradmin', { next: `/tickets/all/${ticketId}` });
  const section = page.getByTestId('ticket-video-evidence');
  await expect(section).toBeVisible({ timeout: 30_000 });
  const item = section.getByTestId('evidence-clip').filter({ hasText: clip.cameraLabel }).first();
  await expect(item.getByTestId('evidence-status')).toHaveText('Ready');
  // the clip is a real MP4 the browser can play
  const video = item.getByTestId('evidence-video');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(5);

  // one click: the camera's live view and its recording from the event time
  await item.getByTestId('evidence-open-camera').click();
  await expect(page).toHaveURL(new RegExp(`/cctv/view/${clip.cameraId}\\?at=`));
  expect(Date.parse(new URL(page.url()).searchParams.get('at') as string)).toBe(Date.parse(clip.eventAt));
  await expect(page.getByText(/^At the event:/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId(`recording-${clip.cameraId}`)).toBeVisible();

  // from the ticket's device (an alarm panel, not a camera): its mapped cameras at the ticket's event time
  await page.goBack();
  const details = page.getByTestId('device-details');
  await expect(details).toBeVisible({ timeout: 30_000 });
  await details.getByTestId('camera-at-event').click();
  const menu = page.getByRole('menu');
  if (await menu.isVisible().catch(() => false)) await menu.getByRole('menuitem').first().click();
  await expect(page).toHaveURL(/\/cctv\/view\/\d+\?at=/, { timeout: 15_000 });
});

test('a camera region and hours are drawn on its picture and saved', async ({ page, signIn }) => {
  test.setTimeout(120_000);
  await signIn('customeradmin', { next: '/image-analysis' });
  const actions = page.getByTestId('camera-actions');
  await expect(actions).toBeVisible({ timeout: 30_000 });
  await actions.getByLabel('Camera').fill('Main Gate');
  await page
    .getByRole('option', { name: /Main Gate/ })
    .first()
    .click();
  await actions.getByTestId('region-open').click();
  const dialog = page.getByTestId('region-dialog');
  const picture = dialog.getByTestId('region-picture');
  await expect(picture).toBeVisible({ timeout: 30_000 });
  const box = await picture.boundingBox();
  if (!box) throw new Error('no picture');
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.9, { steps: 5 });
  await page.mouse.up();
  await expect(dialog.getByTestId('region-box')).toBeVisible();
  await dialog.getByTestId('region-from').fill('22:00');
  await dialog.getByTestId('region-to').fill('05:30');
  await dialog.getByTestId('region-save').click();
  await expect(page.getByText(/Motion region saved for Main Gate/)).toBeVisible();
  // saved: reopening shows the region and the hours
  await actions.getByTestId('region-open').click();
  await expect(page.getByTestId('region-dialog').getByTestId('region-box')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('region-dialog').getByTestId('region-from')).toHaveValue('22:00');
});

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the ticket evidence and the camera view at the event fit the screen', async ({ page, signIn, baseURL }) => {
    test.setTimeout(120_000);
    const { ticketId, clip } = await alarmTicketWithClip(baseURL as string);
    await signIn('customeradmin', { next: `/tickets/all/${ticketId}` });
    const section = page.getByTestId('ticket-video-evidence');
    await expect(section).toBeVisible({ timeout: 30_000 });
    const open = section.getByTestId('evidence-open-camera').first();
    await open.scrollIntoViewIfNeeded();
    const button = await open.boundingBox();
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await open.click();
    await expect(page).toHaveURL(new RegExp(`/cctv/view/${clip.cameraId}\\?at=`));
    await expect(page.getByText(/^At the event:/)).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
