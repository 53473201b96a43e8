import { createServer, type Server, type Socket } from 'node:net';
import './packet-numbers.ts';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { acceptMqtt5, DISCONNECT_REASONS, installMqtt5, sayWhyBeforeClosing } from './mqtt5.ts';

/**
 * The embedded MQTT broker (aedes). It knows nothing of devices: the caller decides who may connect
 * (`authenticate`, from the MQTT username and password) and what a publish means (`onPublish`, whose promise the
 * broker waits for before it acknowledges a QoS 1 message). Clients may subscribe only to the topics the caller
 * allows (`subscribable`: device commands); every device uses the same `me` topics, so the broker never routes a
 * message between clients: the server writes a command to the one client it is for (`send`).
 */
export interface BrokerOptions<P> {
  host: string;
  port: number;
  /** The principal for these credentials, or null to refuse the connection (CONNACK "not authorized"). */
  authenticate(username: string | undefined, password: Buffer | undefined, clientId: string): Promise<P | null>;
  /** Handles a publish; resolve to acknowledge it, reject to close the client's connection without an ack. */
  onPublish(principal: P, topic: string, payload: Buffer, qos: number, clientId: string): Promise<void>;
  /**
   * Whether publishes now wait for room (the caller is full). A client that publishes meanwhile is read no further
   * until there is room: its socket's buffer fills, then the kernel's, and TCP makes the device wait.
   */
  overloaded?(): boolean;
  /** Topic filters a client may subscribe to (none when absent); each granted subscription is reported. */
  subscribable?(topic: string, principal: P): boolean;
  onSubscribe?(principal: P, clientId: string, topic: string, qos: number): void;
  onDisconnect?(principal: P, clientId: string): void;
  /** The client acknowledged (PUBACK) a QoS 1 message the server sent it with `send`. */
  onAck?(principal: P, clientId: string, messageId: number): void;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface EmbeddedBroker<P> {
  port: number;
  /** Connected clients with their principals. */
  clients(): Array<{ id: string; principal: P }>;
  /** Closes the connections whose principal matches. */
  disconnect(match: (principal: P) => boolean): number;
  /** Writes a message to one connected client; false when it is not connected or the write failed. */
  send(clientId: string, topic: string, payload: Buffer, qos: 0 | 1, messageId?: number): Promise<boolean>;
  close(): Promise<void>;
}

const PRINCIPAL = Symbol('principal');
type WithPrincipal<P> = Client & { [PRINCIPAL]?: P };

export class MqttPortInUseError extends Error {
  constructor(port: number) {
    super(
      `MQTT port ${port} is already in use (another broker, such as Mosquitto, may be listening there). ` +
        'Set MQTT_PORT to a free port, or set MQTT_URL to use that broker as an external broker.',
    );
  }
}

export async function startEmbeddedBroker<P>(options: BrokerOptions<P>): Promise<EmbeddedBroker<P>> {
  installMqtt5();
  const broker = await Aedes.createBroker({
    concurrency: 1000,
    preConnect(client, packet, callback) {
      acceptMqtt5(client.conn, packet);
      callback(null, true);
    },
    authenticate(client, username, password, done) {
      options.authenticate(username, password, client.id).then(
        (principal) => {
          if (principal === null) {
            const error = new Error('not authorized') as AuthenticateError;
            error.returnCode = 5;
            return done(error, false);
          }
          (client as WithPrincipal<P>)[PRINCIPAL] = principal;
          done(null, true);
        },
        () => {
          const error = new Error('server unavailable') as AuthenticateError;
          error.returnCode = 3;
          done(error, false);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null);
      const principal = (client as WithPrincipal<P>)[PRINCIPAL];
      if (principal === undefined) return callback(new Error('not authenticated'));
      gate.holdIfOverloaded(client.conn as Socket);
      options.onPublish(principal, packet.topic, packet.payload as Buffer, packet.qos, client.id).then(
        () => {
          callback(null);
          gate.reopen();
        },
        (error: Error) =>
          void sayWhyBeforeClosing(client.conn as Socket, DISCONNECT_REASONS.notAuthorized, error.message).then(() => {
            callback(error);
            gate.reopen();
          }),
      );
    },
    authorizeSubscribe(client, subscription, callback) {
      const principal = client ? (client as WithPrincipal<P>)[PRINCIPAL] : undefined;
      const allowed = principal !== undefined && options.subscribable?.(subscription.topic, principal);
      if (!allowed) return callback(null, null);
      callback(null, { ...subscription, qos: Math.min(subscription.qos, 1) as 0 | 1 });
    },
    authorizeForward(_client, packet) {
      // only messages written by `send` reach a client (routing between clients is off, see below), with the
      // message id `send` chose (aedes would number it itself and keep no record of it in a clean session)
      const messageId = sending.get(packet.topic);
      if (messageId === undefined) return null;
      if (messageId > 0) Object.assign(packet, { messageId });
      return packet;
    },
  });
  // Nobody can subscribe, so a publish has nowhere to go once onPublish took it: skip aedes' routing (retained
  // store, offline queues, the emitter and its $SYS messages): work for every message that serves nobody.
  (broker as unknown as { publish: (packet: unknown, client: unknown, done?: () => void) => void }).publish = (_packet, client, done) => {
    const callback = typeof client === 'function' ? (client as () => void) : done;
    callback?.();
  };
  const byId = new Map<string, WithPrincipal<P>>();
  /** Topics of messages being written by `send` right now, with their message id (0: QoS 0). */
  const sending = new Map<string, number>();
  broker.on('client', (client) => byId.set(client.id, client as WithPrincipal<P>));
  broker.on('clientDisconnect', (client) => {
    if (byId.get(client.id) === client) byId.delete(client.id);
    const principal = (client as WithPrincipal<P>)[PRINCIPAL];
    if (principal !== undefined) options.onDisconnect?.(principal, client.id);
  });
  broker.on('subscribe', (subscriptions, client) => {
    const principal = client ? (client as WithPrincipal<P>)[PRINCIPAL] : undefined;
    if (principal === undefined || !client) return;
    for (const sub of subscriptions) {
      if ((sub.qos as number) !== 128 && options.subscribable?.(sub.topic, principal))
        options.onSubscribe?.(principal, client.id, sub.topic, sub.qos);
    }
  });
  // A clean session keeps no outgoing store, so aedes cannot tell which message a PUBACK is for: report its id.
  const persistence = (broker as unknown as { persistence: unknown }).persistence as {
    outgoingClearMessageId: (client: Client, packet: { messageId?: number }) => Promise<unknown>;
  };
  const clearMessageId = persistence.outgoingClearMessageId.bind(persistence);
  persistence.outgoingClearMessageId = (client, packet) => {
    const principal = (client as WithPrincipal<P>)[PRINCIPAL];
    if (principal !== undefined && packet.messageId !== undefined) options.onAck?.(principal, client.id, packet.messageId);
    return clearMessageId(client, packet);
  };
  broker.on('clientError', () => {
    /* a client's broken connection is its own business */
  });
  broker.on('connectionError', () => {
    /* a connection that never completed CONNECT */
  });

  const gate = createReadGate(options.overloaded);
  const server: Server = createServer((socket) => {
    gate.guard(socket);
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      broker.close();
      reject(error.code === 'EADDRINUSE' ? new MqttPortInUseError(options.port) : error);
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.log.info({ port }, 'embedded MQTT broker listening');

  return {
    port,
    clients: () => [...byId.values()].flatMap((c) => (c[PRINCIPAL] === undefined ? [] : [{ id: c.id, principal: c[PRINCIPAL] as P }])),
    disconnect(match) {
      let n = 0;
      for (const client of byId.values()) {
        const principal = client[PRINCIPAL];
        if (principal !== undefined && match(principal)) {
          client.close();
          n++;
        }
      }
      return n;
    },
    send(clientId, topic, payload, qos, messageId) {
      const client = byId.get(clientId);
      if (!client || client.closed) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        sending.set(topic, qos > 0 ? (messageId ?? 0) : 0);
        // aedes writes the packet on a later tick: the topic stays allowed until the write is done
        client.publish(
          { cmd: 'publish', topic, payload, qos, retain: false, dup: false, ...(messageId ? { messageId } : {}) },
          (error?: Error) => {
            sending.delete(topic);
            resolve(!error && !client.closed);
          },
        );
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const client of byId.values()) client.close();
      });
      gate.close();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** How often sockets held back by an overload look again whether there is room (while any is held). */
const REOPEN_CHECK_MS = 5;

/**
 * Holds back the reading of the sockets of clients that publish while `overloaded()` says so, until it says so no
 * more. aedes reads a socket whenever data arrives, however many of its publishes are still being handled, so a
 * flood from thousands of devices would otherwise be parsed into memory without end (3.4 GB after a minute at
 * 80,000 msg/s offered). A held read gives nothing, and Node stops reading the socket once its buffer is full:
 * then the kernel's fills, and TCP makes the device wait. Clients that only connect or ping are not held. When
 * there is room again, the held sockets are read in the order they were held, each until the caller is full again.
 */
function createReadGate(overloaded: (() => boolean) | undefined) {
  const held = new Set<Socket>();
  let timer: NodeJS.Timeout | null = null;
  function reopen() {
    if (held.size === 0 || overloaded?.()) return;
    for (const socket of held) {
      held.delete(socket);
      // aedes reads on 'readable'; none comes for what arrived while the socket was held
      if (!socket.destroyed) socket.emit('readable');
      if (overloaded?.()) return;
    }
    if (timer) clearInterval(timer);
    timer = null;
  }
  return {
    guard(socket: Socket) {
      if (!overloaded) return;
      const read = socket.read;
      socket.read = function (this: Socket, size?: number) {
        if (held.has(this)) {
          if (overloaded()) return null;
          held.delete(this);
        }
        return read.call(this, size);
      };
    },
    /** Holds the socket of a client that published while overloaded; a no-op otherwise. */
    holdIfOverloaded(socket: Socket) {
      if (!overloaded?.()) return;
      held.add(socket);
      // every publish may have settled already, and nothing else would look again
      if (!timer) {
        timer = setInterval(reopen, REOPEN_CHECK_MS);
        timer.unref();
      }
    },
    reopen,
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      held.clear();
    },
  };
}
