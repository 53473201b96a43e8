/**
 * A ThingsBoard device's session against a running product, printed as a transcript: provisioning (MQTT and HTTP),
 * client and shared attributes (request, pushed updates, HTTP long poll), device-side RPC, server-side RPC (a
 * command from a user), and the same over MQTT 5 — with the `mqtt` client library and fetch, as firmware does.
 * Start the product with the demo and a fixed captcha, e.g.
 *   PORT=8230 MQTT_PORT=9230 SNMP_TRAP_PORT=10230 DATA_DIR=/tmp/sw-tb CAPTCHA_FIXED_ANSWER=bench npm start
 * then: node bench/telemetry/tb-session.ts http://localhost:8230 mqtt://localhost:9230
 * (CAPTCHA=<the fixed answer>, default `bench`; it signs in as the demo's customeradmin.)
 */
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { signIn } from '../support/sign-in.ts';

const base = process.argv[2] ?? 'http://localhost:8080';
const mqttUrl = process.argv[3] ?? 'mqtt://localhost:1884';
const captcha = process.env.CAPTCHA ?? 'bench';

const started = Date.now();
/** Credentials never appear in the transcript: each is shown by its name. */
const secrets = new Map<string, string>();
const mask = (text: string) => {
  let out = text.replace(/"credentialsValue":"([^"]+)"/g, (_m, value: string) => {
    secrets.set(value, '$TOKEN');
    return '"credentialsValue":"$TOKEN"';
  });
  for (const [value, name] of secrets) out = out.split(value).join(name);
  return out;
};
const line = (who: string, text: string) => console.log(`${String(Date.now() - started).padStart(6)} ms  ${who.padEnd(9)} ${mask(text)}`);
const json = (v: unknown) => JSON.stringify(v);

async function main() {
  const session = await signIn(base, captcha);
  const csrf = /csrftoken=([^;]+)/.exec(session.cookie)?.[1] ?? '';
  const user = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session.access}`,
        cookie: session.cookie,
        'x-csrftoken': csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const device = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    line('HTTP', `${method} ${path}${body === undefined ? '' : ` ${json(body)}`} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  const customers = (await user('GET', '/iotapp/customers/')) as { contents?: Array<{ id: number }> } | Array<{ id: number }>;
  const first = (Array.isArray(customers) ? customers : (customers.contents ?? []))[0];
  if (!first) throw new Error('no customer in the demo tenant');
  // the tenant administrator sets the secret the firmware is flashed with: no answer gives it back
  const provisionDeviceSecret = `tb-session-${randomBytes(12).toString('hex')}`;
  const cred = (await user('PUT', `/iotapp/customers/${first.id}/iot-fw-cred/`, { provisionDeviceSecret })) as {
    provisionDeviceKey: string;
    provisionDeviceSecretSet: boolean;
  };
  line('admin', `PUT /iotapp/customers/${first.id}/iot-fw-cred/ → provisionDeviceSecretSet ${cred.provisionDeviceSecretSet}`);
  const provisionKeys = { provisionDeviceKey: cred.provisionDeviceKey, provisionDeviceSecret };
  secrets.set(provisionDeviceSecret, '$SECRET');
  secrets.set(cred.provisionDeviceKey, '$KEY');

  console.log(`ThingsBoard device session against ${base} and ${mqttUrl}\n`);
  console.log('— provisioning over MQTT (username "provision")');
  const suffix = Date.now().toString(36);
  const prov = await connect({ username: 'provision' }, 'provision');
  await subscribe(prov, '/provision/response');
  const provisioned = await ask(prov, '/provision/request', { deviceName: `TB-FW-${suffix}`, ...provisionKeys }, '/provision/response');
  await ask(
    prov,
    '/provision/request',
    { deviceName: `TB-FW-X-${suffix}`, ...provisionKeys, provisionDeviceSecret: 'wrong' },
    '/provision/response',
  );
  prov.end();
  const token = (provisioned as { credentialsValue: string }).credentialsValue;

  console.log('\n— provisioning over HTTP, with a token the device brings');
  const httpToken = `tb-http-${suffix}`;
  secrets.set(httpToken, '$TOKEN2');
  await device('POST', '/api/v1/provision', {
    deviceName: `TB-HTTP-${suffix}`,
    ...provisionKeys,
    credentialsType: 'ACCESS_TOKEN',
    token: httpToken,
  }).then(() => undefined);

  const listed = (await user('GET', `/iotapp/devices/?discovered=true&label__icontains=TB-FW-${suffix}`)) as {
    contents: Array<{ id: number; label: string }>;
  };
  const deviceId = listed.contents.find((d) => d.label === `TB-FW-${suffix}`)?.id;
  if (!deviceId) throw new Error('the provisioned device is not listed');

  const sites = (await user('GET', '/iotapp/assets/?limit=1')) as { contents?: Array<{ id: number }> } | Array<{ id: number }>;
  const site = (Array.isArray(sites) ? sites : (sites.contents ?? []))[0];
  if (!site) throw new Error('no site in the demo tenant');
  line('user', `POST /iotapp/devices/${deviceId}/add-to-inventory/ (a discovered device joins a site; commands go to devices of sites)`);
  await user('POST', `/iotapp/devices/${deviceId}/add-to-inventory/`, { label: `TB-FW-${suffix}`, assetId: site.id });

  console.log('\n— attributes over MQTT 3.1.1');
  const fw = await connect({ username: token }, 'device');
  for (const topic of [
    'v1/devices/me/attributes/response/+',
    'v1/devices/me/attributes',
    'v1/devices/me/rpc/request/+',
    'v1/devices/me/rpc/response/+',
  ])
    await subscribe(fw, topic);
  await publish(fw, 'v1/devices/me/attributes', { firmwareVersion: '1.0.3', serialNumber: 'SN-4A21F' });
  await publish(fw, 'v1/devices/me/telemetry', { temperature: 24.5 });
  line('user', `PUT /api/device-api/devices/${deviceId}/shared-attributes/ {"targetFirmware":"1.1.0","reportingIntervalSeconds":60}`);
  await user('PUT', `/api/device-api/devices/${deviceId}/shared-attributes/`, { targetFirmware: '1.1.0', reportingIntervalSeconds: 60 });
  await ask(
    fw,
    'v1/devices/me/attributes/request/1',
    { clientKeys: 'firmwareVersion,serialNumber', sharedKeys: 'targetFirmware' },
    'v1/devices/me/attributes/response/1',
  );
  await ask(fw, 'v1/devices/me/attributes/request/2', {}, 'v1/devices/me/attributes/response/2');
  const pushed = next(fw, 'v1/devices/me/attributes');
  line('user', `PUT /api/device-api/devices/${deviceId}/shared-attributes/ {"targetFirmware":"1.2.0"}`);
  await user('PUT', `/api/device-api/devices/${deviceId}/shared-attributes/`, { targetFirmware: '1.2.0' });
  await pushed;
  const deleted = next(fw, 'v1/devices/me/attributes');
  line('user', `DELETE /api/device-api/devices/${deviceId}/shared-attributes/?keys=reportingIntervalSeconds`);
  await user('DELETE', `/api/device-api/devices/${deviceId}/shared-attributes/?keys=reportingIntervalSeconds`);
  await deleted;

  console.log('\n— device-side RPC over MQTT');
  await ask(fw, 'v1/devices/me/rpc/request/1', { method: 'getCurrentTime', params: {} }, 'v1/devices/me/rpc/response/1');
  await ask(
    fw,
    'v1/devices/me/rpc/request/2',
    { method: 'getSharedAttributes', params: { keys: 'targetFirmware' } },
    'v1/devices/me/rpc/response/2',
  );
  await ask(fw, 'v1/devices/me/rpc/request/3', { method: 'reboot', params: {} }, 'v1/devices/me/rpc/response/3');

  console.log('\n— server-side RPC (a command from a user)');
  fw.on('message', (topic, payload) => {
    const match = /^v1\/devices\/me\/rpc\/request\/(\d+)$/.exec(topic);
    if (!match) return;
    line('product', `${topic} ${payload.toString()}`);
    const request = JSON.parse(payload.toString()) as { method: string };
    void publish(fw, `v1/devices/me/rpc/response/${match[1]}`, { ok: true, method: request.method });
  });
  line('user', `POST /api/commands/ {"deviceId":${deviceId},"method":"setLed","params":{"on":true}}`);
  const command = (await user('POST', '/api/commands/', { deviceId, method: 'setLed', params: { on: true } })) as { id: number };
  let state = '';
  for (let i = 0; i < 100 && !['successful', 'failed', 'timeout'].includes(state); i++) {
    await new Promise((r) => setTimeout(r, 100));
    state = ((await user('GET', `/api/commands/${command.id}/`)) as { state: string }).state;
  }
  line('user', `GET /api/commands/${command.id}/ → state ${state}`);
  fw.end();

  console.log('\n— the same over HTTP');
  await device('POST', `/api/v1/${httpToken}/attributes`, { firmwareVersion: '2.0.0' });
  await device('GET', `/api/v1/${httpToken}/attributes?clientKeys=firmwareVersion&sharedKeys=targetFirmware`);
  const httpDevice = (await user('GET', `/iotapp/devices/?discovered=true&label__icontains=TB-HTTP-${suffix}`)) as {
    contents: Array<{ id: number }>;
  };
  const httpId = httpDevice.contents[0]?.id;
  const polling = device('GET', `/api/v1/${httpToken}/attributes/updates?timeout=10000`);
  await new Promise((r) => setTimeout(r, 300));
  line('user', `PUT /api/device-api/devices/${httpId}/shared-attributes/ {"mode":"eco"}`);
  await user('PUT', `/api/device-api/devices/${httpId}/shared-attributes/`, { mode: 'eco' });
  await polling;
  await device('GET', `/api/v1/${httpToken}/attributes/updates?timeout=500`);
  await device('POST', `/api/v1/${httpToken}/rpc`, { method: 'getCurrentTime', params: {} });

  console.log('\n— MQTT 5');
  const v5 = await connect({ username: httpToken, protocolVersion: 5 }, 'device');
  await subscribe(v5, 'v1/devices/me/attributes/response/+');
  await ask(v5, 'v1/devices/me/attributes/request/7', { sharedKeys: 'mode' }, 'v1/devices/me/attributes/response/7');
  await subscribe(v5, 'v1/devices/+/telemetry').catch(() => undefined);
  const why = new Promise<void>((resolve) =>
    v5.once('disconnect', (packet) => {
      line('product', `DISCONNECT reason code ${packet.reasonCode}: ${packet.properties?.reasonString}`);
      resolve();
    }),
  );
  line('device', 'publish other/topic');
  v5.publish('other/topic', 'x', { qos: 1 });
  await why;
  v5.end(true);
  await connect({ username: 'not-a-token', protocolVersion: 5 }, 'device').catch((error: { code?: number; message: string }) =>
    line('product', `CONNACK to an unknown token (MQTT 5): reason code ${error.code} (${error.message})`),
  );
  console.log(`\nsession done in ${Date.now() - started} ms`);
}

function connect(options: { username: string; protocolVersion?: 4 | 5 }, who: string): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(mqttUrl, { reconnectPeriod: 0, clientId: `tb-session-${Math.random().toString(36).slice(2)}`, ...options });
    client.once('connect', (packet) => {
      line(
        who,
        `CONNECT username ${options.username} (MQTT ${options.protocolVersion === 5 ? '5' : '3.1.1'}) → CONNACK ${packet.reasonCode ?? packet.returnCode ?? 0}`,
      );
      resolve(client);
    });
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

function subscribe(client: MqttClient, topic: string) {
  return new Promise<void>((resolve, reject) =>
    client.subscribe(topic, { qos: 1 }, (error, granted) => {
      line('device', `SUBSCRIBE ${topic} → ${error ? `refused (${error.message})` : `granted QoS ${granted?.[0]?.qos}`}`);
      if (error) reject(error);
      else resolve();
    }),
  );
}

function publish(client: MqttClient, topic: string, body: unknown) {
  line('device', `publish ${topic} ${json(body)}`);
  return new Promise<void>((resolve, reject) =>
    client.publish(topic, json(body), { qos: 1 }, (error) => (error ? reject(error) : resolve())),
  );
}

function next(client: MqttClient, topic: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing on ${topic} in 5 s`)), 5000);
    const onMessage = (t: string, payload: Buffer) => {
      if (t !== topic) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      line('product', `${t} ${payload.toString()}`);
      resolve(JSON.parse(payload.toString()));
    };
    client.on('message', onMessage);
  });
}

async function ask(client: MqttClient, topic: string, body: unknown, answerTopic: string) {
  const answer = next(client, answerTopic);
  line('device', `publish ${topic} ${json(body)}`);
  client.publish(topic, json(body), { qos: 1 });
  return answer;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
