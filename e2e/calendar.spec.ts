import type { Page } from '@playwright/test';
import { apiSession, expect, test } from './fixtures.ts';

/**
 * The calendar in the browser: create an event, move it by drag (one occurrence of a series), and a phone pass that
 * moves an event by a touch drag in the day view.
 */

test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: 'UTC' });

/** Demo data fills the days with shifts and due work orders; the tests look at kind "Other" alone. */
async function onlyOther(page: Page) {
  // After a save the address says /calendar while the form stays on screen until the calendar's code has come (the
  // router keeps the old page during a navigation), and the form has a Kind field too: wait for the calendar itself.
  await expect(page.getByTestId('calendar')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Kind' }).click({ timeout: 30_000 });
  await page.getByRole('option', { name: 'Other', exact: true }).click();
  // Until the menu has faded out its backdrop takes every pointer and touch meant for the calendar.
  await expect(page.locator('.MuiMenu-root')).toHaveCount(0);
}

/**
 * Events can be dragged once the user's permissions have come (the add button shows them), and boxes are measured
 * once the filtered list has replaced the unfiltered one (which laid the days out differently).
 */
async function readyToDrag(page: Page) {
  await expect(page.getByTestId('calendar-add')).toBeVisible();
  await expect(page.getByTestId('calendar')).toHaveAttribute('aria-busy', 'false');
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test('a customer admin creates an event from the form', async ({ page, signIn }) => {
  const title = `E2E visit ${Date.now().toString(36)}`;
  await signIn('customeradmin', { next: '/calendar/create' });
  await page.getByTestId('event-title').fill(title, { timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Other', exact: true }).click();
  await page.getByTestId('event-start').fill(`${day(0)}T10:00`);
  await page.getByTestId('event-end').fill(`${day(0)}T09:00`);
  await page.getByTestId('event-save').click();
  await expect(page.getByText('The end must be after the start')).toBeVisible();
  await page.getByTestId('event-end').fill(`${day(0)}T11:30`);
  // the message goes as soon as the end is fixed, before the next try
  await expect(page.getByText('The end must be after the start')).toHaveCount(0);
  // the pickers of one row line up
  const tops = await Promise.all(['event-start', 'event-end'].map(async (id) => (await page.getByTestId(id).boundingBox())?.y));
  expect(tops[0]).toBe(tops[1]);
  await page.getByTestId('event-save').click();
  await expect(page).toHaveURL(/\/calendar$/);
  await expect(page.getByText('Event created')).toBeVisible();
  await onlyOther(page);
  await expect(page.getByTestId('calendar-item').filter({ hasText: title })).toBeVisible();
});

test('an occurrence of a weekly series is moved by drag, the series stays', async ({ page, signIn, baseURL }) => {
  const title = `E2E rota ${Date.now().toString(36)}`;
  const api = await apiSession(baseURL as string, 'customeradmin');
  // Today and tomorrow are both in the month grid shown on load; tomorrow may begin the next week row.
  const made = await api.post('/api/calendar/events/', {
    title,
    kind: 'other',
    start: `${day(0)}T10:00`,
    end: `${day(0)}T12:00`,
    timeZone: 'UTC',
    recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: [] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const event = (await made.json()) as { id: number };

  await page.setViewportSize({ width: 1280, height: 1300 });
  await signIn('customeradmin', { next: '/calendar' });
  await page.getByTestId('cookie-consent-accept').click();
  await onlyOther(page);
  const item = page.locator(`[data-item-id="${event.id}:${day(0)}T10:00"]`);
  await expect(item).toBeVisible({ timeout: 30_000 });
  await readyToDrag(page);
  await item.scrollIntoViewIfNeeded();
  const target = page.locator(`[data-date="${day(1)}"]`).first();
  await expect(target).toBeVisible();
  // A drag that the calendar did not take up (a pointer event it missed while busy) changes nothing: the gesture is
  // made again on boxes measured anew until the calendar asks what to move.
  await expect(async () => {
    const from = await item.boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error('no boxes to drag between');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect(page.getByTestId('reschedule-occurrence')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByTestId('reschedule-occurrence').click();
  await expect(page.getByText('Event rescheduled')).toBeVisible();
  await expect(page.locator(`[data-item-id$=":${day(1)}T10:00"]`).filter({ hasText: title })).toBeVisible();

  const series = (await (await api.get(`/api/calendar/events/${event.id}/`)).json()) as { exceptions: string[] };
  expect(series.exceptions).toEqual([`${day(0)}T10:00`]);
  await api.delete(`/api/calendar/events/${event.id}/`);
  await api.dispose();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the calendar opens as a list that fits the screen, and the form is usable', async ({ page, signIn, baseURL }) => {
    const title = `E2E phone ${Date.now().toString(36)}`;
    const api = await apiSession(baseURL as string, 'customeradmin');
    const made = await api.post('/api/calendar/events/', {
      title,
      kind: 'site_visit',
      start: `${day(0)}T23:00`,
      end: `${day(0)}T23:30`,
      timeZone: 'UTC',
    });
    expect(made.status(), await made.text()).toBe(201);
    const event = (await made.json()) as { id: number };

    await signIn('customeradmin', { next: '/calendar' });
    const item = page.getByTestId('calendar-item').filter({ hasText: title });
    await expect(item).toBeVisible({ timeout: 30_000 });
    // The cookie banner covers the bottom of a phone screen until accepted.
    await page.getByTestId('cookie-consent-accept').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // every item's title is whole: it wraps instead of being cut off at the edge
    const clipped = await page
      .getByTestId('calendar-item')
      .evaluateAll(
        (items) => items.flatMap((i) => [i, ...i.querySelectorAll('*')]).filter((e) => e.scrollWidth > e.clientWidth + 1).length,
      );
    expect(clipped).toBe(0);
    await item.click();
    await expect(page).toHaveURL(new RegExp(`/calendar/${event.id}/edit$`));
    await expect(page.getByTestId('event-title')).toHaveValue(title);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('event-delete').click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Event deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/calendar$/);
    await api.dispose();
  });

  test.describe('with a touch screen', () => {
    test.use({ hasTouch: true, isMobile: true });

    test('an event is moved by a long-press drag in the day view', async ({ page, signIn, baseURL }) => {
      const title = `E2E touch ${Date.now().toString(36)}`;
      const api = await apiSession(baseURL as string, 'customeradmin');
      const made = await api.post('/api/calendar/events/', {
        title,
        kind: 'other',
        // Early hours no other test uses: an event beside it would narrow this one between measuring and touching.
        start: `${day(0)}T03:00`,
        end: `${day(0)}T04:00`,
        timeZone: 'UTC',
      });
      expect(made.status(), await made.text()).toBe(201);
      const event = (await made.json()) as { id: number };

      await signIn('customeradmin', { next: '/calendar' });
      await page.getByTestId('cookie-consent-accept').click();
      await page.getByRole('tab', { name: 'Day view' }).click({ timeout: 30_000 });
      await onlyOther(page);
      const item = page.getByTestId('calendar-item').filter({ hasText: title });
      await expect(item).toBeVisible({ timeout: 30_000 });
      await readyToDrag(page);
      const target = page.locator('[data-time="06:00:00"]').last();
      // The slot in the middle of the screen, the event three hours above it: both under the finger's path, and the
      // finger far from the edges, where the calendar scrolls on its own while an event is dragged.
      await target.evaluate((slot) => slot.scrollIntoView({ block: 'center' }));
      const from = await item.boundingBox();
      const to = await target.boundingBox();
      if (!from || !to) throw new Error('no boxes to drag between');

      // A finger: press and hold (FullCalendar starts a touch drag after a long press), slide down, lift.
      const touch = await page.context().newCDPSession(page);
      const at = (x: number, y: number) => [{ x: Math.round(x), y: Math.round(y) }];
      const x = from.x + from.width / 2;
      const y0 = from.y + Math.min(8, from.height / 2);
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x, y0) });
      // Held on the page's own clock: a timer set after the calendar's long-press timer fires after it, however
      // late a busy machine runs them (a wait in the test could end before the calendar's timer ran).
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1_200)));
      const y1 = y0 + (to.y - from.y);
      for (let step = 1; step <= 12; step++) {
        await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x, y0 + ((y1 - y0) * step) / 12) });
      }
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });

      await expect(page.getByText('Event rescheduled')).toBeVisible();
      await expect
        .poll(async () => ((await (await api.get(`/api/calendar/events/${event.id}/`)).json()) as { start: string }).start)
        .toMatch(new RegExp(`^${day(0)}T06:00`));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await api.delete(`/api/calendar/events/${event.id}/`);
      await api.dispose();
    });
  });
});
