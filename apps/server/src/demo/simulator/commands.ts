import { COMMAND_TOPICS, DEVICE_TOPICS } from '@sitewatch/contracts';
import type { MqttClient } from 'mqtt';
import { applyDeviceOpsCommand } from './device-ops.ts';
import { type DeviceSim, holdGenset, type Values } from './physics.ts';

/**
 * How the demo devices answer commands (server-side RPC over MQTT, as ThingsBoard firmware does): each subscribes to
 * `v1/devices/me/rpc/request/+` and replies on `v1/devices/me/rpc/response/{id}`, then publishes its new state at
 * once. A genset started or stopped by hand stays so (until `setAuto`), relays stay switched, doors open, RTU
 * outputs switch and routers reboot (through the device operations physics).
 */

/** Keys a command set that the physics would otherwise wander away from (a relay switched by hand). */
const held = new WeakMap<Values, Values>();

/** Re-applies what commands set, after a physics step (and returns the values to publish). */
export function keepCommanded(v: Values, published: Values): Values {
  const keep = held.get(v);
  if (!keep) return published;
  Object.assign(v, keep);
  return { ...published, ...keep };
}

const holdKey = (v: Values, key: string, value: number | boolean | string) => {
  const keep = held.get(v) ?? {};
  keep[key] = value;
  held.set(v, keep);
  v[key] = value;
};

/** What a device does with one command: its reply (with `error` when it refuses it). */
export function applyCommand(sim: DeviceSim, method: string, params: unknown): unknown {
  const v = sim.values;
  const ops = applyDeviceOpsCommand(sim.type, v, method, params);
  if (ops) return ops.reply;
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  switch (method) {
    case 'ping':
      return { pong: true, ts: Date.now() };
    case 'getState':
      return { ...v };
    case 'startGenset':
    case 'stopGenset':
    case 'setAuto': {
      if (sim.type !== 'GENERATOR') return { error: `${method} is for generators` };
      if (method === 'setAuto') {
        holdGenset(v, undefined);
        return { mode: 'auto' };
      }
      const run = method === 'startGenset';
      if (run && (v.fuelLevel as number) <= 2) return { error: 'fuel too low' };
      holdGenset(v, run);
      v.running = run;
      v.outputVoltage = run ? 230 : 0;
      v.loadKw = run ? 10 : 0;
      return { running: run };
    }
    case 'setRelay': {
      const on = Boolean(p.on);
      holdKey(v, 'relayOn', on);
      return { relayOn: on };
    }
    case 'openDoor': {
      if (!('doorOpen' in v)) return { error: 'no door' };
      v.doorOpen = true;
      return { doorOpen: true };
    }
    case 'reboot': {
      if ('uptimeSeconds' in v) v.uptimeSeconds = 0;
      return { rebooting: true };
    }
    default:
      return { error: `unknown method ${method}` };
  }
}

/** Subscribes a connected demo device to its commands and answers them. */
export function answerCommands(client: MqttClient, sim: DeviceSim) {
  const subscribe = () => client.subscribe(COMMAND_TOPICS.requestSubscription, { qos: 1 }, () => undefined);
  client.on('connect', subscribe);
  if (client.connected) subscribe();
  client.on('message', (topic, payload) => {
    if (!topic.startsWith('v1/devices/me/rpc/request/')) return;
    const id = Number(topic.slice('v1/devices/me/rpc/request/'.length));
    let request: { method?: unknown; params?: unknown } = {};
    try {
      request = JSON.parse(payload.toString()) as typeof request;
    } catch {
      /* answered as an unknown method */
    }
    const reply = applyCommand(sim, String(request.method ?? ''), request.params);
    client.publish(COMMAND_TOPICS.response(id), JSON.stringify(reply ?? {}), { qos: 1 });
    client.publish(DEVICE_TOPICS.telemetry, JSON.stringify(sim.values), { qos: 1 });
  });
}
