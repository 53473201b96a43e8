import { describe, expect, it } from 'vitest';
import { createConnection, PROBE_EVERY_MS, reportingTo } from './connection.ts';

function harness(onLine = true) {
  const timers: { fn: () => void; ms: number; id: number }[] = [];
  let nextId = 0;
  let answering = false;
  const probes: number[] = [];
  const connection = createConnection({
    onLine,
    probe: () => {
      probes.push(probes.length);
      return answering ? Promise.resolve() : Promise.reject(new TypeError('Failed to fetch'));
    },
    setTimeout: (fn, ms) => {
      const id = ++nextId;
      timers.push({ fn, ms, id });
      return id;
    },
    clearTimeout: (id) => {
      const at = timers.findIndex((t) => t.id === id);
      if (at >= 0) timers.splice(at, 1);
    },
  });
  const events: string[] = [];
  connection.subscribe(() => events.push(String(connection.reason())));
  connection.onReturn(() => events.push('return'));
  /** Runs the timers due now and lets the probe's answer arrive. */
  const tick = async () => {
    for (const timer of timers.splice(0)) timer.fn();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { connection, events, timers, probes, tick, answer: (yes: boolean) => (answering = yes) };
}

describe('connection to the server', () => {
  it('follows the browser: offline, then back', () => {
    const { connection, events } = harness();
    expect(connection.online()).toBe(true);
    connection.browserOnline(false);
    expect(connection.reason()).toBe('offline');
    connection.browserOnline(true);
    expect(connection.online()).toBe(true);
    expect(events).toEqual(['offline', 'null', 'return']);
  });

  it('starts offline when the browser does', () => {
    expect(harness(false).connection.reason()).toBe('offline');
  });

  it('is unreachable when a request gets no answer although the phone says it is online, and back on the next answer', () => {
    const { connection, events } = harness();
    connection.reachedNobody();
    connection.reachedNobody();
    expect(connection.reason()).toBe('unreachable');
    connection.answered();
    expect(connection.online()).toBe(true);
    // told once per change, not per request
    expect(events).toEqual(['unreachable', 'null', 'return']);
  });

  it('asks the server again every few seconds while it answers nobody, and stops once it answers', async () => {
    const { connection, timers, probes, tick, answer, events } = harness();
    connection.reachedNobody();
    expect(timers.map((t) => t.ms)).toEqual([PROBE_EVERY_MS]);
    await tick();
    expect(probes).toHaveLength(1);
    expect(connection.reason()).toBe('unreachable');
    expect(timers).toHaveLength(1);
    answer(true);
    await tick();
    expect(connection.online()).toBe(true);
    expect(timers).toHaveLength(0);
    expect(events).toEqual(['unreachable', 'null', 'return']);
  });

  it('does not ask while the phone has no network: the browser says when it is back', async () => {
    const { connection, timers } = harness();
    connection.reachedNobody();
    connection.browserOnline(false);
    expect(connection.reason()).toBe('offline');
    expect(timers).toHaveLength(0);
    // a request that fails while offline does not start asking
    connection.reachedNobody();
    expect(timers).toHaveLength(0);
    // back: the next request tells whether the server answers
    connection.browserOnline(true);
    expect(connection.online()).toBe(true);
  });
});

describe('reportingTo', () => {
  it('reports an answer of any status, a request without one, and not a request the app called off', async () => {
    const { connection, events } = harness();
    const answeredWith = (status: number) => reportingTo(connection, async () => new Response(null, { status }));
    const failing = (error: Error) =>
      reportingTo(connection, async () => {
        throw error;
      });
    await expect(failing(new DOMException('stopped', 'AbortError'))('/x')).rejects.toThrow('stopped');
    expect(connection.online()).toBe(true);
    await expect(failing(new TypeError('Failed to fetch'))('/x')).rejects.toThrow('Failed to fetch');
    expect(connection.reason()).toBe('unreachable');
    expect((await answeredWith(503)('/x')).status).toBe(503);
    expect(connection.online()).toBe(true);
    expect(events).toEqual(['unreachable', 'null', 'return']);
  });
});
