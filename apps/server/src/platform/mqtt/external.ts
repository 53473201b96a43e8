import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import './packet-numbers.ts';

/**
 * Consumes device messages from an external broker (Mosquitto, EMQX, …) with a shared subscription, so several
 * ingest processes split the load. The session is persistent (clean: false, stable client id): QoS 1 messages that
 * arrive while the process is down wait in the broker.
 *
 * mqtt.js handles incoming packets one after another and sends a PUBACK as soon as a message is handed over; an ack
 * that waited for storage would leave one message per database flush. So the next packet is read as soon as a
 * message is accepted into the ingest buffer, and its PUBACK is held back until it is stored: acknowledged means
 * stored, at batch throughput.
 */
export interface ExternalConsumerOptions {
  url: string;
  clientId?: string;
  group: string;
  topics: string[];
  /** Resolves once the message is accepted; `stored` settles when it is stored (then it is acknowledged). */
  onMessage(topic: string, payload: Buffer, qos: number): Promise<{ stored: Promise<void> }>;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface ExternalConsumer {
  client: MqttClient;
  /**
   * Publishes at QoS 1 on the consumer's connection: true once the broker acknowledged it (PUBACK), false when not
   * connected or refused. The broker knows nothing is delivered to a subscriber, only that it took the message.
   */
  publish(topic: string, payload: Buffer): Promise<boolean>;
  close(): Promise<void>;
}

type PacketSender = (packet: { cmd: string; messageId?: number }, cb?: (error?: Error) => void, ...rest: unknown[]) => void;

export async function startExternalConsumer(options: ExternalConsumerOptions): Promise<ExternalConsumer> {
  const client = mqtt.connect(options.url, {
    clientId: options.clientId ?? `sitewatch-ingest-${hostname()}-${options.group}`,
    clean: false,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  const pending = new Map<number, Promise<void>>();
  const internals = client as unknown as {
    _sendPacket: PacketSender;
    handleMessage: (packet: mqtt.IPublishPacket, cb: (error?: Error) => void) => void;
  };
  const send = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, cb, ...rest) => {
    const waitFor = packet.cmd === 'puback' && packet.messageId !== undefined ? pending.get(packet.messageId) : undefined;
    if (!waitFor) return send(packet, cb, ...rest);
    pending.delete(packet.messageId as number);
    cb?.();
    waitFor.then(
      () => send(packet),
      () => {
        // not stored: no ack; the broker redelivers after the reconnect
        client.stream.destroy();
      },
    );
  };
  internals.handleMessage = (packet, cb) => {
    // the next packet is read once this one is accepted (room in the buffer: backpressure on the broker);
    // its PUBACK waits until it is stored
    options.onMessage(packet.topic, packet.payload as Buffer, packet.qos).then(
      ({ stored }) => {
        if (packet.qos > 0 && packet.messageId !== undefined) pending.set(packet.messageId, stored);
        else stored.catch(() => undefined);
        cb();
      },
      (error: Error) => cb(error),
    );
  };
  client.on('error', (error) => options.log.warn({ err: error.message }, 'external MQTT broker error'));
  client.on('reconnect', () => options.log.info({ url: options.url }, 'reconnecting to the external MQTT broker'));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cannot reach the MQTT broker at ${options.url}`)), 10_000);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const subscribe = () =>
    client.subscribe(
      options.topics.map((t) => `$share/${options.group}/${t}`),
      { qos: 1 },
      (error) => error && options.log.warn({ err: error.message }, 'external MQTT subscribe failed'),
    );
  subscribe();
  client.on('connect', (connack) => {
    if (!connack.sessionPresent) subscribe();
  });
  options.log.info({ url: options.url, group: options.group }, 'consuming device messages from the external MQTT broker');
  return {
    client,
    publish(topic, payload) {
      if (!client.connected) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => client.publish(topic, payload, { qos: 1 }, (error) => resolve(!error)));
    },
    close: () => new Promise<void>((resolve) => client.end(false, {}, () => resolve())),
  };
}
