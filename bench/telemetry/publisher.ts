/**
 * The ingest benchmark's device fleet, in one lean process: one MQTT connection per device token, each publishing
 * ~95-byte JSON with 3 keys. Packets are encoded by hand and PUBACKs read by hand, so that the publisher is not the
 * bottleneck. Devices publish on a fixed total schedule (open loop) without waiting for acks; a device whose
 * socket or in-flight window is full skips its turn, counted as `skipped` (the offered rate is what was really sent).
 *
 * QoS mix: the first `qos1Share` of the devices publish at QoS 1, the others at QoS 0 (fleets mix both: QoS 0 for
 * frequent readings, QoS 1 where a lost value matters). The latency of a QoS 1 message is PUBLISH → PUBACK; Sitewatch
 * sends a PUBACK only once the message is committed, so with it that is the publish-to-queryable time.
 *
 * Phases run one after another on the same connections; for each, a line `PHASE <name> start|end` is printed at the
 * measurement window's edges (the parent samples the server there) and one JSON line of results at the end.
 *
 *   node bench/telemetry/publisher.ts <host> <port> <tokensFile> <me|token> <qos1Share> <phases JSON>
 *   phases: [{"name":"sustained","rate":20000,"seconds":30,"warmupSeconds":3}, …]
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

interface Phase {
  name: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

const [host = '127.0.0.1', portArg = '1884', tokensFile = '', topicMode = 'me', shareArg = '0.5', phasesArg = '[]'] = process.argv.slice(2);
const port = Number(portArg);
const qos1Share = Number(shareArg);
const phases = JSON.parse(phasesArg) as Phase[];
const tokens = readFileSync(tokensFile, 'utf8').split('\n').filter(Boolean);

/** Unacknowledged QoS 1 messages a device may have before it skips its turn. */
const MAX_IN_FLIGHT = 64;
/** Bytes waiting in a socket before its device skips its turn (QoS 0 has no other backpressure). */
const MAX_QUEUED_BYTES = 16 * 1024;

interface Conn {
  socket: Socket;
  qos: 0 | 1;
  topic: Buffer;
  nextId: number;
  sent: Map<number, number>;
  ready: boolean;
  rest: Buffer | null;
}

let recording = false;
/** Only messages published inside the measurement window count. */
let windowStart = Number.POSITIVE_INFINITY;
let windowEnd = Number.POSITIVE_INFINITY;
let latencies: number[] = [];
/** The latencies of each second of the window, by when the message was sent: shows whether a p99 is a spike. */
let latenciesBySecond: number[][] = [];
let acked = 0;
let refused = 0;

/** Reads CONNACKs and PUBACKs (4 bytes each; a chunk may end inside one). */
function onPacketBytes(conn: Conn, chunk: Buffer, resolveConnack: (ok: boolean) => void) {
  const buf = conn.rest ? Buffer.concat([conn.rest, chunk]) : chunk;
  let at = 0;
  while (buf.length - at >= 4) {
    const type = (buf[at] as number) >> 4;
    const length = buf[at + 1] as number;
    if (type === 4 && length === 2) {
      const id = ((buf[at + 2] as number) << 8) | (buf[at + 3] as number);
      const sentAt = conn.sent.get(id);
      if (sentAt !== undefined) {
        conn.sent.delete(id);
        if (sentAt >= windowStart && sentAt <= windowEnd) {
          acked++;
          const latency = performance.now() - sentAt;
          latencies.push(latency);
          const second = Math.floor((sentAt - windowStart) / 1000);
          latenciesBySecond[second] ??= [];
          latenciesBySecond[second].push(latency);
        }
      }
    } else if (type === 2) {
      const ok = buf[at + 3] === 0;
      if (!ok) refused++;
      conn.ready = ok;
      resolveConnack(ok);
    }
    at += 2 + length;
  }
  conn.rest = at < buf.length ? buf.subarray(at) : null;
}

function connectPacket(token: string, index: number) {
  const clientId = Buffer.from(`bench-${index}`);
  const user = Buffer.from(token);
  const body = Buffer.alloc(10 + 2 + clientId.length + 2 + user.length);
  let o = body.write('\u0000\u0004MQTT', 0, 'latin1');
  body[o++] = 4; // protocol level 3.1.1
  body[o++] = 0x82; // username, clean session
  body.writeUInt16BE(300, o); // keepalive
  o += 2;
  body.writeUInt16BE(clientId.length, o);
  clientId.copy(body, o + 2);
  o += 2 + clientId.length;
  body.writeUInt16BE(user.length, o);
  user.copy(body, o + 2);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
}

function open(token: string, index: number): Promise<Conn> {
  const qos: 0 | 1 = index < Math.round(tokens.length * qos1Share) ? 1 : 0;
  const topic = Buffer.from(topicMode === 'me' ? 'v1/devices/me/telemetry' : `v1/devices/${token}/telemetry`);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setNoDelay(true);
    const conn: Conn = { socket, qos, topic, nextId: 1, sent: new Map(), ready: false, rest: null };
    socket.on('data', (chunk: Buffer) => onPacketBytes(conn, chunk, () => resolve(conn)));
    socket.on('error', () => resolve(conn));
    socket.on('close', () => {
      conn.ready = false;
    });
    socket.on('connect', () => socket.write(connectPacket(token, index)));
  });
}

function publishPacket(conn: Conn, payload: string, messageId: number) {
  const payloadLength = Buffer.byteLength(payload);
  const remaining = 2 + conn.topic.length + (conn.qos ? 2 : 0) + payloadLength;
  const header = remaining < 128 ? 2 : 3;
  const packet = Buffer.allocUnsafe(header + remaining);
  packet[0] = 0x30 | (conn.qos << 1);
  if (header === 2) packet[1] = remaining;
  else {
    packet[1] = (remaining & 0x7f) | 0x80;
    packet[2] = remaining >> 7;
  }
  let o = header;
  packet.writeUInt16BE(conn.topic.length, o);
  conn.topic.copy(packet, o + 2);
  o += 2 + conn.topic.length;
  if (conn.qos) {
    packet.writeUInt16BE(messageId, o);
    o += 2;
  }
  packet.write(payload, o, 'latin1');
  return packet;
}

let seq = 0;
let cursor = 0;
let sent = 0;
let sentQos1 = 0;
let skipped = 0;
/** Everything published since the connections opened, warm-ups included (what a consumer should end up with). */
let totalSent = 0;
let totalSentQos1 = 0;

function publishNext(ready: Conn[]): void {
  for (let tries = 0; tries < ready.length; tries++) {
    const conn = ready[cursor++ % ready.length] as Conn;
    if (!conn.ready || conn.socket.writableLength > MAX_QUEUED_BYTES || conn.sent.size >= MAX_IN_FLIGHT) continue;
    const n = seq++;
    const payload = `{"ts":${Date.now()},"values":{"temperature":${(20 + (n % 100) / 10).toFixed(1)},"humidity":${(40 + (n % 37) / 7).toFixed(2)},"batteryVoltage":${(229.5 + (n % 7) / 3).toFixed(2)}}}`;
    let messageId = 0;
    if (conn.qos) {
      messageId = conn.nextId;
      conn.nextId = conn.nextId === 65535 ? 1 : conn.nextId + 1;
      conn.sent.set(messageId, performance.now());
    }
    conn.socket.write(publishPacket(conn, payload, messageId));
    totalSent++;
    if (conn.qos) totalSentQos1++;
    if (recording) {
      sent++;
      if (conn.qos) sentQos1++;
    }
    return;
  }
  if (recording) skipped++;
}

/** Publishes at `rate` for `ms`, keeping the schedule (what falls behind is sent as soon as possible). */
function run(ready: Conn[], rate: number, ms: number, onStart?: () => void): Promise<void> {
  return new Promise((resolve) => {
    const start = performance.now();
    let due = 0;
    onStart?.();
    const timer = setInterval(() => {
      const elapsed = performance.now() - start;
      const target = Math.min(Math.floor((Math.min(elapsed, ms) / 1000) * rate), Math.ceil((ms / 1000) * rate));
      // at most 50 ms worth at once, so that a stall does not turn into a burst
      const now = Math.min(target - due, Math.ceil(rate / 20));
      for (let i = 0; i < now; i++) publishNext(ready);
      due += Math.max(0, now);
      if (elapsed >= ms) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
}

const conns: Conn[] = [];
const t0 = performance.now();
for (let i = 0; i < tokens.length; i += 200) {
  conns.push(...(await Promise.all(tokens.slice(i, i + 200).map((t, j) => open(t, i + j)))));
}
const ready = conns.filter((c) => c.ready);
const connectMs = Math.round(performance.now() - t0);
console.log(JSON.stringify({ connected: ready.length, refused, connectMs }));

/** The values in ascending order (a typed array sorts numbers as numbers, without a comparator). */
const ascending = (values: number[]) => Array.from(Float64Array.from(values).sort());
const pct = (sorted: number[], p: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number) : null;

for (const phase of phases) {
  await run(ready, phase.rate, phase.warmupSeconds * 1000);
  sent = 0;
  sentQos1 = 0;
  skipped = 0;
  acked = 0;
  latencies = [];
  latenciesBySecond = [];
  await run(ready, phase.rate, phase.seconds * 1000, () => {
    recording = true;
    windowStart = performance.now();
    windowEnd = Number.POSITIVE_INFINITY;
    console.log(`PHASE ${phase.name} start`);
  });
  recording = false;
  windowEnd = performance.now();
  const windowMs = windowEnd - windowStart;
  console.log(`PHASE ${phase.name} end`);
  // the acks of what was sent in the window: wait for them (bounded), still recording their latency
  const waitUntil = performance.now() + 60_000;
  while (ready.some((c) => c.sent.size > 0) && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 50));
  const unacked = ready.reduce((n, c) => n + c.sent.size, 0);
  for (const c of ready) c.sent.clear();
  const list = ascending(latencies);
  console.log(
    JSON.stringify({
      phase: phase.name,
      offeredPerSecond: phase.rate,
      windowSeconds: Number((windowMs / 1000).toFixed(1)),
      sent,
      sentPerSecond: Math.round(sent / (windowMs / 1000)),
      skipped,
      sentQos1,
      acked,
      ackedPerSecondOfWindow: Math.round(acked / (windowMs / 1000)),
      unacked,
      p50Ms: pct(list, 0.5),
      p95Ms: pct(list, 0.95),
      p99Ms: pct(list, 0.99),
      maxMs: list.length ? Math.round(list[list.length - 1] as number) : null,
      p99BySecondMs: Array.from(latenciesBySecond, (second) => pct(ascending(second ?? []), 0.99)),
      totalSent,
      totalSentQos1,
    }),
  );
}
for (const c of conns) c.socket.destroy();
process.exit(0);
