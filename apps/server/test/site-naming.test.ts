import { HELPDESK_MESSAGES, nameWithSite } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

/** Labels repeat at every site: alarms, cameras and tour stops carry their site's name, and are found by it. */
let t: TestApp;
let admin: TestClient;
let north: { id: number; name: string };
let south: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  north = await makeSite(admin, { name: 'Northgate Depot' });
  south = await makeSite(admin, { name: 'Southbank Depot' });
});
afterAll(() => t?.close());

describe('named with its site', () => {
  it('names each alarm with its site and finds alarms by the site name', async () => {
    const ups = [
      await makeDevice(admin, { type: 'UPS', label: 'UPS-77', assetId: north.id }),
      await makeDevice(admin, { type: 'UPS', label: 'UPS-77', assetId: south.id }),
    ];
    for (const d of ups)
      await t.db
        .insertInto('alarms')
        .values({ tenant_id: t.tenantA, device_id: d.id, rule_name: 'On battery', severity: 'MAJOR', message: 'UPS on battery' })
        .execute();
    const all = (await admin.get('/api/alarms/?search=UPS-77')).json().contents;
    expect(all.map((a: { deviceLabel: string; siteName: string }) => nameWithSite(a.deviceLabel, a.siteName)).sort()).toEqual([
      'UPS-77 · Northgate Depot',
      'UPS-77 · Southbank Depot',
    ]);
    const found = (await admin.get('/api/alarms/?search=southbank')).json();
    expect(found.contents.map((a: { deviceId: number }) => a.deviceId)).toEqual([ups[1]?.id]);
    expect(found.totalCount).toBe(1);
    expect((await admin.get(`/api/alarms/?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('names each camera with its site, finds cameras by the site name, and names tour stops with their site', async () => {
    const cams = [
      await makeDevice(admin, { type: 'CAMERA', label: 'CAM-77', assetId: north.id }),
      await makeDevice(admin, { type: 'CAMERA', label: 'CAM-77', assetId: south.id }),
    ];
    const found = (await admin.get('/api/cameras/?search=Northgate')).json();
    expect(found.contents.map((c: { id: number; siteName: string }) => [c.id, c.siteName])).toEqual([[cams[0]?.id, 'Northgate Depot']]);
    const byLabel = (await admin.get('/api/cameras/?search=CAM-77')).json().contents;
    expect(byLabel.map((c: { siteName: string }) => c.siteName)).toEqual(['Northgate Depot', 'Southbank Depot']);
  });

  it("refuses a device of another site than the ticket's location with words that say which is where", async () => {
    const gen = await makeDevice(admin, { type: 'GENERATOR', label: 'DG-77', assetId: north.id });
    const res = await admin.post('/helpdesk/tickets/', {
      title: 'No power',
      event: 'Power Failure',
      locationId: south.id,
      entityId: gen.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(HELPDESK_MESSAGES.deviceAtOtherSite('DG-77 · Northgate Depot', 'Southbank Depot'));
  });
});
