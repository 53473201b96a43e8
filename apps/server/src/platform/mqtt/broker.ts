import { createServer, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';

/**
 * The embedded MQTT broker (aedes). It knows nothing of devices: the caller decides who may connect
 * (`authenticate`, from the MQTT username and password) and what a publish means (`onPublish`, whose promise the
 * broker waits for before it acknowledges a QoS 1 message). Clients may not subscribe: the device API is
 * device-to-server only, and every device publishes to the same `me` topics.
 */
export interface BrokerOptions<P> {
  host: string;
  port: number;
  /** The principal for these credentials, or null to refuse the connection (CONNACK "not authorized"). */
  authenticate(username: string | undefined, password: Buffer | undefined, clientId: string): Promise<P | null>;
  /** Handles a publish; resolve to acknowledge it, reject to close the client's connection without an ack. */
  onPublish(principal: P, topic: string, payload: Buffer, qos: number): Promise<void>;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface EmbeddedBroker<P> {
  port: number;
  /** Connected clients with their principals. */
  clients(): Array<{ id: string; principal: P }>;
  /** Closes the connections whose principal matches. */
  disconnect(match: (principal: P) => boolean): number;
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
  const broker = await Aedes.createBroker({
    concurrency: 1000,
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
      options.onPublish(principal, packet.topic, packet.payload as Buffer, packet.qos).then(
        () => callback(null),
        (error: Error) => callback(error),
      );
    },
    authorizeSubscribe(_client, _subscription, callback) {
      callback(null, null);
    },
    authorizeForward() {
      return null;
    },
  });
  // Nobody can subscribe, so a publish has nowhere to go once onPublish took it: skip aedes' routing (retained
  // store, offline queues, the emitter and its $SYS messages): work for every message that serves nobody.
  (broker as unknown as { publish: (packet: unknown, client: unknown, done?: () => void) => void }).publish = (_packet, client, done) => {
    const callback = typeof client === 'function' ? (client as () => void) : done;
    callback?.();
  };
  const byId = new Map<string, WithPrincipal<P>>();
  broker.on('client', (client) => byId.set(client.id, client as WithPrincipal<P>));
  broker.on('clientDisconnect', (client) => {
    if (byId.get(client.id) === client) byId.delete(client.id);
  });
  broker.on('clientError', () => {
    /* a client's broken connection is its own business */
  });
  broker.on('connectionError', () => {
    /* a connection that never completed CONNECT */
  });

  const server: Server = createServer((socket) => broker.handle(socket));
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
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const client of byId.values()) client.close();
      });
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
