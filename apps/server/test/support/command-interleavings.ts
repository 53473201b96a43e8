import { COMMAND_TOPICS } from '@sitewatch/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { generate } from 'mqtt-packet';

export { seededRandom as seeded } from './fuzz.ts';

/**
 * One device's life around its commands, driven step by step through a real MQTT client (mqtt.js) against the
 * embedded broker: connections that come and go (cleanly or cut), commands sent by the product, PUBACKs the device
 * gives when the step says so, replies over MQTT or HTTP, and replies cut off half-written. The device behaves as
 * firmware that follows the product's advice: it executes a request id it has not executed yet, drops a repeat of
 * an id it executed and has not had its reply acknowledged for, and forgets an id once its reply is acknowledged.
 * At the end it reconnects, acknowledges everything, and sends every reply not yet acknowledged again.
 */

export const INTERLEAVING_STEPS = ['connect', 'command', 'puback', 'reply', 'reply-http', 'reply-cut', 'drop', 'close', 'wait'] as const;
export type InterleavingStep = (typeof INTERLEAVING_STEPS)[number];

export interface InterleavingApi {
  mqttUrl: string;
  /** Creates a two-way command for the device (through the user API); its id. */
  send(deviceId: number): Promise<number>;
  /** The commands' current state and response. */
  commands(ids: number[]): Promise<Array<{ id: number; state: string; response: unknown }>>;
  /** The device's HTTP reply (`POST /api/v1/{token}/rpc/{id}`); the status code. */
  httpReply(token: string, id: number, body: unknown): Promise<number>;
}

export interface InterleavingOutcome {
  /** Executions of a request id after its reply was acknowledged (the product sent a completed command again). */
  executedTwice: number;
  /** Request ids the device executed (and answered) whose command did not end successful with that answer. */
  repliesLost: number;
  /** Deliveries of an id whose PUBACK the server had read (sent on a connection closed cleanly after it). */
  resentAfterAck: number;
  /** Commands the device never got (at least once is broken). */
  neverDelivered: number;
}

interface Connection {
  client: MqttClient;
  /** Requests received whose PUBACK the device holds back, oldest first (mqtt.js reads nothing more meanwhile). */
  held: Array<{ id: number; ack: () => void }>;
  /** Ids acknowledged on this connection. */
  acked: Set<number>;
  auto: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const answerOf = (id: number) => ({ done: id });

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(40);
  }
  return false;
}

export async function runInterleaving(
  api: InterleavingApi,
  device: { id: number; token: string },
  steps: readonly InterleavingStep[],
  random: () => number,
): Promise<InterleavingOutcome> {
  const sent: number[] = [];
  const executions = new Map<number, number>();
  const remembered = new Set<number>();
  const replied = new Set<number>();
  const knownAcked = new Set<number>();
  const outcome: InterleavingOutcome = { executedTwice: 0, repliesLost: 0, resentAfterAck: 0, neverDelivered: 0 };
  let conn = null as Connection | null;
  let cutIds = 60_000;

  function received(c: Connection, id: number, ack: () => void) {
    // answered and forgotten: the device executes it again (counted as executed twice at the end)
    if (replied.has(id) && !remembered.has(id)) replied.delete(id);
    if (knownAcked.has(id)) outcome.resentAfterAck++;
    if (!remembered.has(id)) {
      remembered.add(id);
      executions.set(id, (executions.get(id) ?? 0) + 1);
    }
    if (c.auto) {
      ack();
      c.acked.add(id);
    } else c.held.push({ id, ack });
  }

  async function connect() {
    if (conn) return conn;
    const c: Connection = { client: undefined as unknown as MqttClient, held: [], acked: new Set(), auto: false };
    c.client = mqtt.connect(api.mqttUrl, {
      username: device.token,
      clientId: `il-${device.id}-${Math.random().toString(36).slice(2)}`,
      reconnectPeriod: 0,
      connectTimeout: 30_000,
    });
    // mqtt.js acknowledges a QoS 1 message (and reads the next packet) once handleMessage calls back
    c.client.handleMessage = (packet, callback) => {
      if (packet.cmd !== 'publish') return callback();
      received(c, Number(packet.topic.split('/').pop()), () => callback());
    };
    c.client.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      c.client.once('connect', () => resolve());
      c.client.once('error', reject);
    });
    await c.client.subscribeAsync(COMMAND_TOPICS.requestSubscription, { qos: 1 });
    conn = c;
    return c;
  }

  function pickUnanswered() {
    const open = [...remembered].filter((id) => !replied.has(id));
    return open.length ? (open[Math.floor(random() * open.length)] as number) : null;
  }

  function replyMqtt(c: Connection, id: number) {
    return new Promise<void>((resolve) => {
      c.client.publish(COMMAND_TOPICS.response(id), JSON.stringify(answerOf(id)), { qos: 1 }, (error) => {
        if (!error) {
          replied.add(id);
          remembered.delete(id);
        }
        resolve();
      });
    });
  }

  async function drop(c: Connection) {
    conn = null;
    c.client.stream.destroy();
    c.client.end(true);
    // a late connack timeout of a client ended meanwhile is not an error of the run
    c.client.on('error', () => undefined);
  }

  for (const step of steps) {
    switch (step) {
      case 'connect':
        await connect();
        break;
      case 'command':
        sent.push(await api.send(device.id));
        break;
      case 'puback': {
        const head = conn?.held.shift();
        if (conn && head) {
          head.ack();
          conn.acked.add(head.id);
        }
        break;
      }
      case 'reply': {
        const id = pickUnanswered();
        // not awaited: the server's PUBACK may wait behind a held acknowledgement, or never come (a cut connection)
        if (conn && id !== null) void replyMqtt(conn, id);
        break;
      }
      case 'reply-http': {
        const id = pickUnanswered();
        if (id !== null && (await api.httpReply(device.token, id, answerOf(id))) === 200) {
          replied.add(id);
          remembered.delete(id);
        }
        break;
      }
      case 'reply-cut': {
        const id = pickUnanswered();
        if (conn && id !== null) {
          const c = conn;
          const packet = generate({
            cmd: 'publish',
            topic: COMMAND_TOPICS.response(id),
            payload: Buffer.from(JSON.stringify(answerOf(id))),
            qos: 1,
            messageId: cutIds++,
            retain: false,
            dup: false,
          });
          c.client.stream.write(packet.subarray(0, Math.max(1, Math.floor(packet.length / 2))));
          await drop(c);
        }
        break;
      }
      case 'drop':
        if (conn) await drop(conn);
        break;
      case 'close':
        if (conn) {
          const c = conn;
          conn = null;
          // FIN after what was written: the server reads every PUBACK sent before it
          await new Promise<void>((resolve) => {
            c.client.stream.once('finish', () => resolve());
            c.client.stream.once('close', () => resolve());
            c.client.stream.end();
          });
          for (const id of c.acked) knownAcked.add(id);
          c.client.end(true);
        }
        break;
      case 'wait':
        await sleep(Math.floor(random() * 25));
        break;
    }
  }

  // the device comes back for good: acknowledges everything, answers everything it executed
  const c = await connect();
  c.auto = true;
  for (const { id, ack } of c.held.splice(0)) {
    ack();
    c.acked.add(id);
  }
  const states = async () => api.commands(sent);
  // generous waits: on a loaded machine a slow answer must not pass for a lost one
  await until(async () => (await states()).every((s) => s.state !== 'queued' && s.state !== 'sent'), 30_000);
  await sleep(30);
  await Promise.all([...remembered].map((id) => replyMqtt(c, id)));
  await until(async () => (await states()).every((s) => s.state === 'successful'), 30_000);
  const final = await states();
  await drop(c);
  for (const id of sent) {
    const row = final.find((s) => s.id === id);
    if (!executions.has(id)) outcome.neverDelivered++;
    else if (row?.state !== 'successful' || JSON.stringify(row.response) !== JSON.stringify(answerOf(id))) outcome.repliesLost++;
  }
  for (const n of executions.values()) if (n > 1) outcome.executedTwice += n - 1;
  return outcome;
}

/** Random steps, biased towards what makes trouble: commands early, connections cut around acknowledgements. */
export function randomSteps(random: () => number, length: number): InterleavingStep[] {
  const steps: InterleavingStep[] = ['connect', 'command'];
  for (let i = 2; i < length; i++) steps.push(INTERLEAVING_STEPS[Math.floor(random() * INTERLEAVING_STEPS.length)] as InterleavingStep);
  return steps;
}
