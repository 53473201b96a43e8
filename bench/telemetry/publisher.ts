/**
 * A lean MQTT publisher for the ingest benchmark: N device connections (raw sockets, mqtt-packet) each publishing
 * ~100-byte JSON with 3 keys at QoS 1, at a fixed total rate. The latency of a message is the time from its PUBLISH
 * to its PUBACK — with Sitewatch's broker a PUBACK is only sent once the message is committed, so that is the
 * publish-to-queryable time. Prints one JSON line of results.
 *
 *   node --import tsx bench/telemetry/publisher.ts <host> <port> <tokensFile> <rate> <seconds> <topicMode: me|token>
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';

const [host = '127.0.0.1', portArg = '1884', tokensFile = '', rateArg = '20000', secondsArg = '20', topicMode = 'me'] =
  process.argv.slice(2);
const port = Number(portArg);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const tokens = readFileSync(tokensFile, 'utf8').split('\n').filter(Boolean);

interface Conn {
  socket: Socket;
  token: string;
  nextId: number;
  sent: Map<number, number>;
  ready: boolean;
}

const latencies: number[] = [];
let acked = 0;
let sent = 0;
let refused = 0;
let measuring = false;
let windowStart = Number.POSITIVE_INFINITY;
let windowEnd = Number.POSITIVE_INFINITY;

function open(token: string): Promise<Conn> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setNoDelay(true);
    const conn: Conn = { socket, token, nextId: 1, sent: new Map(), ready: false };
    const parser = mqttPacket.parser();
    parser.on('packet', (packet) => {
      if (packet.cmd === 'connack') {
        if (packet.returnCode !== 0) refused++;
        conn.ready = packet.returnCode === 0;
        resolve(conn);
      } else if (packet.cmd === 'puback') {
        const at = conn.sent.get(packet.messageId as number);
        if (at !== undefined) {
          conn.sent.delete(packet.messageId as number);
          const now = performance.now();
          if (measuring) acked++;
          if (at >= windowStart && at <= windowEnd) latencies.push(now - at);
        }
      }
    });
    socket.on('data', (buf) => parser.parse(buf));
    socket.on('error', () => resolve(conn));
    socket.on('connect', () => {
      socket.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          clientId: `bench-${token.slice(-16)}`,
          keepalive: 300,
          username: token,
        }),
      );
    });
  });
}

const conns: Conn[] = [];
const t0 = performance.now();
for (let i = 0; i < tokens.length; i += 500) {
  conns.push(...(await Promise.all(tokens.slice(i, i + 500).map(open))));
}
const ready = conns.filter((c) => c.ready);
const connectMs = performance.now() - t0;

function publishOne(conn: Conn, seq: number) {
  const messageId = conn.nextId;
  conn.nextId = conn.nextId === 65535 ? 1 : conn.nextId + 1;
  const payload = JSON.stringify({
    ts: Date.now(),
    values: { temperature: 20 + (seq % 100) / 10, humidity: 40 + (seq % 37) / 7, batteryVoltage: 229.5 + (seq % 7) / 3 },
  });
  const topic = topicMode === 'me' ? 'v1/devices/me/telemetry' : `v1/devices/${conn.token}/telemetry`;
  conn.sent.set(messageId, performance.now());
  conn.socket.write(mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 1, messageId, retain: false, dup: false }));
  sent++;
}

// warm-up 2 s, then measure
let seq = 0;
let cursor = 0;
const tickMs = 20;
const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
const start = performance.now();
let measureStart = 0;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const elapsed = performance.now() - start;
    if (!measuring && elapsed > 2000) {
      measuring = true;
      measureStart = performance.now();
      windowStart = measureStart;
    }
    if (elapsed > 2000 + seconds * 1000) {
      measuring = false;
      windowEnd = performance.now();
      clearInterval(timer);
      resolve();
      return;
    }
    // keep the schedule: publish what is due by now
    const due = Math.floor((elapsed / 1000) * rate) - seq;
    for (let i = 0; i < Math.min(due, perTick * 5); i++) {
      const conn = ready[cursor++ % ready.length] as Conn;
      publishOne(conn, seq++);
    }
  }, tickMs);
});
const measureMs = performance.now() - measureStart;
// let in-flight acks arrive
await new Promise((r) => setTimeout(r, 3000));
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies.length ? (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] as number) : null;
console.log(
  JSON.stringify({
    connections: ready.length,
    refused,
    connectMs: Math.round(connectMs),
    sent,
    ackedInWindow: acked,
    ackedPerSecond: Math.round(acked / (measureMs / 1000)),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    maxMs: latencies.at(-1) ?? null,
  }),
);
for (const c of conns) c.socket.destroy();
process.exit(0);
