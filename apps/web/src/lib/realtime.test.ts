import type { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** A WebSocket the test drives: it records what the client does and lets the test open, message and close it. */
class FakeSocket {
  static OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
    this.onclose?.({ code });
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverSends(envelope: unknown) {
    this.onmessage?.({ data: JSON.stringify(envelope) });
  }
  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

let realtime: typeof import('./realtime.ts').realtime;
const invalidated: unknown[] = [];
const client = { invalidateQueries: (opts: { queryKey: unknown }) => invalidated.push(opts.queryKey) } as unknown as QueryClient;

beforeAll(async () => {
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('window', { location: { protocol: 'https:', host: 'demo.example.com' }, addEventListener() {} });
  ({ realtime } = await import('./realtime.ts'));
});
afterEach(() => {
  vi.useRealTimers();
  invalidated.length = 0;
});

const latest = () => FakeSocket.instances.at(-1) as FakeSocket;

describe('realtime client', () => {
  it('opens one socket per tab while held, delivers events by topic and makes their queries stale', () => {
    realtime.invalidateOn('notification', ['notifications']);
    realtime.invalidateOn('job', ['downloads', 'list']);
    const releaseA = realtime.retain(client);
    const releaseB = realtime.retain(client);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(latest().url).toBe('wss://demo.example.com/ws');
    expect(realtime.status()).toBe('connecting');
    latest().serverOpens();
    expect(realtime.status()).toBe('open');
    invalidated.length = 0; // opening refetches everything once

    const seen: string[] = [];
    const off = realtime.on('notification', (e) => seen.push(e.type));
    latest().serverSends({ type: 'notification.created', data: { id: 1 }, at: '' });
    latest().serverSends({ type: 'job.progress', data: { jobId: 2 }, at: '' });
    latest().serverSends({ type: 'notifications-unrelated', data: {}, at: '' });
    off();
    expect(seen).toEqual(['notification.created']);
    expect(invalidated).toEqual([['notifications'], ['downloads', 'list']]);
    expect(realtime.last('job.progress')?.data).toEqual({ jobId: 2 });

    releaseA();
    expect(latest().closedWith).toBeUndefined();
    releaseB();
    expect(latest().closedWith).toBe(1000);
    expect(realtime.status()).toBe('idle');
  });

  it('reconnects by itself with backoff after the connection drops', () => {
    vi.useFakeTimers();
    const release = realtime.retain(client);
    const first = latest();
    first.serverOpens();
    first.serverCloses(1006);
    expect(realtime.status()).toBe('closed');
    vi.advanceTimersByTime(1100);
    const second = latest();
    expect(second).not.toBe(first);
    second.serverCloses(1006); // the server is still down: the next try waits longer
    vi.advanceTimersByTime(900);
    expect(latest()).toBe(second);
    vi.advanceTimersByTime(1200);
    expect(latest()).not.toBe(second);
    latest().serverOpens();
    expect(realtime.status()).toBe('open');
    release();
  });

  it('does not reconnect when the server ended the session', () => {
    vi.useFakeTimers();
    const release = realtime.retain(client);
    const socket = latest();
    socket.serverOpens();
    socket.serverCloses(4401);
    vi.advanceTimersByTime(60_000);
    expect(latest()).toBe(socket);
    release();
  });

  it('tells the server which devices the screens show, once per burst and again on a new socket', () => {
    vi.useFakeTimers();
    const release = realtime.retain(client);
    latest().serverOpens();
    const watches = (socket: FakeSocket) => socket.sent.map((m) => JSON.parse(m)).filter((m) => m.type === 'watch');
    const stopA = realtime.watchDevices([5, 7]);
    const stopB = realtime.watchDevices([7, 9]);
    vi.advanceTimersByTime(50);
    expect(watches(latest())).toEqual([{ type: 'watch', deviceIds: [5, 7, 9] }]);
    stopA();
    vi.advanceTimersByTime(50);
    expect(watches(latest()).at(-1)).toEqual({ type: 'watch', deviceIds: [7, 9] });
    release(); // the socket closes; a new one announces the watched devices as soon as it opens
    const again = realtime.retain(client);
    latest().serverOpens();
    expect(watches(latest())).toEqual([{ type: 'watch', deviceIds: [7, 9] }]);
    stopB();
    again();
  });

  it('writes pushed data into cached queries', () => {
    const writes: unknown[] = [];
    realtime.patchOn<{ deviceId: number }>('device.values', ({ data }) => writes.push(data.deviceId));
    const release = realtime.retain(client);
    latest().serverOpens();
    latest().serverSends({ type: 'device.values', data: { deviceId: 3, values: [] }, at: '' });
    latest().serverSends({ type: 'device.status', data: { deviceId: 4 }, at: '' });
    expect(writes).toEqual([3]);
    release();
  });
});
