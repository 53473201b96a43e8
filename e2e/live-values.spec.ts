import mqtt from 'mqtt';
import { apiSession, expect, test } from './fixtures.ts';

const MQTT_PORT = Number(process.env.E2E_PORT ?? 8181) + 1000;

/** Publishes one telemetry message over MQTT with the device token as user name (QoS 1: resolves after the PUBACK). */
async function publishMqtt(token: string, values: Record<string, number>) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${MQTT_PORT}`, { username: token, reconnectPeriod: 0, connectTimeout: 5000 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(values), { qos: 1 });
  await client.endAsync();
}

test('a value published over HTTP or MQTT shows on the open device page within about a second', async ({ page, signIn, baseURL }) => {
  const api = await apiSession(baseURL as string, 'customeradmin');
  const list = await (await api.get('/iotapp/devices/?type=METER&limit=1')).json();
  const deviceId: number = list.contents[0].id;
  const device = await (await api.post(`/iotapp/devices/${deviceId}/access-token/`)).json();
  const key = `e2eLive${Date.now().toString(36)}`;
  // values no earlier run against this server sent to the same device (its other keys stay on the page)
  const httpValue = 1000 + Math.floor(Math.random() * 8998);
  const mqttValue = httpValue + 1;

  // The page tells the server over its socket which devices it shows; values sent before that are not pushed.
  const watching = page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/ws'))
    .then((ws) =>
      ws.waitForEvent('framesent', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { type?: string; deviceIds?: number[] };
        return message.type === 'watch' && (message.deviceIds ?? []).includes(deviceId);
      }),
    );
  await signIn('customeradmin', { next: `/devices/${deviceId}/view` });
  const values = page.getByTestId('device-values');
  await expect(values).toBeVisible();
  await watching;

  // the first value also proves the page watches the device over its socket
  expect((await api.context.post(`/api/v1/${device.accessToken}/telemetry`, { data: { [key]: 1 } })).status()).toBe(200);
  await expect(values.getByText(key)).toBeVisible({ timeout: 10_000 });

  // from here on the values arrive by push alone: the page fetches no live values or chart
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/telemetry\/devices\/\d+\/(latest|chart)\//.test(r.url())) fetched.push(r.url());
  });

  // HTTP: the 200 follows the commit; the page has the value within ~1 s
  let sent = Date.now();
  expect((await api.context.post(`/api/v1/${device.accessToken}/telemetry`, { data: { [key]: httpValue } })).status()).toBe(200);
  await expect(values.getByText(String(httpValue), { exact: true })).toBeVisible({ timeout: 1500 });
  const httpMs = Date.now() - sent;

  // MQTT, as firmware sends it
  sent = Date.now();
  await publishMqtt(device.accessToken, { [key]: mqttValue });
  await expect(values.getByText(String(mqttValue), { exact: true })).toBeVisible({ timeout: 1500 });
  const mqttMs = Date.now() - sent;

  // the live table below shows the same value, and nothing was polled to get there
  await expect(page.getByTestId('live-values').getByText(String(mqttValue), { exact: true })).toBeVisible();
  expect(fetched).toEqual([]);
  test.info().annotations.push({ type: 'latency', description: `HTTP ${httpMs} ms, MQTT ${mqttMs} ms` });
  await api.dispose();
});
