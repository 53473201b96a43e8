import { connect as tcpConnect } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../src/platform/mqtt/broker.ts';
import { freePort } from './telemetry-fixtures.ts';

const log = { info: () => undefined, warn: () => undefined };
const settled = Promise.resolve();

describe('embedded broker fairness', () => {
  it('handles a device flooding at full speed a slice at a time: timers (and the web) run between slices', async () => {
    let handled = 0;
    // the drop path of the rate limits: a publish settled at once, in a microtask
    const broker = await startEmbeddedBroker<string>({
      host: '127.0.0.1',
      port: await freePort(),
      log,
      authenticate: async (username) => username ?? null,
      onPublish: () => {
        handled++;
        return settled;
      },
      overloaded: () => false,
    });
    const total = 20_000;
    const publish = mqttPacket.generate({
      cmd: 'publish',
      topic: 'v1/devices/me/telemetry',
      payload: '{"temperature":21.5,"humidity":40,"door":false}',
      qos: 0,
      retain: false,
      dup: false,
    });
    const socket = tcpConnect(broker.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const connack = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: 'flood',
        keepalive: 60,
        username: 'dev',
      }),
    );
    await connack;
    // the whole flood arrives at once (about 1.4 MB): it is in the server's socket before the first publish is handled
    const handledAtTicks: number[] = [];
    const ticker = setInterval(() => handledAtTicks.push(handled), 1);
    socket.write(Buffer.concat(Array.from({ length: total }, () => publish)));
    const started = Date.now();
    while (handled < total && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 5));
    clearInterval(ticker);
    expect(handled).toBe(total);
    // timers ran while the flood was being handled (not only before and after it), in many turns
    const during = handledAtTicks.filter((n) => n > 0 && n < total);
    expect(during.length).toBeGreaterThan(5);
    // no turn of the event loop handled more than a slice (16 KB: about 230 of these publishes), give or take one
    const steps = handledAtTicks.slice(1).map((n, i) => n - (handledAtTicks[i] as number));
    expect(Math.max(...steps)).toBeLessThan(total / 4);
    socket.destroy();
    await broker.close();
  }, 120_000);
});
