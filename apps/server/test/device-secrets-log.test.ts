import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';
import { accessTokenOf, makeDeviceOfEveryKind, makeSite } from './support/sites-factory.ts';

/** Every kind of device secret, each with a value no log line may carry. */
const SECRETS = {
  snmpCommunity: 'cm-LOGMARK-1',
  snmpAuthKey: 'ak-LOGMARK-2',
  snmpPrivKey: 'pk-LOGMARK-3',
  rtspPassword: 'rp-LOGMARK-4',
  httpPassword: 'hp-LOGMARK-5',
  gatewayToken: 'gt-LOGMARK-6',
  rtspUrl: 'rtsp://cam:up-LOGMARK-7@127.0.0.1:8554/live',
  httpUrl: 'http://admin:hu-LOGMARK-8@127.0.0.1/status',
};

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  // every line the server logs, at its most talkative level
  t = await createTestApp({}, { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } });
});
afterAll(() => t?.close());

describe('device secrets in the log', () => {
  it('no log line of a device created, changed, read, reporting or provisioning carries a secret or a token', async () => {
    const admin = await t.login('customeradmin');
    const site = await makeSite(admin, { name: 'Log Yard' });
    const { made, tokens } = await makeDeviceOfEveryKind(admin, site.id, { ...SECRETS, ipAddress: '127.0.0.9' });
    const [first] = [...made.values()] as [number];
    expect((await admin.put(`/iotapp/devices/${first}/`, { metadata: { snmpCommunity: 'cm-LOGMARK-9' } })).statusCode).toBe(200);
    // a refused change (a secret beside an invalid field) is logged as a refusal, without the values
    expect((await admin.put(`/iotapp/devices/${first}/`, { label: '', metadata: { snmpAuthKey: 'ak-LOGMARK-10' } })).statusCode).toBe(400);
    tokens.push(await accessTokenOf(admin, first));
    // the device reports with its token in the path, and is refused once with a wrong one
    const anon = t.anonymous();
    for (const token of tokens.slice(0, 3)) {
      expect((await anon.post(`/api/v1/${token}/telemetry`, { temperature: 21 })).statusCode).toBe(200);
      expect((await anon.post(`/api/v1/${token}/attributes`, { model: 'X1' })).statusCode).toBe(200);
    }
    // provisioning with the customer's key and secret (and a wrong secret)
    const customer = (await admin.post('/iotapp/customers/', { name: 'Log Fleet' })).json();
    const set = await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, {
      provisionDeviceKey: 'log-fleet-key',
      provisionDeviceSecret: 'ps-LOGMARK-11-0123456789',
    });
    expect(set.statusCode, set.body).toBe(200);
    const provisioned = await anon.post('/api/v1/provision', {
      deviceName: 'LOG-GW-1',
      provisionDeviceKey: 'log-fleet-key',
      provisionDeviceSecret: 'ps-LOGMARK-11-0123456789',
    });
    expect(provisioned.json()).toMatchObject({ status: 'SUCCESS' });
    tokens.push(provisioned.json().credentialsValue);
    await anon.post('/api/v1/provision', {
      deviceName: 'LOG-GW-2',
      provisionDeviceKey: 'log-fleet-key',
      provisionDeviceSecret: 'ps-LOGMARK-12-wrong',
    });
    await t.app.jobs.drain();

    // the log did record the traffic (so the check below looks at something)
    expect(lines.filter((l) => l.includes('"url":"/api/v1/***/telemetry"')).length).toBeGreaterThanOrEqual(3);
    const leaks = lines.filter((line) => line.includes('LOGMARK') || tokens.some((token) => line.includes(token)));
    expect(leaks).toEqual([]);
  }, 300_000);
});
