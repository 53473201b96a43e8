import type { Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';

/**
 * MQTT 5 for the embedded broker. aedes speaks MQTT 3.1 and 3.1.1 only and answers an MQTT 5 CONNECT with "unsupported
 * protocol version". Its parser and writer (mqtt-packet) speak MQTT 5, though, and what the product needs of MQTT 5 is
 * the 3.1.1 exchange in the 5 wire format: so the connection is read as MQTT 5 once its CONNECT says so, aedes
 * handles it as 3.1.1, and every packet aedes writes to it is translated to MQTT 5 (return codes to reason codes)
 * on the way out. MQTT 5 features beyond that (topic aliases, session expiry, shared subscriptions, user properties,
 * flow control by receive maximum) are not offered: the CONNACK announces no topic aliases, and properties a client
 * sends are ignored. A refused client always gets a reason code: CONNACK 135 for an unknown token, DISCONNECT with a
 * reason code and string before a connection is closed for what it published.
 */

/** Sockets of MQTT 5 clients. */
const v5 = new WeakSet<object>();
/** Per MQTT 5 socket: message id of an UNSUBSCRIBE → how many filters it named (its UNSUBACK has one code each). */
const unsubscribing = new WeakMap<object, Map<number, number>>();

/** CONNACK return codes of MQTT 3.1.1 (and aedes' own 6: keep-alive too long) → MQTT 5 reason codes. */
const CONNACK_REASONS: Record<number, number> = { 0: 0, 1: 132, 2: 133, 3: 136, 4: 134, 5: 135, 6: 130 };
/** MQTT 5 reason codes used when the product closes a connection. */
export const DISCONNECT_REASONS = { notAuthorized: 135, topicNameInvalid: 144, serverBusy: 137 } as const;

export const isMqtt5 = (stream: object | undefined) => stream !== undefined && v5.has(stream);

type Packet = { cmd: string; [key: string]: unknown };
type WriteToStream = (packet: Packet, stream: NodeJS.WritableStream, opts?: { protocolVersion?: number }) => boolean;
type ParserState = { packet: Packet & { protocolVersion?: number }; settings: { protocolVersion?: number }; client?: { conn?: object } };

function toV5(packet: Packet, stream: object): Packet {
  switch (packet.cmd) {
    case 'connack': {
      const returnCode = (packet.returnCode as number | undefined) ?? 0;
      return { ...packet, reasonCode: CONNACK_REASONS[returnCode] ?? 128, properties: { topicAliasMaximum: 0 } };
    }
    case 'suback':
      // 3.1.1's failure (128) is, here, always a filter the client may not subscribe to
      return { ...packet, granted: (packet.granted as number[]).map((g) => (g === 128 ? DISCONNECT_REASONS.notAuthorized : g)) };
    case 'unsuback': {
      const pending = unsubscribing.get(stream);
      const count = pending?.get(packet.messageId as number) ?? 1;
      pending?.delete(packet.messageId as number);
      return { ...packet, granted: new Array(count).fill(0) };
    }
    default:
      return packet;
  }
}

let installed = false;

/** Teaches mqtt-packet, as aedes uses it, to read and write MQTT 5 for the clients that connect with it. Idempotent. */
export function installMqtt5() {
  if (installed) return;
  installed = true;
  const packets = mqttPacket as unknown as { writeToStream: WriteToStream & { cacheNumbers?: boolean }; parser: () => object };
  const write = packets.writeToStream;
  const wrapped: WriteToStream = (packet, stream, opts) => {
    // a caller that says which version it writes (the mqtt client library) is left alone
    if (opts || !v5.has(stream)) return write(packet, stream, opts);
    return write(toV5(packet, stream), stream, { protocolVersion: 5 });
  };
  packets.writeToStream = Object.assign(wrapped, { cacheNumbers: write.cacheNumbers });

  const prototype = Object.getPrototypeOf(packets.parser()) as {
    _parseConnect(this: ParserState): unknown;
    _parseUnsubscribe(this: ParserState): unknown;
  };
  const parseConnect = prototype._parseConnect;
  prototype._parseConnect = function (this: ParserState) {
    const result = parseConnect.call(this);
    const conn = this.client?.conn;
    // aedes' parsers know their client; the rest of the connection's packets are read as MQTT 5. The parser keeps
    // the CONNECT packet as its settings, and aedes is then handed that packet marked 3.1.1: a settings object of
    // its own keeps the parser on 5
    if (this.packet.protocolVersion === 5 && conn) {
      this.settings = { protocolVersion: 5 };
      v5.add(conn);
      unsubscribing.set(conn, new Map());
    }
    return result;
  };
  const parseUnsubscribe = prototype._parseUnsubscribe;
  prototype._parseUnsubscribe = function (this: ParserState) {
    const result = parseUnsubscribe.call(this);
    const conn = this.client?.conn;
    const pending = conn ? unsubscribing.get(conn) : undefined;
    const filters = this.packet.unsubscriptions as string[] | undefined;
    if (pending && typeof this.packet.messageId === 'number' && filters) pending.set(this.packet.messageId, filters.length);
    return result;
  };
}

/** aedes' preConnect: an MQTT 5 CONNECT is handled as 3.1.1 (its answers are translated on the way out). */
export function acceptMqtt5(conn: object, packet: { protocolVersion?: number }) {
  if (packet.protocolVersion === 5 && v5.has(conn)) packet.protocolVersion = 4;
}

/**
 * Tells an MQTT 5 client why its connection is about to be closed (3.1.1 has no way to say it); resolves once the
 * DISCONNECT is written, so that closing the socket does not discard it.
 */
export function sayWhyBeforeClosing(conn: Socket, reasonCode: number, reasonString: string): Promise<void> {
  if (!v5.has(conn) || conn.destroyed) return Promise.resolve();
  const generate = (mqttPacket as unknown as { generate: (packet: Packet, opts: { protocolVersion: number }) => Buffer }).generate;
  const bytes = generate(
    { cmd: 'disconnect', reasonCode, properties: { reasonString: reasonString.slice(0, 200) } },
    { protocolVersion: 5 },
  );
  return new Promise((resolve) => conn.write(bytes, () => resolve()));
}
