import { DEVICE_MESSAGES, type DeviceAlarmActionEvent } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/platform/events.ts';
import { entriesOf } from './activity-log-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { accessTokenOf, makeDevice, makeEstateSite, makeSite } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

describe('device hierarchy', () => {
  it('names devices by their path, places children at their parent site and keeps the type rules', async () => {
    const { site, router, dvr, cam1 } = await makeEstateSite(admin, { metadata: { assetCode: 'HYD-7' } });
    expect([router.name, dvr.name, cam1.name]).toEqual(['HYD-7:RTR', 'HYD-7:RTR:DVR1', 'HYD-7:RTR:DVR1:CAM1']);
    expect(cam1.assetId).toBe(site.id);
    const wrong = await admin.post('/iotapp/devices/', { label: 'CAMX', type: 'CAMERA', parentId: router.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toContain('A Camera can only be placed under a DVR/NVR');
    const other = await makeSite(admin);
    const mismatch = await admin.post('/iotapp/devices/', { label: 'CAMY', type: 'CAMERA', parentId: dvr.id, assetId: other.id });
    expect(mismatch.json().detail).toContain('another site');
    const dup = await admin.post('/iotapp/devices/', { label: 'CAM1', type: 'CAMERA', parentId: dvr.id });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe(DEVICE_MESSAGES.alreadyExists);

    const detail = (await admin.get(`/iotapp/devices/${dvr.id}/`)).json();
    expect(detail).toMatchObject({
      isParent: true,
      childDevicesCount: 3,
      parent: { id: router.id, label: 'RTR', type: 'ROUTER' },
      asset: { id: site.id },
      status: 'Not yet connected',
      metadata: { muteDevice: false, maintenance: false, enableDevice: true },
    });
    // the access token is in no device answer, for any role: only its recorded copy action reads it
    expect(detail.accessToken).toBeUndefined();
    expect((await admin.get('/iotapp/devices/?limit=200')).body).not.toContain(dvr.accessToken);
    expect(dvr.accessToken).toMatch(/^[\w-]{20}$/);
    const viewer = await t.login('customer');
    expect((await viewer.get(`/iotapp/devices/${dvr.id}/`)).json().accessToken).toBeUndefined();
    expect((await viewer.post(`/iotapp/devices/${dvr.id}/access-token/`)).statusCode).toBe(403);
    const entries = await entriesOf(admin, 'device', dvr.id);
    expect(entries.map((e) => e.action)).toContain('device.access-token.read');
    expect(JSON.stringify(entries)).not.toContain(dvr.accessToken);
    expect((await viewer.post('/iotapp/devices/', { label: 'x', type: 'SENSOR' })).statusCode).toBe(403);
  });

  it('moves a subtree with its parent, refuses cycles and type changes that orphan children', async () => {
    const a = await makeEstateSite(admin, { metadata: { assetCode: 'MOVE-A' } });
    const b = await makeEstateSite(admin, { metadata: { assetCode: 'MOVE-B' } });
    const moved = await admin.put(`/iotapp/devices/${a.dvr.id}/`, { parentId: b.router.id, label: 'DVR9' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ name: 'MOVE-B:RTR:DVR9', assetId: b.site.id });
    expect((await admin.get(`/iotapp/devices/${a.cam1.id}/`)).json()).toMatchObject({ name: 'MOVE-B:RTR:DVR9:CAM1', assetId: b.site.id });
    expect((await admin.get(`/iotapp/devices/${a.router.id}/`)).json().childDevicesCount).toBe(1);
    const cycle = await admin.put(`/iotapp/devices/${b.router.id}/`, { parentId: b.router.id });
    expect(cycle.statusCode).toBe(400);
    const orphan = await admin.put(`/iotapp/devices/${b.dvr.id}/`, { type: 'UPS' });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().detail).toContain('cannot stay under');
    // Only the named fields change.
    const relabel = (await admin.put(`/iotapp/devices/${b.genset.id}/`, { metadata: { vendor: 'Cummins' } })).json();
    expect(relabel).toMatchObject({ parentId: b.router.id, assetId: b.site.id, metadata: { vendor: 'Cummins', enableDevice: true } });
    expect((await admin.put(`/iotapp/devices/${b.genset.id}/`, { metadata: { muteDevice: 'yes' } })).statusCode).toBe(400);
  });

  it('keeps children when a parent is deleted', async () => {
    const e = await makeEstateSite(admin, { metadata: { assetCode: 'DEL-1' } });
    expect((await admin.delete(`/iotapp/devices/${e.dvr.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/devices/${e.cam1.id}/`)).json()).toMatchObject({
      parentId: null,
      name: 'DEL-1:CAM1',
      assetId: e.site.id,
    });
    expect((await admin.get(`/iotapp/devices/${e.dvr.id}/`)).statusCode).toBe(404);
  });

  it('applies the noSpaces label rule when the customer sets it', async () => {
    await admin.put('/iotapp/customer-settings/', { deviceLabelRule: 'noSpaces' });
    const bad = await admin.post('/iotapp/devices/', { label: 'Front door', type: 'SENSOR' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe(DEVICE_MESSAGES.labelNoSpaces);
    expect((await admin.post('/iotapp/devices/', { label: 'Front_door-1', type: 'SENSOR' })).statusCode).toBe(201);
    await admin.put('/iotapp/customer-settings/', { deviceLabelRule: 'any' });
  });
});

describe('device lists', () => {
  let fresh: TestApp;
  let a: TestClient;
  let e1: Awaited<ReturnType<typeof makeEstateSite>>;
  let e2: Awaited<ReturnType<typeof makeEstateSite>>;
  let spare: { id: number };
  beforeAll(async () => {
    fresh = await createTestApp();
    a = await fresh.login('customeradmin');
    e1 = await makeEstateSite(a, { name: 'Pune Camp', metadata: { assetCode: 'PNQ' } });
    e2 = await makeEstateSite(a, { name: 'Goa Panjim', metadata: { assetCode: 'GOI' } });
    spare = await makeDevice(a, { type: 'UPS', label: 'SPARE-UPS' });
    await fresh.db.updateTable('devices').set({ status: 'Online' }).where('id', 'in', [e1.router.id, e1.cam1.id]).execute();
    await fresh.db
      .updateTable('devices')
      .set({ alarm_status: 'MAJOR', alarm_updated_at: new Date() })
      .where('id', '=', e2.cam2.id)
      .execute();
    await fresh.db
      .updateTable('devices')
      .set({ alarm_status: 'MINOR', alarm_updated_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', e1.cam2.id)
      .execute();
  });
  afterAll(() => fresh?.close());

  const labels = async (query: string) => (await a.get(`/iotapp/devices/?${query}`)).json().contents.map((d: { label: string }) => d.label);
  const ids = async (query: string) =>
    (await a.get(`/iotapp/devices/compact-list/?${query}`)).json().contents.map((d: { id: number }) => d.id);

  it('filters the device list by every named parameter', async () => {
    expect(await labels('name__icontains=pnq:rtr:dvr1:&orderBy=label')).toEqual(['CAM1', 'CAM2', 'HDD1']);
    expect(await labels('assetId=null')).toEqual(['SPARE-UPS']);
    expect((await a.get('/iotapp/devices/?assetId=!null&limit=1')).json().totalCount).toBe(12);
    expect(await labels(`assetId=${e1.site.id}&type=CAMERA,HDD&orderBy=-label`)).toEqual(['HDD1', 'CAM2', 'CAM1']);
    expect(await labels(`assetId=${e1.site.id}&status=Online&orderBy=label`)).toEqual(['CAM1', 'RTR']);
    expect(await labels(`assetId=${e2.site.id}&isParent=true&orderBy=label`)).toEqual(['DVR1', 'RTR']);
    expect(await labels('searchText=goa&searchKeys=site__name&type=ROUTER')).toEqual(['RTR']);
    expect(await labels(`parentId=${e1.dvr.id}&label__icontains=cam&orderBy=label`)).toEqual(['CAM1', 'CAM2']);
    expect(await labels(`alarmStatus=MAJOR`)).toEqual(['CAM2']);
    const page = (await a.get(`/iotapp/devices/?assetId=${e1.site.id}&orderBy=name&limit=4&page=2`)).json();
    expect(page.totalCount).toBe(6);
    // Names sort byte-wise, so a parent comes before its children.
    expect(page.contents.map((d: { name: string }) => d.name)).toEqual(['PNQ:RTR:DVR1:CAM2', 'PNQ:RTR:DVR1:HDD1']);
  });

  it('lists the device types present with groupBy=type', async () => {
    const res = (await a.get('/iotapp/devices/?groupBy=type&limit=50')).json();
    expect(res.contents).toEqual([
      { type: 'CAMERA', label: 'Camera', count: 4 },
      { type: 'DVR', label: 'DVR/NVR', count: 2 },
      { type: 'GENERATOR', label: 'Generator', count: 2 },
      { type: 'HDD', label: 'HDD', count: 2 },
      { type: 'ROUTER', label: 'Router', count: 2 },
      { type: 'UPS', label: 'UPS', count: 1 },
    ]);
  });

  it('refuses unknown filters and malformed values with 400', async () => {
    for (const query of [
      'colour=red',
      'status=Sleeping',
      'type=TOASTER',
      'isParent=maybe',
      'assetId=abc',
      'groupBy=site',
      'limit=0',
      'orderBy=-colour',
    ]) {
      const res = await a.get(`/iotapp/devices/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().detail.length, query).toBeGreaterThan(5);
    }
    for (const query of [
      'alarmUpdatedAt__gt=yesterday',
      'groupBy=type',
      `ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}`,
      'limit=501',
    ]) {
      expect((await a.get(`/iotapp/devices/compact-list/?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('serves the compact list by ids, site, children and recent alarm changes', async () => {
    expect(await ids(`ids=${e1.cam1.id},${e2.router.id},${spare.id}&orderBy=id`)).toEqual(
      [e1.cam1.id, e2.router.id, spare.id].sort((x, y) => x - y),
    );
    const withSite = (await a.get(`/iotapp/devices/compact-list/?ids=${e1.cam1.id}&includeSite=true&checkChildExist=true`)).json();
    expect(withSite.contents[0]).toMatchObject({ site: { id: e1.site.id, name: 'Pune Camp' }, hasChildren: false, parentId: e1.dvr.id });
    const top = (await a.get(`/iotapp/devices/compact-list/?assetId=${e1.site.id}&parentId=null&checkChildExist=true`)).json();
    expect(top.contents).toEqual([expect.objectContaining({ id: e1.router.id, hasChildren: true, isParent: true })]);
    expect(await ids(`name__startswith=${encodeURIComponent('GOI:RTR:DVR1:')}&orderBy=label`)).toEqual([e2.cam1.id, e2.cam2.id, e2.hdd.id]);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await ids(`alarmUpdatedAt__gt=${encodeURIComponent(since)}`)).toEqual([e2.cam2.id]);
    const worst = (await a.get('/iotapp/devices/compact-list/?label__icontains=cam&orderBy=-alarmStatus&limit=2')).json();
    expect(worst.contents.map((d: { alarmStatus: string }) => d.alarmStatus)).toEqual(['MAJOR', 'MINOR']);
    const grouped = (await a.get('/iotapp/devices/compact-list/?groupBy=site&label__icontains=cam')).json();
    expect(grouped.totalCount).toBe(4);
    expect(grouped.contents.map((g: { site: { name: string }; devices: unknown[] }) => [g.site.name, g.devices.length]).sort()).toEqual([
      ['Goa Panjim', 2],
      ['Pune Camp', 2],
    ]);
  });

  it('assigns inventory devices to a site and back', async () => {
    const res = await a.post('/iotapp/devices/assign/', { deviceIds: [spare.id], assetId: e1.site.id, parentId: e1.router.id });
    expect(res.json()).toEqual({ updated: 1 });
    expect((await a.get(`/iotapp/devices/${spare.id}/`)).json()).toMatchObject({
      assetId: e1.site.id,
      parentId: e1.router.id,
      name: 'PNQ:RTR:SPARE-UPS',
    });
    await a.post('/iotapp/devices/assign/', { deviceIds: [spare.id], assetId: null });
    expect((await a.get(`/iotapp/devices/${spare.id}/`)).json()).toMatchObject({ assetId: null, parentId: null, name: 'SPARE-UPS' });
  });

  it("does not reveal another tenant's devices", async () => {
    const other = await fresh.login('customeradmin', HOST_B);
    expect((await other.get('/iotapp/devices/?limit=500')).json().totalCount).toBe(0);
    expect((await other.get(`/iotapp/devices/compact-list/?ids=${e1.router.id}`)).json().contents).toEqual([]);
    expect((await other.get(`/iotapp/devices/${e1.router.id}/`)).statusCode).toBe(404);
    expect((await other.put(`/iotapp/devices/${e1.router.id}/`, { label: 'x' })).statusCode).toBe(404);
    expect((await other.post('/iotapp/devices/', { label: 'x', type: 'DVR', parentId: e1.router.id })).statusCode).toBe(400);
    expect((await other.post('/iotapp/devices/', { label: 'y', type: 'ROUTER', assetId: e1.site.id })).statusCode).toBe(400);
  });
});

describe('alarm actions', () => {
  it('sets a toggle on one device or its whole subtree, logs it and emits device.alarm-action', async () => {
    const e = await makeEstateSite(admin);
    const seen: DomainEvent[] = [];
    const stop = subscribe(t, (ev) => seen.push(ev));
    const one = await admin.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'muteDevice', telemetryValue: true });
    expect(one.json()).toEqual({ success: true, updatedDevices: 1, ticketId: null });
    expect((await admin.get(`/iotapp/devices/${e.cam1.id}/`)).json().metadata.muteDevice).toBe(true);
    expect((await admin.get(`/iotapp/devices/${e.cam2.id}/`)).json().metadata.muteDevice).toBe(false);

    const tree = await admin.post(`/iotapp/devices/${e.router.id}/alarm-actions/`, {
      telemetryKey: 'maintenance',
      telemetryValue: true,
      updateChildDevice: true,
      createTicket: true,
      description: 'Quarterly service of the generator',
    });
    expect(tree.json()).toMatchObject({ success: true, updatedDevices: 6, ticketId: expect.any(Number) });
    // The helpdesk raised a device-health ticket for the action.
    const ticket = await admin.get(`/helpdesk/tickets/${tree.json().ticketId}/`);
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect(ticket.json()).toMatchObject({ type: 'AlarmTicket', entityId: e.router.id, locationId: e.site.id });
    for (const d of [e.router, e.dvr, e.cam1, e.cam2, e.hdd, e.genset]) {
      const got = (await admin.get(`/iotapp/devices/${d.id}/`)).json();
      expect(got.metadata.maintenance, d.label).toBe(true);
      expect(got.alarmUpdatedAt, d.label).not.toBeNull();
    }
    const event = seen.find((ev) => ev.type === 'device.alarm-action' && (ev.payload as DeviceAlarmActionEvent).deviceId === e.router.id);
    expect(event?.payload).toMatchObject({
      telemetryKey: 'maintenance',
      telemetryValue: true,
      createTicket: true,
      description: 'Quarterly service of the generator',
      userId: admin.user?.id,
      assetId: e.site.id,
    });
    expect((event?.payload as DeviceAlarmActionEvent | undefined)?.updatedDeviceIds).toHaveLength(6);
    stop();

    const log = (await admin.get(`/iotapp/devices/${e.router.id}/alarm-actions/`)).json();
    const me = await t.db
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname'])
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', 'customeradmin')
      .executeTakeFirstOrThrow();
    expect(log.contents[0]).toMatchObject({
      user: { id: me.id, name: `${me.firstname} ${me.lastname}` },
      telemetryKey: 'maintenance',
      telemetryValue: true,
      updateChildDevice: true,
      updatedDevices: 6,
      createTicket: true,
    });
    expect(log.contents[0].user.id).toBe(admin.user?.id);
  });

  it('checks permission, body, the customer settings and the tenant', async () => {
    const e = await makeEstateSite(admin);
    const viewer = await t.login('customer');
    expect(
      (await viewer.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'muteDevice', telemetryValue: true })).statusCode,
    ).toBe(403);
    const bad = await admin.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'reboot', telemetryValue: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^Telemetry key /);
    expect(
      (await admin.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'muteDevice', telemetryValue: 'yes' })).statusCode,
    ).toBe(400);
    await admin.put('/iotapp/customer-settings/', {
      deviceAlarmActions: {
        muteMode: { show: false, createTicket: true },
        maintenanceMode: { show: true, createTicket: false },
        enableDevice: { show: true, createTicket: true },
      },
    });
    expect(
      (await admin.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'muteDevice', telemetryValue: true })).statusCode,
    ).toBe(403);
    expect(
      (
        await admin.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, {
          telemetryKey: 'maintenance',
          telemetryValue: true,
          createTicket: true,
        })
      ).statusCode,
    ).toBe(400);
    await admin.put('/iotapp/customer-settings/', {
      deviceAlarmActions: {
        muteMode: { show: true, createTicket: true },
        maintenanceMode: { show: true, createTicket: true },
        enableDevice: { show: true, createTicket: true },
      },
    });
    const operator = await t.login('fieldexecutive');
    expect(
      (await operator.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'enableDevice', telemetryValue: false }))
        .statusCode,
    ).toBe(404);
    const other = await t.login('customeradmin', HOST_B);
    expect(
      (await other.post(`/iotapp/devices/${e.cam1.id}/alarm-actions/`, { telemetryKey: 'enableDevice', telemetryValue: false })).statusCode,
    ).toBe(404);
    expect((await admin.get(`/iotapp/devices/${e.cam1.id}/`)).json().metadata.enableDevice).toBe(true);
  });
});

function subscribe(app: TestApp, listener: (event: DomainEvent) => void) {
  return app.handles.events.subscribe(listener);
}

describe('device templates', () => {
  it('manages templates per type and vendor with filters and sorting', async () => {
    const created = await admin.post('/iotapp/device-templates/', {
      name: 'DG Controller 7320',
      type: 'GENERATOR',
      vendor: 'DeepSea',
      model: 'DSE7320',
      telemetry: [
        { key: 'fuelLevel', label: 'Fuel level', unit: '%' },
        { key: 'running', label: 'Running', valueType: 'boolean' },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const tpl = created.json();
    expect(tpl).toMatchObject({
      type: 'GENERATOR',
      vendor: 'DeepSea',
      deviceCount: 0,
      telemetry: [{ key: 'fuelLevel', valueType: 'number' }, { valueType: 'boolean' }],
    });
    expect(
      (await admin.post('/iotapp/device-templates/', { name: 'dg controller 7320', type: 'GENERATOR', vendor: 'deepsea' })).statusCode,
    ).toBe(409);
    expect(
      (
        await admin.post('/iotapp/device-templates/', {
          name: 'Dup keys',
          type: 'UPS',
          vendor: 'APC',
          telemetry: [
            { key: 'a', label: 'A' },
            { key: 'a', label: 'B' },
          ],
        })
      ).statusCode,
    ).toBe(400);
    await admin.post('/iotapp/device-templates/', { name: 'Smart-UPS', type: 'UPS', vendor: 'APC' });
    const ups = (await admin.get('/iotapp/device-templates/?type=UPS&vendor=apc')).json();
    expect(ups.contents.map((x: { name: string }) => x.name)).toEqual(['Smart-UPS']);
    const byVendor = (await admin.get('/iotapp/device-templates/?orderBy=vendor')).json();
    expect(byVendor.contents.map((x: { vendor: string }) => x.vendor)).toEqual(['APC', 'DeepSea']);

    const site = await makeSite(admin);
    const device = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id, templateId: tpl.id });
    expect((await admin.get(`/iotapp/device-templates/${tpl.id}/`)).json().deviceCount).toBe(1);
    expect((await admin.put(`/iotapp/device-templates/${tpl.id}/`, { type: 'UPS' })).statusCode).toBe(400);
    const renamed = (await admin.put(`/iotapp/device-templates/${tpl.id}/`, { model: 'DSE7320 MKII' })).json();
    expect(renamed).toMatchObject({
      model: 'DSE7320 MKII',
      name: 'DG Controller 7320',
      telemetry: [{ key: 'fuelLevel' }, { key: 'running' }],
    });
    expect((await admin.get(`/iotapp/devices/?templateId=${tpl.id}`)).json().contents.map((d: { id: number }) => d.id)).toEqual([
      device.id,
    ]);
    expect((await admin.post('/iotapp/devices/', { label: 'x', type: 'UPS', templateId: 999999 })).statusCode).toBe(400);

    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/iotapp/device-templates/${tpl.id}/`)).statusCode).toBe(404);
    expect((await other.get('/iotapp/device-templates/')).json().totalCount).toBe(0);
    expect((await admin.delete(`/iotapp/device-templates/${tpl.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/devices/${device.id}/`)).json().templateId).toBeNull();
  });
});

describe('entity mappings', () => {
  it('maps entities by relation type and lists them from an entity', async () => {
    const e = await makeEstateSite(admin);
    const panel = await makeDevice(admin, { type: 'ALARMPANEL', parentId: e.router.id, label: 'PANEL' });
    const cam = await admin.post('/iotapp/entity-mappings/', {
      relationType: 'CAMERA MAPPING',
      fromType: 'DEVICE',
      fromEntity: panel.id,
      toType: 'DEVICE',
      toEntity: e.cam1.id,
    });
    expect(cam.statusCode, cam.body).toBe(201);
    expect(cam.json()).toMatchObject({
      relationType: 'CAMERA MAPPING',
      toType: 'DEVICE',
      toEntity: { id: e.cam1.id, label: 'CAM1', type: 'CAMERA' },
    });
    const notCam = await admin.post('/iotapp/entity-mappings/', {
      relationType: 'CAMERA MAPPING',
      fromType: 'DEVICE',
      fromEntity: panel.id,
      toType: 'DEVICE',
      toEntity: e.hdd.id,
    });
    expect(notCam.json().detail).toContain('camera');
    const wrongEnds = await admin.post('/iotapp/entity-mappings/', {
      relationType: 'ASSET MAPPING',
      fromType: 'DEVICE',
      fromEntity: panel.id,
      toType: 'ASSET',
      toEntity: e.site.id,
    });
    expect(wrongEnds.statusCode).toBe(400);
    await admin.post('/iotapp/entity-mappings/', {
      relationType: 'DEVICE ASSET MAPPING',
      fromType: 'DEVICE',
      fromEntity: panel.id,
      toType: 'ASSET',
      toEntity: e.site.id,
    });
    expect(
      (
        await admin.post('/iotapp/entity-mappings/', {
          relationType: 'CAMERA MAPPING',
          fromType: 'DEVICE',
          fromEntity: panel.id,
          toType: 'DEVICE',
          toEntity: e.cam1.id,
        })
      ).statusCode,
    ).toBe(409);
    const list = (await admin.get(`/iotapp/entity-mappings/?fromType=DEVICE&fromEntity=${panel.id}&limit=50`)).json();
    expect(list.contents.map((m: { relationType: string; toEntity: { name: string } }) => [m.relationType, m.toEntity.name])).toEqual([
      ['CAMERA MAPPING', e.cam1.name],
      ['DEVICE ASSET MAPPING', e.site.name],
    ]);
    expect((await admin.get('/iotapp/entity-mappings/?fromType=ROOM')).statusCode).toBe(400);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/iotapp/entity-mappings/?fromType=DEVICE&fromEntity=${panel.id}`)).json().totalCount).toBe(0);
    expect((await other.delete(`/iotapp/entity-mappings/${cam.json().id}/`)).statusCode).toBe(404);
    // Deleting the camera removes the mappings that name it.
    await admin.delete(`/iotapp/devices/${e.cam1.id}/`);
    expect((await admin.get(`/iotapp/entity-mappings/?fromType=DEVICE&fromEntity=${panel.id}`)).json().totalCount).toBe(1);
    expect((await admin.delete(`/iotapp/entity-mappings/${list.contents[1].id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/entity-mappings/?fromType=DEVICE&fromEntity=${panel.id}`)).json().totalCount).toBe(0);
  });
});

describe('entities query count', () => {
  let fresh: TestApp;
  let a: TestClient;
  let e: Awaited<ReturnType<typeof makeEstateSite>>;
  beforeAll(async () => {
    fresh = await createTestApp();
    a = await fresh.login('customeradmin');
    e = await makeEstateSite(a, { name: 'Count site' });
    await makeEstateSite(a, { name: 'Second site', metadata: { assetCode: 'SEC', merchantId: 'M1' } });
    await fresh.db.updateTable('devices').set({ status: 'Online' }).where('id', 'in', [e.router.id, e.cam1.id]).execute();
    await fresh.db
      .updateTable('devices')
      .set({ state: JSON.stringify({ fuelLevel: 18.5, running: true }) })
      .where('id', '=', e.genset.id)
      .execute();
    await a.post(`/iotapp/devices/${e.cam2.id}/alarm-actions/`, { telemetryKey: 'maintenance', telemetryValue: true });
  });
  afterAll(() => fresh?.close());

  const count = async (query: unknown) => {
    const res = await a.post('/iotapp/entities-query-count/', { query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().count as number;
  };
  const str = (key: string, type: string, value: string, operation = 'EQUAL') => ({
    key: { type, key },
    valueType: 'STRING',
    predicate: { type: 'STRING', operation, value: { defaultValue: value } },
  });

  it('counts devices by type and key filters in SQL', async () => {
    expect(await count({ entityFilter: { type: 'deviceType', deviceTypes: ['CAMERA'] }, keyFilters: [] })).toBe(4);
    expect(
      await count({
        entityFilter: { type: 'deviceType', deviceTypes: ['CAMERA', 'ROUTER'] },
        keyFilters: [str('status', 'ENTITY_FIELD', 'Online')],
      }),
    ).toBe(2);
    expect(
      await count({
        entityFilter: { type: 'deviceType', deviceType: 'CAMERA' },
        keyFilters: [
          { key: { type: 'ATTRIBUTE', key: 'active' }, predicate: { type: 'BOOLEAN', operation: 'EQUAL', value: { defaultValue: false } } },
        ],
      }),
    ).toBe(3);
    expect(
      await count({
        entityFilter: { type: 'deviceType', deviceTypes: ['CAMERA'] },
        keyFilters: [
          {
            key: { type: 'SERVER_ATTRIBUTE', key: 'maintenance' },
            predicate: { type: 'BOOLEAN', operation: 'EQUAL', value: { defaultValue: true } },
          },
        ],
      }),
    ).toBe(1);
    expect(
      await count({
        entityFilter: { type: 'deviceType', deviceTypes: ['GENERATOR'] },
        keyFilters: [
          {
            key: { type: 'TIME_SERIES', key: 'fuelLevel' },
            predicate: { type: 'NUMERIC', operation: 'LESS', value: { defaultValue: 20 } },
          },
        ],
      }),
    ).toBe(1);
    expect(
      await count({
        entityFilter: { type: 'deviceType' },
        keyFilters: [
          {
            key: { type: 'ENTITY_FIELD', key: 'type' },
            predicate: {
              type: 'COMPLEX',
              operation: 'OR',
              predicates: [
                { type: 'STRING', operation: 'EQUAL', value: { defaultValue: 'dvr' }, ignoreCase: true },
                { type: 'STRING', operation: 'STARTS_WITH', value: { defaultValue: 'HD' } },
              ],
            },
          },
        ],
      }),
    ).toBe(4);
    expect(await count({ entityFilter: { type: 'deviceType' }, keyFilters: [str('siteName', 'ENTITY_FIELD', 'Count site')] })).toBe(6);
    expect(await count({ entityFilter: { type: 'deviceType' }, keyFilters: [str('label', 'ENTITY_FIELD', 'CAM1,CAM2', 'IN')] })).toBe(4);
    // A text value never breaks a numeric comparison.
    expect(
      await count({
        entityFilter: { type: 'deviceType' },
        keyFilters: [
          { key: { type: 'ENTITY_FIELD', key: 'label' }, predicate: { type: 'NUMERIC', operation: 'GREATER', value: { defaultValue: 1 } } },
        ],
      }),
    ).toBe(0);
  });

  it('counts assets, entity lists and related entities', async () => {
    expect(await count({ entityFilter: { type: 'assetType', assetTypes: ['SITE'] }, keyFilters: [] })).toBe(2);
    expect(await count({ entityFilter: { type: 'assetType', assetTypes: ['BUILDING'] }, keyFilters: [] })).toBe(0);
    expect(await count({ entityFilter: { type: 'assetType' }, keyFilters: [str('merchantId', 'ATTRIBUTE', 'M1')] })).toBe(1);
    expect(
      await count({
        entityFilter: { type: 'entityList', entityType: 'DEVICE', entityList: [e.cam1.id, e.cam2.id, 999999] },
        keyFilters: [],
      }),
    ).toBe(2);
    expect(
      await count({ entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'ASSET', id: e.site.id } }, keyFilters: [] }),
    ).toBe(1);
    await a.post('/iotapp/entity-mappings/', {
      relationType: 'ASSET DEVICE MAPPING',
      fromType: 'ASSET',
      fromEntity: e.site.id,
      toType: 'DEVICE',
      toEntity: e.cam1.id,
    });
    expect(
      await count({
        entityFilter: { type: 'relationsQuery', rootEntity: { entityType: 'ASSET', id: e.site.id }, direction: 'FROM' },
        keyFilters: [],
      }),
    ).toBe(1);
  });

  it('refuses unknown fields and malformed queries', async () => {
    const bad = await a.post('/iotapp/entities-query-count/', {
      query: { entityFilter: { type: 'deviceType' }, keyFilters: [str('password', 'ENTITY_FIELD', 'x')] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('Unknown device field "password"');
    expect((await a.post('/iotapp/entities-query-count/', { query: { entityFilter: { type: 'everything' } } })).statusCode).toBe(400);
    expect(
      (
        await a.post('/iotapp/entities-query-count/', {
          query: { entityFilter: { type: 'deviceType' }, keyFilters: [str("x'; drop table devices; --", 'ATTRIBUTE', 'x')] },
        })
      ).statusCode,
    ).toBe(400);
    const other = await fresh.login('customeradmin', HOST_B);
    const res = await other.post('/iotapp/entities-query-count/', { query: { entityFilter: { type: 'deviceType' }, keyFilters: [] } });
    expect(res.json().count).toBe(0);
  });
});

describe('discovery and inventory', () => {
  it('registers a self-provisioning device as discovered, then adds it to the inventory', async () => {
    const customer = (await admin.post('/iotapp/customers/', { name: `Provisioning ${Date.now()}` })).json();
    const cred = (await admin.post(`/iotapp/customers/${customer.id}/iot-fw-cred/rotate/`)).json();
    expect(cred.provisionDeviceSecret).toMatch(/^[\w-]{32}$/);
    const anon = t.anonymous();
    const wrong = await anon.post('/api/v1/provision', {
      deviceName: 'GW-001',
      provisionDeviceKey: cred.provisionDeviceKey,
      provisionDeviceSecret: 'nope',
    });
    expect(wrong.json()).toEqual({ status: 'NOT_FOUND', errorMsg: 'Provision data was not found!' });
    const ok = await anon.post('/api/v1/provision', {
      deviceName: 'GW-001',
      provisionDeviceKey: cred.provisionDeviceKey,
      provisionDeviceSecret: cred.provisionDeviceSecret,
    });
    expect(ok.json()).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    const again = await anon.post('/api/v1/provision', {
      deviceName: 'GW-001',
      provisionDeviceKey: cred.provisionDeviceKey,
      provisionDeviceSecret: cred.provisionDeviceSecret,
    });
    expect(again.json().status).toBe('FAILURE');
    // The key names the tenant, whatever host the device reached: never the host's tenant.
    const elsewhere = await t.anonymous(HOST_B).post('/api/v1/provision', {
      deviceName: 'GW-002',
      provisionDeviceKey: cred.provisionDeviceKey,
      provisionDeviceSecret: cred.provisionDeviceSecret,
    });
    expect(elsewhere.json().status).toBe('SUCCESS');
    const inB = await t.login('customeradmin', HOST_B);
    expect((await inB.get('/iotapp/devices/?discovered=true')).json().contents.map((d: { label: string }) => d.label)).not.toContain(
      'GW-002',
    );

    const discovered = (await admin.get('/iotapp/devices/?discovered=true')).json();
    const gw = discovered.contents.find((d: { label: string }) => d.label === 'GW-001');
    expect(gw).toMatchObject({ discovered: true, type: 'ROUTER', assetId: null });
    expect(gw.accessToken).toBeUndefined();
    expect(await accessTokenOf(admin, gw.id)).toBe(ok.json().credentialsValue);
    expect((await admin.get('/iotapp/devices/?label__icontains=GW-001')).json().totalCount).toBe(0);

    const site = await makeSite(admin);
    const added = await admin.post(`/iotapp/devices/${gw.id}/add-to-inventory/`, { label: 'GW-001', assetId: site.id });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ discovered: false, assetId: site.id });
    const twice = await admin.post(`/iotapp/devices/${gw.id}/add-to-inventory/`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe(DEVICE_MESSAGES.inventoryFailed);
  });
});
