import { EVENT_TYPES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionHolds, ruleApplies, sideEffects, thresholdStep } from '../src/modules/alarms/engine.ts';
import { createAlarmRepository } from '../src/modules/alarms/repository.ts';
import { createAlarmService } from '../src/modules/alarms/service.ts';
import { createDeviceRecords } from '../src/modules/devices/index.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { devicePost, makeDevice } from './telemetry-fixtures.ts';

describe('alarm engine rules', () => {
  it('compares values to thresholds, booleans as 1/0 and numeric strings as numbers', () => {
    expect(conditionHolds('<', 20, 10)).toBe(true);
    expect(conditionHolds('<', 20, 20)).toBe(false);
    expect(conditionHolds('<=', 20, 20)).toBe(true);
    expect(conditionHolds('==', 1, true)).toBe(true);
    expect(conditionHolds('!=', 1, false)).toBe(true);
    expect(conditionHolds('>', 5, '7.5')).toBe(true);
    expect(conditionHolds('>', 5, 'high')).toBe(false);
    expect(conditionHolds('>=', 0, null)).toBe(false);
  });

  it('raises only after the condition held for the whole duration and clears on the first value that breaks it', () => {
    let step = thresholdStep({ active: false, pendingSince: null }, true, 1000, 60);
    expect(step).toEqual({ action: 'none', pendingSince: 1000 });
    step = thresholdStep({ active: false, pendingSince: 1000 }, true, 50_000, 60);
    expect(step.action).toBe('none');
    step = thresholdStep({ active: false, pendingSince: 1000 }, true, 61_000, 60);
    expect(step.action).toBe('raise');
    expect(thresholdStep({ active: true, pendingSince: 1000 }, true, 90_000, 60)).toEqual({ action: 'none', pendingSince: null });
    expect(thresholdStep({ active: true, pendingSince: 1000 }, false, 95_000, 60)).toEqual({ action: 'clear', pendingSince: null });
    expect(thresholdStep({ active: false, pendingSince: 1000 }, false, 30_000, 60)).toEqual({ action: 'none', pendingSince: null });
    expect(thresholdStep({ active: false, pendingSince: null }, true, 5, 0).action).toBe('raise');
  });

  it('applies a rule to its device type, or only to its template', () => {
    expect(ruleApplies({ deviceType: 'UPS', templateId: null }, { type: 'UPS', templateId: 4 })).toBe(true);
    expect(ruleApplies({ deviceType: 'UPS', templateId: null }, { type: 'GENERATOR', templateId: null })).toBe(false);
    expect(ruleApplies({ deviceType: 'UPS', templateId: 4 }, { type: 'UPS', templateId: 5 })).toBe(false);
    expect(ruleApplies({ deviceType: null, templateId: 4 }, { type: 'UPS', templateId: 4 })).toBe(true);
  });

  it('suppresses side effects as documented for disabled, maintenance and muted devices', () => {
    expect(sideEffects({ enableDevice: false, maintenance: false, muteDevice: false })).toMatchObject({ evaluate: false });
    expect(sideEffects({ enableDevice: true, maintenance: true, muteDevice: true })).toMatchObject({
      evaluate: true,
      ticket: false,
      notify: false,
      suppressedBy: 'maintenance',
    });
    expect(sideEffects({ enableDevice: true, maintenance: false, muteDevice: true })).toMatchObject({
      evaluate: true,
      ticket: true,
      notify: false,
      suppressedBy: 'muted',
    });
    expect(sideEffects({ enableDevice: true, maintenance: false, muteDevice: false })).toMatchObject({
      evaluate: true,
      ticket: true,
      notify: true,
      suppressedBy: null,
    });
  });
});

let t: TestApp;
let admin: TestClient;
type Seen = { type: string; payload: { deviceId: number; severity: string; alarmStatus: string } };
const seen: Seen[] = [];
const tickets: Array<{ deviceId: number; title: string }> = [];
const clock = createTestClock();

beforeAll(async () => {
  // watch what reaches the real helpdesk port
  t = await createTestApp(
    { TELEMETRY_TOKEN_CACHE_SECONDS: '0', TELEMETRY_FLUSH_MS: '5', TELEMETRY_LATEST_FLUSH_MS: '0' },
    {
      clock,
      decorate: {
        tickets: (port) => ({
          ...port,
          async createTicket(tenantId, input) {
            const ticket = await port.createTicket(tenantId, input);
            tickets.push({ deviceId: input.entityId as number, title: input.title });
            return ticket;
          },
        }),
      },
    },
  );
  admin = await t.login('customeradmin');
  t.handles.events.subscribe((e) => {
    if (e.type.startsWith('alarm.')) seen.push(e as unknown as Seen);
  });
});
afterAll(() => t?.close());

async function send(token: string, values: Record<string, unknown>) {
  const res = await devicePost(t, `/api/v1/${token}/telemetry`, values);
  expect(res.statusCode).toBe(200);
  await t.handles.alarms.alarms.settled();
}

const deviceRow = (id: number) =>
  t.db.selectFrom('devices').select(['alarm_status', 'alarm_updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
const alarmsOf = async (id: number) => (await admin.get(`/api/alarms/?deviceId=${id}`)).json().contents;

describe('alarm rules API', () => {
  it('validates rules with clear 400s and keeps them per tenant', async () => {
    expect(
      (await admin.post('/api/alarms/rules/', { name: 'x', kind: 'threshold', deviceType: 'UPS', severity: 'MAJOR' })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post('/api/alarms/rules/', { name: 'x', kind: 'threshold', key: 'a', operator: '>', threshold: 1, severity: 'MAJOR' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await admin.post('/api/alarms/rules/', { name: 'x', kind: 'inactivity', deviceType: 'UPS', severity: 'LOUD' })).statusCode,
    ).toBe(400);
    const created = await admin.post('/api/alarms/rules/', {
      name: 'Router silent',
      kind: 'inactivity',
      deviceType: 'ROUTER',
      durationSeconds: 600,
      severity: 'MAJOR',
      enabled: false,
    });
    expect(created.statusCode).toBe(201);
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get('/api/alarms/rules/')).json().contents).toEqual([]);
    expect(
      (
        await intruder.put(`/api/alarms/rules/${created.json().id}/`, {
          name: 'mine',
          kind: 'inactivity',
          deviceType: 'ROUTER',
          durationSeconds: 60,
          severity: 'MINOR',
        })
      ).statusCode,
    ).toBe(404);
    expect((await intruder.delete(`/api/alarms/rules/${created.json().id}/`)).statusCode).toBe(404);
    const customer = await t.login('customer');
    expect(
      (
        await customer.post('/api/alarms/rules/', {
          name: 'x',
          kind: 'inactivity',
          deviceType: 'UPS',
          durationSeconds: 60,
          severity: 'MAJOR',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('raising and clearing', () => {
  beforeAll(async () => {
    const res = await admin.post('/api/alarms/rules/', {
      name: 'Low fuel',
      kind: 'threshold',
      deviceType: 'GENERATOR',
      key: 'fuelLevel',
      operator: '<',
      threshold: 20,
      severity: 'MAJOR',
    });
    expect(res.statusCode).toBe(201);
    const res2 = await admin.post('/api/alarms/rules/', {
      name: 'Fuel critical',
      kind: 'threshold',
      deviceType: 'GENERATOR',
      key: 'fuelLevel',
      operator: '<',
      threshold: 5,
      severity: 'CRITICAL',
    });
    expect(res2.statusCode).toBe(201);
  });

  it('raises when a value crosses the threshold, sets alarmStatus, and clears when it recovers', async () => {
    const device = await makeDevice(t.db, t.tenantA, { type: 'GENERATOR' });
    await send(device.token, { fuelLevel: 50 });
    expect(await alarmsOf(device.id)).toEqual([]);
    expect((await deviceRow(device.id)).alarm_status).toBe('NORMAL');
    await send(device.token, { fuelLevel: 12 });
    const [raised] = await alarmsOf(device.id);
    expect(raised).toMatchObject({
      ruleName: 'Low fuel',
      severity: 'MAJOR',
      state: 'ACTIVE',
      value: 12,
      suppressedBy: null,
      ticketId: expect.any(Number),
    });
    expect((await deviceRow(device.id)).alarm_status).toBe('MAJOR');
    expect(seen.filter((e) => e.payload.deviceId === device.id).map((e) => [e.type, e.payload.severity, e.payload.alarmStatus])).toEqual([
      [EVENT_TYPES.alarmRaised, 'MAJOR', 'MAJOR'],
    ]);
    expect(tickets.filter((x) => x.deviceId === device.id)).toEqual([{ deviceId: device.id, title: `Low fuel on ${device.label}` }]);
    const ticket = await t.db
      .selectFrom('tickets')
      .select(['id', 'type', 'title', 'entity_id'])
      .where('id', '=', raised.ticketId)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ type: 'AlarmTicket', title: `Low fuel on ${device.label}`, entity_id: device.id });
    await send(device.token, { fuelLevel: 3 });
    expect((await deviceRow(device.id)).alarm_status).toBe('CRITICAL');
    await send(device.token, { fuelLevel: 10 });
    expect((await deviceRow(device.id)).alarm_status).toBe('MAJOR');
    await send(device.token, { fuelLevel: 90 });
    const row = await deviceRow(device.id);
    expect(row.alarm_status).toBe('NORMAL');
    expect(row.alarm_updated_at).not.toBeNull();
    const all = await alarmsOf(device.id);
    expect(all.map((a: { state: string }) => a.state)).toEqual(['CLEARED', 'CLEARED']);
    expect(seen.filter((e) => e.payload.deviceId === device.id).map((e) => e.type)).toEqual([
      EVENT_TYPES.alarmRaised,
      EVENT_TYPES.alarmRaised,
      EVENT_TYPES.alarmCleared,
      EVENT_TYPES.alarmCleared,
    ]);
    expect(seen.filter((e) => e.payload.deviceId === device.id).at(-1)?.payload.alarmStatus).toBe('NORMAL');
  });

  it('a rule for another device type does not touch the device, and tenant B cannot list tenant A alarms', async () => {
    const device = await makeDevice(t.db, t.tenantA, { type: 'UPS' });
    await send(device.token, { fuelLevel: 1 });
    expect(await alarmsOf(device.id)).toEqual([]);
    const gen = await makeDevice(t.db, t.tenantA, { type: 'GENERATOR' });
    await send(gen.token, { fuelLevel: 1 });
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get(`/api/alarms/?deviceId=${gen.id}`)).json().contents).toEqual([]);
    expect((await admin.get('/api/alarms/?state=OPEN')).statusCode).toBe(400);
  });

  it('muted: raised and shown with suppressedBy muted; maintenance: the same with maintenance; disabled: not raised', async () => {
    const muted = await makeDevice(t.db, t.tenantA, { type: 'GENERATOR', metadata: { muteDevice: true } });
    await send(muted.token, { fuelLevel: 10 });
    expect(await alarmsOf(muted.id)).toEqual([expect.objectContaining({ state: 'ACTIVE', suppressedBy: 'muted' })]);
    expect((await deviceRow(muted.id)).alarm_status).toBe('MAJOR');
    expect(seen.filter((e) => e.payload.deviceId === muted.id)).toEqual([]);
    expect(tickets.filter((x) => x.deviceId === muted.id)).toHaveLength(1);

    const maintained = await makeDevice(t.db, t.tenantA, { type: 'GENERATOR', metadata: { maintenance: true, muteDevice: true } });
    await send(maintained.token, { fuelLevel: 10 });
    expect(await alarmsOf(maintained.id)).toEqual([expect.objectContaining({ state: 'ACTIVE', suppressedBy: 'maintenance' })]);
    await send(maintained.token, { fuelLevel: 60 });
    expect(await alarmsOf(maintained.id)).toEqual([expect.objectContaining({ state: 'CLEARED' })]);
    expect(seen.filter((e) => e.payload.deviceId === maintained.id)).toEqual([]);
    expect(tickets.filter((x) => x.deviceId === maintained.id)).toEqual([]);

    const disabled = await makeDevice(t.db, t.tenantA, { type: 'GENERATOR', metadata: { enableDevice: false } });
    await send(disabled.token, { fuelLevel: 10 });
    expect(await alarmsOf(disabled.id)).toEqual([]);
    expect((await deviceRow(disabled.id)).alarm_status).toBe('NORMAL');
    expect(seen.filter((e) => e.payload.deviceId === disabled.id)).toEqual([]);
    expect(tickets.filter((x) => x.deviceId === disabled.id)).toEqual([]);
  });

  it('waits for the duration before raising, also without a new value', async () => {
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'Hot',
      kind: 'threshold',
      deviceType: 'RECTIFIER',
      key: 'temp',
      operator: '>',
      threshold: 60,
      durationSeconds: 1,
      severity: 'MINOR',
    });
    expect(rule.statusCode).toBe(201);
    const device = await makeDevice(t.db, t.tenantA, { type: 'RECTIFIER' });
    await send(device.token, { temp: 70 });
    expect(await alarmsOf(device.id)).toEqual([]);
    clock.advance(1100);
    await t.handles.alarms.alarms.tick();
    expect(await alarmsOf(device.id)).toEqual([expect.objectContaining({ ruleName: 'Hot', state: 'ACTIVE' })]);
  });

  it('inactivity rules raise for silent devices and clear on the next value', async () => {
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'DVR silent',
      kind: 'inactivity',
      deviceType: 'DVR',
      durationSeconds: 600,
      severity: 'WARNING',
    });
    expect(rule.statusCode).toBe(201);
    const device = await makeDevice(t.db, t.tenantA, { type: 'DVR' });
    await send(device.token, { hddHealth: 99 });
    await t.db
      .updateTable('devices')
      .set({ last_activity_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', device.id)
      .execute();
    await t.handles.alarms.alarms.tick();
    expect(await alarmsOf(device.id)).toEqual([expect.objectContaining({ ruleName: 'DVR silent', state: 'ACTIVE', severity: 'WARNING' })]);
    expect((await deviceRow(device.id)).alarm_status).toBe('WARNING');
    await send(device.token, { hddHealth: 98 });
    expect(await alarmsOf(device.id)).toEqual([expect.objectContaining({ state: 'CLEARED' })]);
    expect((await deviceRow(device.id)).alarm_status).toBe('NORMAL');
  });
});

describe('raising a ticket from an alarm', () => {
  let alarmId: number;
  let device: { id: number; token: string; label: string };
  const ticketRow = (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['id', 'ticket_no', 'type', 'title', 'priority', 'event', 'sub_event', 'entity_id', 'status', 'metadata', 'created_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'Relay hot',
      kind: 'threshold',
      deviceType: 'RELAY',
      key: 'temp',
      operator: '>',
      threshold: 80,
      severity: 'WARNING',
      createTicket: false,
    });
    expect(rule.statusCode).toBe(201);
    device = await makeDevice(t.db, t.tenantA, { type: 'RELAY' });
    await send(device.token, { temp: 95 });
    const [alarm] = await alarmsOf(device.id);
    expect(alarm).toMatchObject({ ruleName: 'Relay hot', state: 'ACTIVE', ticketId: null, ticketNo: null, ticketOpen: false });
    alarmId = alarm.id;
  });

  it('raises a ticket pre-filled from the alarm, linked both ways, and offers it again instead of a second one', async () => {
    const announced: number[] = [];
    const stop = t.handles.alarms.alarms.onTicketed((a) => announced.push(a.alarmId));
    const [first, twin] = await Promise.all([
      admin.post(`/api/alarms/${alarmId}/ticket/`, {}),
      admin.post(`/api/alarms/${alarmId}/ticket/`, {}),
    ]);
    stop();
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ ticketId: expect.any(Number), ticketNo: expect.any(String), reused: false });
    // a double click gets the same ticket
    expect(twin.json().ticketId).toBe(first.json().ticketId);
    const { ticketId, ticketNo } = first.json();
    const me = await t.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', 'customeradmin')
      .executeTakeFirstOrThrow();
    expect(await ticketRow(ticketId)).toMatchObject({
      ticket_no: ticketNo,
      type: 'AlarmTicket',
      title: `Relay hot on ${device.label}`,
      priority: 'LOW',
      event: 'Device Alarm',
      sub_event: 'Relay hot',
      entity_id: device.id,
      status: 'OPEN',
      metadata: { severity: 'WARNING', alarmId },
      created_by: me.id,
    });
    // the camera clips follow the alarm's ticket
    expect(announced).toEqual([alarmId]);
    expect((await alarmsOf(device.id))[0]).toMatchObject({ id: alarmId, ticketId, ticketNo, ticketOpen: true });
    const again = await admin.post(`/api/alarms/${alarmId}/ticket/`, {});
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ticketId, ticketNo, reused: true });

    // once that ticket is closed, the alarm raises a new one
    await t.db.updateTable('tickets').set({ status: 'CLOSED' }).where('id', '=', ticketId).execute();
    expect((await alarmsOf(device.id))[0]).toMatchObject({ ticketId, ticketOpen: false });
    const next = await admin.post(`/api/alarms/${alarmId}/ticket/`, {});
    expect(next.statusCode).toBe(201);
    expect(next.json().ticketId).not.toBe(ticketId);
    expect((await alarmsOf(device.id))[0]).toMatchObject({ ticketId: next.json().ticketId, ticketOpen: true });
  });

  it('is for users who may raise tickets, on alarms they see', async () => {
    const viewer = await t.login('customer');
    const refused = await viewer.post(`/api/alarms/${alarmId}/ticket/`, {});
    expect(refused.statusCode).toBe(403);
    const intruder = await t.login('customeradmin', HOST_B);
    const hidden = await intruder.post(`/api/alarms/${alarmId}/ticket/`, {});
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Alarm not found.');
    expect((await admin.post('/api/alarms/99999999/ticket/', {})).statusCode).toBe(404);
    expect((await admin.post('/api/alarms/abc/ticket/', {})).statusCode).toBe(400);
  });
});

describe('pending durations across a restart', () => {
  const pendingOf = (deviceId: number) =>
    t.db.selectFrom('alarm_pending').select(['rule_id', 'since', 'value']).where('device_id', '=', deviceId).execute();

  it('keeps the start of a pending duration in the database, so that a restarted engine raises on time', async () => {
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'Overload',
      kind: 'threshold',
      deviceType: 'METER',
      key: 'load',
      operator: '>',
      threshold: 90,
      durationSeconds: 600,
      severity: 'MAJOR',
    });
    expect(rule.statusCode).toBe(201);
    const device = await makeDevice(t.db, t.tenantA, { type: 'METER' });
    const before = Date.now();
    await send(device.token, { load: 95 });
    await send(device.token, { load: 97 });
    expect(await alarmsOf(device.id)).toEqual([]);
    const [row] = await pendingOf(device.id);
    expect(row).toMatchObject({ rule_id: rule.json().id, value: 95 });
    expect(new Date(row?.since as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // a value that breaks the condition ends the pending duration, in the database too
    const other = await makeDevice(t.db, t.tenantA, { type: 'METER' });
    await send(other.token, { load: 99 });
    expect(await pendingOf(other.id)).toHaveLength(1);
    await send(other.token, { load: 40 });
    expect(await pendingOf(other.id)).toEqual([]);

    // an engine started afresh (nothing in memory), ten minutes later: the duration has passed
    const restarted = createAlarmService({
      repo: createAlarmRepository(t.db),
      devices: createDeviceRecords(t.db),
      events: t.handles.events,
      log: { error: () => undefined, warn: () => undefined },
      tickets: {
        createTicket: () => Promise.reject(new Error('no ticket expected')),
        raiseFor: () => Promise.reject(new Error('no ticket expected')),
        mayRaise: () => false,
        states: async () => new Map(),
      },
      directory: t.handles.sites.directory,
      clock: { now: () => new Date(clock.now().getTime() + 601_000) },
    });
    await restarted.tick();
    expect(await alarmsOf(device.id)).toEqual([expect.objectContaining({ ruleName: 'Overload', state: 'ACTIVE', value: 95 })]);
    expect(await alarmsOf(other.id)).toEqual([]);
    expect(await pendingOf(device.id)).toEqual([]);
  });
});
