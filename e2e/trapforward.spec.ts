import { createSocket } from 'node:dgram';
import snmp from 'net-snmp';
import { expect, test } from './fixtures.ts';

/**
 * Trap forwarding in the browser: a customer admin adds a destination (an SNMP manager this test runs on loopback)
 * and a filter, a trap about a demo UPS reaches the server's receiver, is forwarded, and the destination counts it.
 */

test.describe.configure({ timeout: 120_000 });

const TRAP_PORT = Number(process.env.SNMP_TRAP_PORT ?? Number(process.env.E2E_PORT ?? 8181) + 2000);
/** The demo gives its UPS and generators 10.40.x.y (demo/snmp.ts). */
const DEMO_DEVICE_ADDRESS = '10.40.0.1';

interface Manager {
  port: number;
  got: string[];
  close(): Promise<void>;
}

async function manager(community: string): Promise<Manager> {
  const port = await new Promise<number>((resolve) => {
    const probe = createSocket('udp4');
    probe.bind(0, '127.0.0.1', () => {
      const p = probe.address().port;
      probe.close(() => resolve(p));
    });
  });
  const got: string[] = [];
  const receiver = snmp.createReceiver(
    { port, address: '127.0.0.1' },
    (error: Error | null, n: { pdu: { varbinds?: Array<{ oid: string; value: unknown }> } } | null) => {
      if (error || !n) return;
      for (const vb of n.pdu.varbinds ?? []) if (vb.oid === '1.3.6.1.6.3.1.1.4.1.0') got.push(String(vb.value));
    },
  );
  receiver.getAuthorizer().addCommunity(community);
  return { port, got, close: () => new Promise<void>((r) => receiver.close(() => r())) };
}

function sendTrap(oid: string, community: string) {
  return new Promise<void>((resolve, reject) => {
    const session = snmp.createSession('127.0.0.1', community, { trapPort: TRAP_PORT, version: snmp.Version2c });
    session.trap(
      oid,
      [{ oid: '1.3.6.1.6.3.18.1.3.0', type: snmp.ObjectType.IpAddress, value: DEMO_DEVICE_ADDRESS }],
      (error: Error | null) => {
        session.close();
        if (error) reject(error);
        else resolve();
      },
    );
  });
}

test('a customer admin forwards traps to a destination and sees them counted', async ({ page, signIn }) => {
  const stamp = Date.now().toString(36);
  const nms = await manager(`e2e-${stamp}`);
  try {
    await signIn('customeradmin', { next: '/trapforward/destinations' });
    await page.getByTestId('add-destination').click({ timeout: 30_000 });
    await page.getByTestId('destination-save').click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await page.getByTestId('destination-name').fill(`E2E NMS ${stamp}`);
    await page.getByTestId('destination-host').fill('127.0.0.1');
    await page.getByTestId('destination-port').fill(String(nms.port));
    await page.getByTestId('destination-save').click();
    await expect(page.getByText('Community is required for SNMP v1 and v2c')).toBeVisible();
    await page.getByTestId('destination-community').fill(`e2e-${stamp}`);
    await page.getByTestId('destination-save').click();
    const card = page.getByTestId('destination-card').filter({ hasText: `E2E NMS ${stamp}` });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('counter-sent')).toHaveText('0');
    // the secret never comes back to the browser
    await expect(page.getByText(`e2e-${stamp}`)).toHaveCount(0);

    await page.goto('/trapforward/filters');
    await page.getByTestId('add-filter').click({ timeout: 30_000 });
    await page.getByTestId('filter-name').fill(`E2E filter ${stamp}`);
    await page.getByTestId('filter-oid').fill('1.3.6.1.4.1.424242');
    await page
      .getByTestId('filter-destinations')
      .getByLabel(new RegExp(`E2E NMS ${stamp}`))
      .check();
    await page.getByTestId('filter-save').click();
    await expect(page.getByTestId('filter-card').filter({ hasText: `E2E filter ${stamp}` })).toBeVisible();

    // the tenant's own community, on the Receiving tab; the demo lists loopback as a relay
    await page.goto('/trapforward/filters?tab=receiving');
    await expect(page.getByRole('textbox', { name: /Relay addresses/ })).toHaveValue('127.0.0.1', { timeout: 30_000 });
    await expect(page.getByTestId('trap-community')).not.toContainText('sw');
    await page.getByRole('button', { name: 'Show' }).click();
    const community = (await page.getByTestId('trap-community').textContent()) ?? '';
    expect(community).toMatch(/^sw[\w-]{20,}$/);

    const oid = `1.3.6.1.4.1.424242.0.${Date.now() % 100000}`;
    await sendTrap(oid, community);
    await expect.poll(() => nms.got, { timeout: 30_000 }).toContain(oid);

    await page.goto('/trapforward/destinations');
    await expect
      .poll(
        async () => {
          await page.getByTestId('destinations-refresh').click();
          return page
            .getByTestId('destination-card')
            .filter({ hasText: `E2E NMS ${stamp}` })
            .getByTestId('counter-sent')
            .textContent();
        },
        { timeout: 30_000 },
      )
      .toBe('1');

    // the trap is from a device without a mapping for it: it shows among the unmatched traps
    await page.goto('/trapforward/filters?tab=unmatched');
    await expect(page.getByTestId('unmatched-list')).toContainText(oid);
    // named with its device's site, and found by the site's name
    const trap = page.getByTestId('unmatched-trap').filter({ hasText: oid });
    const site = ((await trap.getByTestId('site-name').textContent()) ?? '').replace(/^ · /, '');
    expect(site.length).toBeGreaterThan(2);
    await page.getByTestId('unmatched-search').fill(site);
    await expect(trap).toBeVisible();
    await expect
      .poll(async () =>
        (await page.getByTestId('unmatched-trap').getByTestId('site-name').allTextContents()).every((n) => n.includes(site)),
      )
      .toBe(true);

    // deleting asks first
    await page.goto('/trapforward/destinations');
    await page.getByRole('button', { name: `Delete E2E NMS ${stamp}` }).click();
    await expect(page.getByText(`Delete 'E2E NMS ${stamp}'?`)).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByTestId('destination-card').filter({ hasText: `E2E NMS ${stamp}` })).toHaveCount(0);
  } finally {
    await nms.close();
  }
});

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('destinations, filters, mappings and unmatched traps fit the screen', async ({ page, signIn }) => {
    await signIn('customeradmin', { next: '/trapforward/destinations' });
    await expect(page.getByTestId('destination-card').first()).toBeVisible({ timeout: 30_000 });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await fits()).toBeLessThanOrEqual(390);
    await page.getByTestId('add-destination').click();
    await expect(page.getByTestId('destination-form')).toBeVisible();
    const box = await page.getByTestId('destination-save').boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await page.goto('/trapforward/filters');
    await expect(page.getByTestId('filter-card').first()).toBeVisible({ timeout: 30_000 });
    expect(await fits()).toBeLessThanOrEqual(390);
    await page.getByTestId('tab-mappings').click();
    await expect(page.getByTestId('mapping-list')).toContainText('UPS on battery');
    expect(await fits()).toBeLessThanOrEqual(390);
    await page.getByTestId('tab-unmatched').click();
    expect(await fits()).toBeLessThanOrEqual(390);
    await page.getByTestId('tab-receiving').click();
    await expect(page.getByTestId('receiving-panel')).toBeVisible();
    expect(await fits()).toBeLessThanOrEqual(390);
  });

  test('a viewer cannot open the screens', async ({ page, signIn }) => {
    await signIn('customer', { next: '/trapforward/destinations' });
    await expect(page).toHaveURL(/access-denied/, { timeout: 30_000 });
  });
});
