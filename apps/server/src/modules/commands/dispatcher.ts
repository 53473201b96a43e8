import { COMMAND_LIMITS, COMMAND_TOPICS } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { IngestDevice } from '../devices/index.ts';
import type { DeviceRpcHandler, TelemetryRuntime } from '../telemetry/index.ts';
import * as repo from './repository.ts';

/** The command a device gets (MQTT payload, or the answer to its HTTP poll). */
export interface DeviceRpcCommand {
  id: number;
  method: string;
  params: unknown;
}

interface Subscriber {
  clientId: string;
  qos: number;
}
interface Waiter {
  /** Takes a command; false when the poll is gone (the command is then put back in the queue). */
  take(command: DeviceRpcCommand): boolean;
}

/** PUBACKs (and replies) arriving within this window are recorded in one statement. */
const ACK_BATCH_MS = 10;

/** A claim for a publish to the external broker is given back after this long without the broker's answer. */
export const CLAIM_LEASE_MS = 60_000;

/**
 * An HTTP reply to a command that is on its way to the device over MQTT (written, not yet acknowledged) is answered
 * once that delivery is acknowledged or its connection ends, at most after this long: the device then sees the
 * repeat before it learns that its reply arrived, and drops it instead of executing it again.
 */
export const HTTP_REPLY_SETTLE_MS = 2_000;

/** Deadlines are woken up per second of due time: one job serves every command due in that second. */
export const DEADLINE_QUEUE = 'command-deadlines';

/** Reads a device's reply: JSON (a text that is not JSON is kept as a string); `{ "error": … }` fails the command. */
export function readReply(payload: Buffer): { state: 'successful' | 'failed'; response: unknown; error: string | null } {
  if (payload.length > COMMAND_LIMITS.responseBytes) return { state: 'failed', response: null, error: 'Reply too large' };
  const text = payload.toString('utf8').split('\u0000').join('');
  let response: unknown = text;
  try {
    // PostgreSQL's jsonb refuses NUL, also as an escape inside a string
    response = text.length === 0 ? null : JSON.parse(JSON.stringify(JSON.parse(text)).replace(/\\u0000/g, ''));
  } catch {
    /* not JSON: kept as text */
  }
  const error =
    response && typeof response === 'object' && !Array.isArray(response) && 'error' in response
      ? String((response as { error: unknown }).error).slice(0, 200)
      : null;
  return { state: error === null ? 'successful' : 'failed', response, error };
}

/**
 * Hands queued commands to the devices connected to this process: MQTT subscribers of the embedded broker and HTTP
 * devices waiting in a long poll. A command is claimed (queued → sent) in the database before it is written, so two
 * processes never send it twice, and put back in the queue when the write fails or the device goes away before it
 * acknowledged. Told of new commands by `rpc.dispatch` events (relayed between processes by the push fan-out).
 */
export function createDispatcher(deps: {
  db: Db;
  events: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  runtime: TelemetryRuntime;
  changed(rows: repo.Changed[]): void;
  scheduleDeadline(at: Date): Promise<void>;
}) {
  const { db, clock, log, runtime, changed } = deps;
  const subscribers = new Map<number, Subscriber>();
  const waiters = new Map<number, Set<Waiter>>();
  /** Per client, message id → the command written with that id (to match its PUBACK). */
  const inflight = new Map<string, Map<number, number>>();
  const nextMessageId = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  const acks: number[] = [];
  let ackTimer: NodeJS.Timeout | undefined;
  /** The acknowledgements being written, in the order they came (a requeue waits for them). */
  let ackWrites: Promise<void> = Promise.resolve();
  const replies: Array<Parameters<typeof repo.markRepliedMany>[1][number]> = [];
  const brokerSeen = new Map<number, { token: string; at: number }>();
  const arriving = new Set<number>();
  /** Devices whose connection went away, with their tenant, waiting to have their unacknowledged commands queued. */
  const departing = new Map<number, number>();
  let replyBatch: Promise<void> | null = null;
  let replyWrites: Promise<void> = Promise.resolve();
  /** Per device, the MQTT send under way (claimed in the database, being written). */
  const sending = new Map<number, Promise<unknown>>();
  /** Per command, who waits for its MQTT delivery to be acknowledged or lost. */
  const settleWaiters = new Map<number, Set<() => void>>();
  const settle = (commandId: number) => {
    for (const wake of settleWaiters.get(commandId) ?? []) wake();
    settleWaiters.delete(commandId);
  };

  const inflightOf = (clientId: string) => {
    let messages = inflight.get(clientId);
    if (!messages) {
      messages = new Map();
      inflight.set(clientId, messages);
    }
    return messages;
  };
  const messageIdFor = (clientId: string) => {
    const id = ((nextMessageId.get(clientId) ?? 0) % 65_535) + 1;
    nextMessageId.set(clientId, id);
    return id;
  };
  const report = (rows: repo.Changed[]) => {
    if (rows.length > 0) changed(rows);
  };
  const fail = (error: unknown) => log.error({ err: error }, 'device command dispatch failed');

  /** Writes the acknowledgements received so far (sent → delivered); resolves once they and those before are written. */
  function flushAcks() {
    if (ackTimer) clearTimeout(ackTimer);
    ackTimer = undefined;
    const ids = acks.splice(0);
    if (ids.length > 0) {
      ackWrites = ackWrites.then(() => repo.markDelivered(db, null, ids, clock.now()).then(report)).catch(fail);
    }
    return ackWrites;
  }

  /**
   * sent → queued for commands whose device may not have them. An acknowledgement received before is written first,
   * so that a PUBACK is never undone by the disconnect (or failed write) that follows it.
   */
  async function requeue(ids: number[]) {
    if (ids.length === 0) return;
    await flushAcks();
    report(await repo.requeue(db, ids));
  }

  /** Replies not yet written are written before a command is claimed, so that a command answered is never sent again. */
  const repliesWritten = () => Promise.all([replyBatch, replyWrites]).catch(() => undefined);

  /** Writes what waits for these embedded-broker subscribers, claimed (queued → sent) in one statement. */
  function sendMqtt(deviceIds: number[]) {
    const run = sendMqttNow(deviceIds);
    for (const id of deviceIds) sending.set(id, run);
    const done = () => {
      for (const id of deviceIds) if (sending.get(id) === run) sending.delete(id);
    };
    run.then(done, done);
    return run;
  }

  async function sendMqttNow(deviceIds: number[]) {
    const broker = runtime.broker;
    if (!broker || deviceIds.length === 0) return [];
    await repliesWritten();
    const claimed = await repo.claimPendingFor(db, deviceIds, clock.now(), 'mqtt');
    const failed: number[] = [];
    const sent: repo.Changed[] = [];
    await Promise.all(
      claimed.map(async (row) => {
        const sub = subscribers.get(row.device_id);
        const qos = sub && sub.qos > 0 ? 1 : 0;
        const messageId = sub && qos ? messageIdFor(sub.clientId) : undefined;
        if (sub && messageId) inflightOf(sub.clientId).set(messageId, row.id);
        const payload = Buffer.from(JSON.stringify({ method: row.method, params: row.params ?? {} }));
        const ok = sub ? await broker.send(sub.clientId, COMMAND_TOPICS.request(row.id), payload, qos, messageId) : false;
        if (ok) sent.push(row);
        else {
          failed.push(row.id);
          if (sub && messageId) inflight.get(sub.clientId)?.delete(messageId);
          settle(row.id);
        }
      }),
    );
    report(sent);
    await requeue(failed);
    return claimed;
  }

  /**
   * Publishes commands to the external broker on `v1/devices/{token}/rpc/request/{id}` at QoS 1: claimed in the
   * database first (still queued), sent once the broker acknowledged the publish, queued again when it did not.
   */
  async function publishToBroker(work: Array<{ token: string; command: DeviceRpcCommand }>) {
    const external = runtime.external;
    if (!external || work.length === 0) return;
    const claimed = await repo.claimForBroker(
      db,
      work.map((w) => w.command.id),
      clock.now(),
      CLAIM_LEASE_MS,
    );
    if (claimed.length === 0) return;
    const byId = new Map(work.map((w) => [w.command.id, w]));
    const acked: number[] = [];
    let flushing: Promise<void> | null = null;
    // acknowledgements of a burst are recorded together, each as soon as the broker gave it
    const flush = () => {
      flushing ??= new Promise<void>((resolve) => setTimeout(resolve, ACK_BATCH_MS)).then(async () => {
        flushing = null;
        report(await repo.markPublished(db, acked.splice(0), clock.now()));
      });
      return flushing;
    };
    // not awaited: a broker that went away holds its acknowledgements until it is back, and the dispatch of
    // other devices (HTTP polls) does not wait for it
    void Promise.all(
      claimed.map(async ({ id }) => {
        const { token, command } = byId.get(id) as (typeof work)[number];
        const payload = Buffer.from(JSON.stringify({ method: command.method, params: command.params ?? {} }));
        if (!(await external.publish(COMMAND_TOPICS.tokenRequest(token, id), payload))) return id;
        acked.push(id);
        await flush();
        return null;
      }),
    )
      .then(async (outcome) => {
        const failed = outcome.filter((id): id is number => id !== null);
        if (failed.length > 0) report(await repo.releaseClaims(db, failed, clock.now()));
      })
      .catch(fail);
  }

  /** Devices whose messages came through the external broker lately, with the token their topics carry. */
  const onBroker = (deviceId: number) => {
    const seen = brokerSeen.get(deviceId);
    return seen && clock.now().getTime() - seen.at <= runtime.inactivityTimeoutSeconds * 1000 ? seen.token : null;
  };

  /** A device (re)connected: what waits for it is sent, with that of the others arriving in the same moment. */
  function arrived(deviceId: number) {
    arriving.add(deviceId);
    if (arriving.size > 1) return;
    setTimeout(() => {
      const ids = [...arriving];
      arriving.clear();
      for (let i = 0; i < ids.length; i += 500) void deliver(ids.slice(i, i + 500));
    }, ACK_BATCH_MS);
  }

  /**
   * A device's MQTT connection went away: what it was sent and never acknowledged may not have reached it, so it waits
   * for the next connection. Those leaving in the same moment (a network cut takes thousands) are queued again
   * together, a few statements per 500 devices instead of two per device.
   */
  function departed(device: IngestDevice) {
    departing.set(device.id, device.tenantId);
    if (departing.size > 1) return;
    chain = chain
      .then(async () => {
        const devices = [...departing];
        departing.clear();
        for (let i = 0; i < devices.length; i += 500) {
          await flushAcks();
          const unacked = await repo.sentOverMqtt(db, devices.slice(i, i + 500));
          await requeue(unacked.map((r) => r.id));
        }
      })
      .catch(fail);
  }

  async function deliverNow(deviceIds: number[]) {
    const brokerUp = runtime.external?.client.connected === true;
    const subscribed = deviceIds.filter((id) => subscribers.has(id));
    const others = deviceIds.filter(
      (id) => !subscribers.has(id) && ((waiters.get(id)?.size ?? 0) > 0 || (brokerUp && onBroker(id) !== null)),
    );
    if (subscribed.length === 0 && others.length === 0) return;
    const [written, pending] = await Promise.all([sendMqtt(subscribed), repo.pendingFor(db, others, clock.now())]);
    const byDevice = new Map<number, DeviceRpcCommand[]>();
    for (const p of pending) {
      const list = byDevice.get(p.device_id) ?? [];
      byDevice.set(p.device_id, list);
      list.push({ id: p.id, method: p.method, params: p.params });
    }
    const brokerWork: Array<{ token: string; command: DeviceRpcCommand }> = [];
    const httpWork: Promise<void>[] = [];
    for (const [deviceId, commands] of byDevice) {
      const set = waiters.get(deviceId);
      const waiter = set ? [...set][0] : undefined;
      const first = commands[0];
      if (waiter && set && first) {
        httpWork.push(
          (async () => {
            const claimed = await repo.claimSent(db, [first.id], clock.now(), 'http');
            if (claimed.length === 0) return;
            set.delete(waiter);
            if (waiter.take(first)) report(claimed);
            else await requeue([first.id]);
          })(),
        );
        continue;
      }
      const token = brokerUp ? onBroker(deviceId) : null;
      if (token) for (const command of commands) brokerWork.push({ token, command });
    }
    await Promise.all([publishToBroker(brokerWork), ...httpWork]);
    // a wake-up at each timeout that can now fall due
    const timeouts = new Set([...written, ...pending].map((p) => p.timeout_ms));
    const now = clock.now().getTime();
    for (const ms of timeouts) await deps.scheduleDeadline(new Date(now + ms));
  }

  /** Sends what waits for these devices, if this process holds their connection (one dispatch at a time). */
  function deliver(deviceIds: number[]) {
    const run = chain.then(() => deliverNow(deviceIds)).catch(fail);
    chain = run;
    return run;
  }

  const handler: DeviceRpcHandler = {
    subscribable: (topic) => topic === COMMAND_TOPICS.requestSubscription || topic === 'v1/devices/me/rpc/request/#',
    subscribed(device, clientId, qos) {
      subscribers.set(device.id, { clientId, qos });
      arrived(device.id);
    },
    disconnected(device, clientId) {
      if (subscribers.get(device.id)?.clientId === clientId) subscribers.delete(device.id);
      for (const commandId of inflight.get(clientId)?.values() ?? []) settle(commandId);
      inflight.delete(clientId);
      nextMessageId.delete(clientId);
      if (subscribers.has(device.id)) return;
      departed(device);
    },
    acked(_device, clientId, messageId) {
      const commandId = inflight.get(clientId)?.get(messageId);
      if (commandId === undefined) return;
      inflight.get(clientId)?.delete(messageId);
      settle(commandId);
      acks.push(commandId);
      // the acknowledgements of a burst (a bulk command) are written together
      if (ackTimer) return;
      ackTimer = setTimeout(() => void flushAcks(), ACK_BATCH_MS);
    },
    seenOnBroker(device) {
      const now = clock.now().getTime();
      const wasThere = onBroker(device.id) === device.token;
      if (!brokerSeen.has(device.id) && brokerSeen.size >= 200_000) brokerSeen.clear();
      brokerSeen.set(device.id, { token: device.token, at: now });
      // back after a silence (or first seen by this process): what waited for it is published now
      if (!wasThere) arrived(device.id);
    },
    brokerConnected() {
      const ids = [...brokerSeen.keys()].filter((id) => onBroker(id) !== null);
      for (let i = 0; i < ids.length; i += 500) void deliver(ids.slice(i, i + 500));
    },
    replied(device, requestId, payload) {
      const id = Number(requestId);
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return Promise.resolve();
      replies.push({ deviceId: device.id, id, ...readReply(payload) });
      // the replies of a burst are written together; each device's publish is acknowledged once its reply is. A
      // reply that could not be written rejects: the broker then acknowledges nothing and the device sends it again
      if (!replyBatch) {
        replyBatch = new Promise<void>((resolve) => setTimeout(resolve, ACK_BATCH_MS)).then(() => {
          replyBatch = null;
          const batch = replies.splice(0);
          const write = replyWrites
            .catch(() => undefined)
            .then(() => repo.markRepliedMany(db, batch, clock.now()))
            .then(report, (error: unknown) => {
              fail(error);
              throw error;
            });
          replyWrites = write;
          return write;
        });
      }
      return replyBatch;
    },
  };

  /**
   * Resolves once no delivery of this command to the device is on its way over MQTT from this process: the send under
   * way is written, and a delivery written is acknowledged or its connection gone (at most HTTP_REPLY_SETTLE_MS).
   */
  async function deliverySettled(deviceId: number, commandId: number) {
    await sending.get(deviceId)?.catch(() => undefined);
    const clientId = subscribers.get(deviceId)?.clientId;
    const onItsWay = clientId !== undefined && [...(inflight.get(clientId)?.values() ?? [])].includes(commandId);
    if (!onItsWay) return;
    await new Promise<void>((resolve) => {
      const waiters = settleWaiters.get(commandId) ?? new Set<() => void>();
      settleWaiters.set(commandId, waiters);
      const timer = setTimeout(wake, HTTP_REPLY_SETTLE_MS);
      function wake() {
        clearTimeout(timer);
        waiters.delete(wake);
        // a wait that timed out leaves no empty set behind for a delivery that is never settled
        if (waiters.size === 0 && settleWaiters.get(commandId) === waiters) settleWaiters.delete(commandId);
        resolve();
      }
      waiters.add(wake);
    });
  }

  return {
    handler,
    deliver,
    /**
     * A reply over HTTP (`POST /api/v1/{token}/rpc/{id}`): recorded like one over MQTT, and answered only once a
     * repeat of the command already on its way to the device over MQTT has reached it (see HTTP_REPLY_SETTLE_MS).
     */
    async repliedOverHttp(device: IngestDevice, requestId: string, payload: Buffer) {
      await handler.replied(device, requestId, payload);
      const id = Number(requestId);
      if (Number.isInteger(id)) await deliverySettled(device.id, id);
    },
    /** An HTTP device's poll: acknowledges what its previous poll took, then waits for a command (null: none in time). */
    async poll(device: IngestDevice, timeoutMs: number, signal: AbortSignal): Promise<DeviceRpcCommand | null> {
      const previous = await repo.sentOverHttp(db, device.id);
      report(
        await repo.markDelivered(
          db,
          device.id,
          previous.map((r) => r.id),
          clock.now(),
        ),
      );
      return new Promise<DeviceRpcCommand | null>((resolve) => {
        let done = false;
        const set = waiters.get(device.id) ?? new Set<Waiter>();
        waiters.set(device.id, set);
        const finish = (command: DeviceRpcCommand | null) => {
          done = true;
          clearTimeout(timer);
          set.delete(waiter);
          if (set.size === 0 && waiters.get(device.id) === set) waiters.delete(device.id);
          resolve(command);
        };
        const waiter: Waiter = {
          take(command) {
            if (done || signal.aborted) return false;
            finish(command);
            return true;
          },
        };
        set.add(waiter);
        const timer = setTimeout(() => finish(null), timeoutMs);
        signal.addEventListener('abort', () => finish(null), { once: true });
        void deliver([device.id]);
      });
    },
    /** Devices with a live subscription or a waiting poll here (tests, benchmarks). */
    connected: () => ({ mqtt: subscribers.size, http: waiters.size }),
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
