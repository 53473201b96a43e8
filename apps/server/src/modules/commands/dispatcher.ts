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
  /** `clientId:messageId` → the command written with that id (to match its PUBACK). */
  const inflight = new Map<string, number>();
  const nextMessageId = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  const acks: number[] = [];
  let ackTimer: NodeJS.Timeout | undefined;
  const replies: Array<Parameters<typeof repo.markRepliedMany>[1][number]> = [];
  let replyBatch: Promise<void> | null = null;

  const messageIdFor = (clientId: string) => {
    const id = ((nextMessageId.get(clientId) ?? 0) % 65_535) + 1;
    nextMessageId.set(clientId, id);
    return id;
  };
  const report = (rows: repo.Changed[]) => {
    if (rows.length > 0) changed(rows);
  };
  const fail = (error: unknown) => log.error({ err: error }, 'device command dispatch failed');

  async function sendMqtt(sub: Subscriber, commands: Array<DeviceRpcCommand>) {
    const broker = runtime.broker;
    if (!broker) return;
    const claimed = await repo.claimSent(
      db,
      commands.map((c) => c.id),
      clock.now(),
      'mqtt',
    );
    if (claimed.length === 0) return;
    const byId = new Map(commands.map((c) => [c.id, c]));
    const failed: number[] = [];
    const sent: repo.Changed[] = [];
    await Promise.all(
      claimed.map(async (row) => {
        const command = byId.get(row.id) as DeviceRpcCommand;
        const qos = sub.qos > 0 ? 1 : 0;
        const messageId = qos ? messageIdFor(sub.clientId) : undefined;
        if (messageId) inflight.set(`${sub.clientId}:${messageId}`, row.id);
        const payload = Buffer.from(JSON.stringify({ method: command.method, params: command.params ?? {} }));
        const ok = await broker.send(sub.clientId, COMMAND_TOPICS.request(row.id), payload, qos, messageId);
        if (ok) sent.push(row);
        else {
          failed.push(row.id);
          if (messageId) inflight.delete(`${sub.clientId}:${messageId}`);
        }
      }),
    );
    report(sent);
    if (failed.length > 0) report(await repo.requeue(db, failed));
  }

  async function deliverNow(deviceIds: number[]) {
    const local = deviceIds.filter((id) => subscribers.has(id) || (waiters.get(id)?.size ?? 0) > 0);
    if (local.length === 0) return;
    const pending = await repo.pendingFor(db, local, clock.now());
    const byDevice = new Map<number, DeviceRpcCommand[]>();
    for (const p of pending) {
      const list = byDevice.get(p.device_id) ?? [];
      byDevice.set(p.device_id, list);
      list.push({ id: p.id, method: p.method, params: p.params });
    }
    const timeouts = new Set(pending.map((p) => p.timeout_ms));
    const mqttWork: Promise<void>[] = [];
    for (const [deviceId, commands] of byDevice) {
      const sub = subscribers.get(deviceId);
      if (sub) {
        mqttWork.push(sendMqtt(sub, commands));
        continue;
      }
      const set = waiters.get(deviceId);
      const waiter = set ? [...set][0] : undefined;
      const first = commands[0];
      if (!waiter || !set || !first) continue;
      const claimed = await repo.claimSent(db, [first.id], clock.now(), 'http');
      if (claimed.length === 0) continue;
      set.delete(waiter);
      if (waiter.take(first)) report(claimed);
      else report(await repo.requeue(db, [first.id]));
    }
    await Promise.all(mqttWork);
    // a wake-up at each timeout that can now fall due
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
      void deliver([device.id]);
    },
    disconnected(device, clientId) {
      if (subscribers.get(device.id)?.clientId === clientId) subscribers.delete(device.id);
      for (const key of inflight.keys()) if (key.startsWith(`${clientId}:`)) inflight.delete(key);
      nextMessageId.delete(clientId);
      if (subscribers.has(device.id)) return;
      // sent but never acknowledged: the device may not have it, so it waits for the next connection
      chain = chain
        .then(async () => {
          const unacked = await repo.sentOverMqtt(db, device.id);
          report(
            await repo.requeue(
              db,
              unacked.map((r) => r.id),
            ),
          );
        })
        .catch(fail);
    },
    acked(_device, clientId, messageId) {
      const key = `${clientId}:${messageId}`;
      const commandId = inflight.get(key);
      if (commandId === undefined) return;
      inflight.delete(key);
      acks.push(commandId);
      // the acknowledgements of a burst (a bulk command) are written together
      if (ackTimer) return;
      ackTimer = setTimeout(() => {
        ackTimer = undefined;
        const ids = acks.splice(0);
        void repo.markDelivered(db, null, ids, clock.now()).then(report).catch(fail);
      }, ACK_BATCH_MS);
    },
    replied(device, requestId, payload) {
      const id = Number(requestId);
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return Promise.resolve();
      replies.push({ deviceId: device.id, id, ...readReply(payload) });
      // the replies of a burst are written together; each device's publish is acknowledged once its reply is
      if (!replyBatch) {
        replyBatch = new Promise<void>((resolve) => setTimeout(resolve, ACK_BATCH_MS)).then(async () => {
          replyBatch = null;
          const batch = replies.splice(0);
          try {
            report(await repo.markRepliedMany(db, batch, clock.now()));
          } catch (error) {
            fail(error);
          }
        });
      }
      return replyBatch;
    },
  };

  return {
    handler,
    deliver,
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
