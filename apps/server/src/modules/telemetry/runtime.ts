import { DEVICE_API_TOPICS, DEVICE_TOPICS } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../platform/mqtt/broker.ts';
import { type ExternalConsumer, startExternalConsumer } from '../../platform/mqtt/external.ts';
import type { IngestDevice } from '../devices/index.ts';
import type { Ingest, SubmitResult } from './ingest.ts';
import type { TelemetryRepository } from './repository.ts';

export interface RuntimeSettings {
  host: string;
  mqttPort: number;
  mqttUrl?: string;
  shareGroup: string;
  clientId?: string;
  retentionDays: number;
  tokenRecheckSeconds: number;
  inactivityTimeoutSeconds: number;
  statusSweepSeconds: number;
}

const ME_TELEMETRY = { who: 'me', kind: 'telemetry' } as const;

/** Device commands over MQTT (the commands module): subscriptions, acknowledgements and replies of devices. */
export interface DeviceRpcHandler {
  subscribable(topic: string): boolean;
  subscribed(device: IngestDevice, clientId: string, qos: number): void;
  disconnected(device: IngestDevice, clientId: string): void;
  acked(device: IngestDevice, clientId: string, messageId: number): void;
  /** A reply on `v1/devices/{me|token}/rpc/response/{requestId}`; resolves once it is recorded. */
  replied(device: IngestDevice, requestId: string, payload: Buffer): Promise<void>;
  /** A message of this device came through the external broker (it talks MQTT there). */
  seenOnBroker?(device: IngestDevice): void;
  /** The consumer of the external broker (re)connected. */
  brokerConnected?(): void;
}

/**
 * The rest of ThingsBoard's device API over the embedded broker (the device-api module): attribute requests and
 * updates, device-side RPC, and provisioning clients (MQTT username `provision`).
 */
export interface DeviceApiHandler {
  /** Topic filters a device (or, with `provisioning`, a provisioning client) may subscribe to. */
  subscribable(topic: string, provisioning: boolean): boolean;
  subscribed(device: IngestDevice, clientId: string, topic: string): void;
  disconnected(device: IngestDevice, clientId: string): void;
  /** A device's publish on one of the handler's topics (resolves once answered); null: not one of its topics. */
  published(device: IngestDevice, clientId: string, topic: string, payload: Buffer): Promise<void> | null;
  /** A provisioning client's publish; null: not a provisioning topic. */
  provision(clientId: string, topic: string, payload: Buffer): Promise<void> | null;
}

/** The principal of a client connected with the username `provision`: it may only ask to be provisioned. */
export const PROVISIONING_CLIENT: IngestDevice = Object.freeze({
  id: 0,
  tenantId: 0,
  label: 'provision',
  type: '',
  templateId: null,
  assetId: null,
  status: '',
  token: '',
  keyTypes: undefined,
});

/** `v1/devices/{who}/rpc/response/{requestId}` → its parts, or null. */
export function parseRpcResponseTopic(topic: string): { who: string; requestId: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 6 || parts[0] !== 'v1' || parts[1] !== 'devices' || parts[3] !== 'rpc' || parts[4] !== 'response') return null;
  if (!parts[2] || !parts[5]) return null;
  return { who: parts[2], requestId: parts[5] };
}

/** `v1/devices/{me|token}/{telemetry|attributes}` → its parts, or null for any other topic. */
export function parseDeviceTopic(topic: string): { who: string; kind: 'telemetry' | 'attributes' } | null {
  if (topic === DEVICE_TOPICS.telemetry) return ME_TELEMETRY;
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'v1' || parts[1] !== 'devices' || !parts[2]) return null;
  const kind = parts[3];
  if (kind !== 'telemetry' && kind !== 'attributes') return null;
  return { who: parts[2], kind };
}

/**
 * The device-facing side of telemetry: the embedded broker (or the consumer of an external broker), and the
 * background duties — Offline after the inactivity timeout, disconnecting revoked tokens, partition upkeep.
 */
export function createTelemetryRuntime(deps: {
  ingest: Ingest;
  repo: TelemetryRepository;
  settings: RuntimeSettings;
  log: FastifyBaseLogger;
  checkTokens(tokens: string[]): Promise<Set<string>>;
}) {
  const { ingest, repo, settings, log } = deps;
  let broker: EmbeddedBroker<IngestDevice> | null = null;
  let external: ExternalConsumer | null = null;
  let rpc: DeviceRpcHandler | null = null;
  let deviceApi: DeviceApiHandler | null = null;
  const timers: NodeJS.Timeout[] = [];
  let sweeping = false;
  const afterSweep: Array<() => Promise<void>> = [];

  const STORED = Promise.resolve();
  const done = { stored: STORED };

  /** What the broker waits for before it acknowledges: the commit for QoS 1, nothing for QoS 0. */
  const ackAfter = (result: SubmitResult, qos: number) => (result.ok && qos > 0 ? result.stored : STORED);

  function handleEmbedded(device: IngestDevice, topic: string, payload: Buffer, qos: number, clientId: string): Promise<void> {
    if (device === PROVISIONING_CLIENT) {
      const answered = deviceApi?.provision(clientId, topic, payload);
      if (answered) return answered;
      ingest.refuse('unknown_topic', `topic ${topic.slice(0, 80)}`);
      return Promise.reject(new Error('a provisioning client may publish only a provision request'));
    }
    if (!ingest.admit(device, payload.length, 'mqtt')) {
      // dropped and acknowledged (the device does not resend it); one that keeps on flooding is disconnected
      return ingest.limiter.keepsFlooding(device.id) ? Promise.reject(new Error('rate limits exceeded')) : STORED;
    }
    const parsed = parseDeviceTopic(topic);
    if (!parsed && deviceApi) {
      const answered = deviceApi.published(device, clientId, topic, payload);
      if (answered) return answered;
    }
    if (!parsed && rpc) {
      const reply = parseRpcResponseTopic(topic);
      if (reply && (reply.who === 'me' || reply.who === device.token)) return rpc.replied(device, reply.requestId, payload);
    }
    if (!parsed || (parsed.who !== 'me' && parsed.who !== device.token)) {
      ingest.refuse('unknown_topic', `topic ${topic.slice(0, 80)}`);
      return Promise.reject(
        new Error(
          'publish allowed only to v1/devices/me/telemetry, v1/devices/me/attributes, and the request and response topics of attributes and RPC',
        ),
      );
    }
    // refused input is counted and acknowledged, so that the device does not resend it forever
    const result = ingest.submit(device, parsed.kind, payload, true);
    return result instanceof Promise ? result.then((r) => ackAfter(r, qos)) : ackAfter(result, qos);
  }

  /** Accepts the message into the buffer (waiting for room); `stored` settles when it is written. */
  async function accept(device: IngestDevice, kind: 'telemetry' | 'attributes', payload: Buffer) {
    const result = await ingest.submit(device, kind, payload, true);
    return result.ok ? { stored: result.stored } : done;
  }

  async function handleExternal(topic: string, payload: Buffer, _qos: number) {
    const parsed = parseDeviceTopic(topic);
    const reply = !parsed && rpc ? parseRpcResponseTopic(topic) : null;
    if (reply && rpc && reply.who !== 'me') {
      const device = await ingest.deviceForToken(reply.who);
      if (device) {
        if (!ingest.admit(device, payload.length, 'mqtt')) return done;
        rpc.seenOnBroker?.(device);
        return { stored: rpc.replied(device, reply.requestId, payload).catch(() => undefined) };
      }
    }
    if (!parsed) {
      ingest.refuse('unknown_topic', `topic ${topic.slice(0, 80)}`);
      return done;
    }
    const device = parsed.who === 'me' ? null : await ingest.deviceForToken(parsed.who);
    if (!device) {
      ingest.refuse('unknown_token', 'unknown or revoked token in topic');
      return done;
    }
    if (!ingest.admit(device, payload.length, 'mqtt')) return done;
    rpc?.seenOnBroker?.(device);
    return accept(device, parsed.kind, payload);
  }

  async function recheckTokens() {
    if (!broker) return;
    const tokens = [...new Set(broker.clients().flatMap((c) => (c.principal === PROVISIONING_CLIENT ? [] : [c.principal.token])))];
    if (tokens.length === 0) return;
    const live = await deps.checkTokens(tokens);
    const dead = new Set(tokens.filter((t) => !live.has(t)));
    if (dead.size === 0) return;
    for (const t of dead) ingest.forgetToken(t);
    const n = broker.disconnect((device) => dead.has(device.token));
    log.info({ clients: n }, 'disconnected MQTT clients whose token was revoked');
  }

  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      await ingest.sweepOffline(settings.inactivityTimeoutSeconds);
      for (const after of afterSweep) await after();
    } catch (error) {
      log.error({ err: error }, 'status sweep failed');
    } finally {
      sweeping = false;
    }
  }

  return {
    /** Hands device commands their MQTT side (subscriptions, acks, replies); set before `startMqtt`. */
    handleRpc(handler: DeviceRpcHandler) {
      rpc = handler;
    },
    /** Hands attributes, device-side RPC and provisioning their MQTT side; set before `startMqtt`. */
    handleDeviceApi(handler: DeviceApiHandler) {
      deviceApi = handler;
    },
    /** How long a device stays Online after its last message. */
    inactivityTimeoutSeconds: settings.inactivityTimeoutSeconds,
    /** The consumer of MQTT_URL (null with the embedded broker). */
    get external() {
      return external;
    },
    /** Runs after every status sweep (the alarm engine's timers). */
    afterSweep(run: () => Promise<void>) {
      afterSweep.push(run);
    },
    get broker() {
      return broker;
    },
    get mqttPort(): number | null {
      return broker?.port ?? null;
    },
    /** Whether the consumer of MQTT_URL is connected (null: no external broker in use). */
    get externalConnected(): boolean | null {
      return external ? external.client.connected : null;
    },
    /** Starts the embedded broker, or the consumer of MQTT_URL. */
    async startMqtt(overrides: { port?: number; url?: string } = {}) {
      const url = overrides.url ?? settings.mqttUrl;
      if (url) {
        external = await startExternalConsumer({
          url,
          group: settings.shareGroup,
          clientId: settings.clientId,
          topics: ['v1/devices/+/telemetry', 'v1/devices/+/attributes', ...(rpc ? ['v1/devices/+/rpc/response/+'] : [])],
          onMessage: handleExternal,
          log,
        });
        external.client.on('connect', () => rpc?.brokerConnected?.());
        rpc?.brokerConnected?.();
        return;
      }
      broker = await startEmbeddedBroker<IngestDevice>({
        host: settings.host,
        port: overrides.port ?? settings.mqttPort,
        log,
        authenticate: async (username) => {
          if (username === DEVICE_API_TOPICS.provisionUsername && deviceApi) return PROVISIONING_CLIENT;
          return username ? ingest.deviceForToken(username) : null;
        },
        onPublish: handleEmbedded,
        overloaded: () => ingest.buffer.full,
        subscribable: (topic, device) => {
          if (device === PROVISIONING_CLIENT) return deviceApi?.subscribable(topic, true) ?? false;
          return (rpc?.subscribable(topic) || deviceApi?.subscribable(topic, false)) ?? false;
        },
        onSubscribe: (device, clientId, topic, qos) => {
          if (device === PROVISIONING_CLIENT) return;
          if (rpc?.subscribable(topic)) rpc.subscribed(device, clientId, qos);
          else deviceApi?.subscribed(device, clientId, topic);
        },
        onDisconnect: (device, clientId) => {
          if (device === PROVISIONING_CLIENT) return;
          rpc?.disconnected(device, clientId);
          deviceApi?.disconnected(device, clientId);
        },
        onAck: (device, clientId, messageId) => {
          if (device !== PROVISIONING_CLIENT) rpc?.acked(device, clientId, messageId);
        },
      });
    },
    /** Latest values caught up with the history (after a crash), then the offline sweep, token re-check and partition upkeep on timers. */
    async startBackground() {
      await ingest
        .catchUpLatest()
        .then((moved) => moved > 0 && log.info({ values: moved }, 'latest values caught up with the stored history'))
        .catch((error) => log.error({ err: error }, 'latest values could not be caught up with the history'));
      await repo
        .maintainPartitions(settings.retentionDays)
        .catch((error) => log.error({ err: error }, 'telemetry partition upkeep failed'));
      timers.push(setInterval(() => void sweep(), settings.statusSweepSeconds * 1000));
      timers.push(
        setInterval(
          () => void recheckTokens().catch((error) => log.error({ err: error }, 'token re-check failed')),
          settings.tokenRecheckSeconds * 1000,
        ),
      );
      timers.push(
        setInterval(
          () =>
            void repo
              .maintainPartitions(settings.retentionDays)
              .catch((error) => log.error({ err: error }, 'telemetry partition upkeep failed')),
          3600_000,
        ),
      );
      for (const t of timers) t.unref();
    },
    sweep,
    recheckTokens,
    topics: DEVICE_TOPICS,
    async stop() {
      for (const t of timers.splice(0)) clearInterval(t);
      await ingest.buffer.drain();
      if (broker) await broker.close();
      if (external) await external.close();
      broker = null;
      external = null;
      await ingest.close();
    },
  };
}
export type TelemetryRuntime = ReturnType<typeof createTelemetryRuntime>;
