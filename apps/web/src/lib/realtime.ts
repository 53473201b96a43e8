import type { DomainEventType, EventsOfTopic, RealtimeEnvelope, RealtimeTopic } from '@sitewatch/contracts/event-map';
import type { PushEnvelope } from '@sitewatch/contracts/notifications';
import { PUSH_CLOSE, PUSH_MAX_WATCHED } from '@sitewatch/contracts/push';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { onSessionEnd, onTokensChanged } from './http.ts';
import { connection } from './offline/connection.ts';

/**
 * The browser end of the push hub: one WebSocket per tab at /ws (the session cookie authenticates it), a small
 * store of the last event per topic read with useSyncExternalStore, and query invalidation when an event
 * arrives. It reconnects by itself with backoff; while it is down, screens keep their polling intervals.
 */

export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'closed';
type Listener = () => void;
type Handler = (envelope: PushEnvelope) => void;

const KEEPALIVE_MS = 25_000;
const MAX_BACKOFF_MS = 30_000;

let socket: WebSocket | null = null;
let status: RealtimeStatus = 'idle';
let users = 0;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let keepalive: ReturnType<typeof setInterval> | undefined;
/** The server said the session ended: wait for new tokens before trying again. */
let sessionEnded = false;
let queryClient: QueryClient | null = null;

const statusListeners = new Set<Listener>();
const topicListeners = new Map<string, Set<Listener>>();
const lastByTopic = new Map<string, PushEnvelope>();
const handlers = new Map<string, Set<Handler>>();
/** Topic prefix → functions that write an event's data into cached queries. */
const patches: Array<{ prefix: string; patch: (envelope: PushEnvelope, client: QueryClient) => void }> = [];
/** Topic prefix → query keys an event of that topic makes stale. */
const invalidations: Array<{ prefix: string; key: QueryKey }> = [];
/** Devices whose live values some mounted screen shows (with how many screens want each). */
const watched = new Map<number, number>();
let watchTimer: ReturnType<typeof setTimeout> | undefined;

function sendWatch() {
  watchTimer = undefined;
  if (socket?.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: 'watch', deviceIds: [...watched.keys()].slice(0, PUSH_MAX_WATCHED) }));
}
/** Screens mount and unmount together: tell the server once, after the burst. */
function scheduleWatch() {
  if (!watchTimer) watchTimer = setTimeout(sendWatch, 20);
}

function setStatus(next: RealtimeStatus) {
  if (status === next) return;
  status = next;
  for (const fn of statusListeners) fn();
}

const matches = (prefix: string, topic: string) => topic === prefix || topic.startsWith(prefix.endsWith('.') ? prefix : `${prefix}.`);

function dispatch(envelope: PushEnvelope) {
  lastByTopic.set(envelope.type, envelope);
  for (const fn of topicListeners.get(envelope.type) ?? []) fn();
  for (const [prefix, set] of handlers) if (matches(prefix, envelope.type)) for (const fn of set) fn(envelope);
  if (queryClient) {
    for (const { prefix, patch } of patches) if (matches(prefix, envelope.type)) patch(envelope, queryClient);
    for (const { prefix, key } of invalidations) if (matches(prefix, envelope.type)) void queryClient.invalidateQueries({ queryKey: key });
  }
}

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws`;
}

function scheduleReconnect() {
  if (users === 0 || sessionEnded || retryTimer) return;
  const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
  attempt++;
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    connect();
  }, delay);
}

function connect() {
  if (socket || users === 0 || typeof WebSocket === 'undefined') return;
  setStatus('connecting');
  const ws = new WebSocket(socketUrl());
  socket = ws;
  ws.onopen = () => {
    attempt = 0;
    setStatus('open');
    keepalive = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
    }, KEEPALIVE_MS);
    // Whatever happened while the socket was down is fetched again, each query once (a key registered for several
    // topics would otherwise restart the same refetch, e.g. every page of the map's markers).
    if (watched.size > 0) sendWatch();
    const keys = new Map(invalidations.map(({ key }) => [JSON.stringify(key), key]));
    if (queryClient) for (const key of keys.values()) void queryClient.invalidateQueries({ queryKey: key });
  };
  ws.onmessage = (message) => {
    try {
      const envelope = JSON.parse(String(message.data)) as PushEnvelope;
      if (envelope && typeof envelope.type === 'string') dispatch(envelope);
    } catch {
      // not ours: ignore
    }
  };
  ws.onclose = (event) => {
    clearInterval(keepalive);
    if (socket === ws) socket = null;
    setStatus('closed');
    if (event.code === PUSH_CLOSE.sessionEnded) sessionEnded = true;
    scheduleReconnect();
  };
  ws.onerror = () => ws.close();
}

function disconnect() {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  clearInterval(keepalive);
  const ws = socket;
  socket = null;
  ws?.close(1000);
  setStatus('idle');
}

onSessionEnd(() => {
  sessionEnded = true;
  disconnect();
});
onTokensChanged(() => {
  sessionEnded = false;
  if (users > 0 && !socket) {
    attempt = 0;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    connect();
  }
});
// The server can be reached again: try at once instead of waiting for the backoff.
connection.onReturn(() => {
  if (users > 0 && !socket && !sessionEnded) {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    connect();
  }
});

export const realtime = {
  /** Keeps the socket open while at least one holder wants it; returns the release function. */
  retain(client: QueryClient): () => void {
    queryClient = client;
    users++;
    connect();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      users--;
      if (users === 0) disconnect();
    };
  },
  /** Events whose type is the prefix or starts with `prefix.` make the query key stale. */
  invalidateOn(prefix: RealtimeTopic, key: QueryKey) {
    if (!invalidations.some((i) => i.prefix === prefix && JSON.stringify(i.key) === JSON.stringify(key)))
      invalidations.push({ prefix, key });
  },
  /** Events of the topic prefix carry data to write straight into cached queries (no refetch). */
  patchOn<T>(prefix: string, patch: (envelope: PushEnvelope<T>, client: QueryClient) => void) {
    patches.push({ prefix, patch: patch as (envelope: PushEnvelope, client: QueryClient) => void });
  },
  /** Calls the handler for every event of the topic prefix; returns the unsubscribe function. */
  on<T extends RealtimeTopic>(prefix: T, handler: (envelope: RealtimeEnvelope<EventsOfTopic<T>>) => void): () => void {
    let set = handlers.get(prefix);
    if (!set) {
      set = new Set();
      handlers.set(prefix, set);
    }
    // the socket delivers only envelopes whose type matches the prefix (see dispatch)
    const untyped = handler as Handler;
    set.add(untyped);
    return () => set?.delete(untyped);
  },
  /** Asks for `device.values` events of these devices while the returned function is not called. */
  watchDevices(deviceIds: number[]): () => void {
    const ids = [...new Set(deviceIds)];
    for (const id of ids) watched.set(id, (watched.get(id) ?? 0) + 1);
    if (ids.length > 0) scheduleWatch();
    return () => {
      for (const id of ids) {
        const n = (watched.get(id) ?? 1) - 1;
        if (n <= 0) watched.delete(id);
        else watched.set(id, n);
      }
      if (ids.length > 0) scheduleWatch();
    };
  },
  status: () => status,
  subscribeStatus(listener: Listener) {
    statusListeners.add(listener);
    return () => statusListeners.delete(listener);
  },
  last: <K extends DomainEventType>(topic: K) => lastByTopic.get(topic) as RealtimeEnvelope<K> | undefined,
  subscribeTopic(topic: DomainEventType, listener: Listener) {
    let set = topicListeners.get(topic);
    if (!set) {
      set = new Set();
      topicListeners.set(topic, set);
    }
    set.add(listener);
    return () => set?.delete(listener);
  },
  /** Delivers an envelope as if it came from the socket (tests). */
  dispatch,
};

/** Keeps this tab's socket open while the component is mounted. */
export function useRealtimeConnection(client: QueryClient) {
  useEffect(() => realtime.retain(client), [client]);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(realtime.subscribeStatus, realtime.status, () => 'idle');
}

/** The last event of a type, re-rendering when a new one arrives. */
export function useRealtimeEvent<K extends DomainEventType>(topic: K): RealtimeEnvelope<K> | undefined {
  return useSyncExternalStore(
    (listener) => realtime.subscribeTopic(topic, listener),
    () => realtime.last(topic),
    () => undefined,
  );
}

/** Receives the live values of these devices while mounted (`device.values` events). */
export function useWatchDevices(deviceIds: number[]) {
  const key = [...new Set(deviceIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return;
    return realtime.watchDevices(key.split(',').map(Number));
  }, [key]);
}

/** Runs the handler for each event of the topic prefix while mounted. */
export function useRealtimeHandler<T extends RealtimeTopic>(prefix: T, handler: (envelope: RealtimeEnvelope<EventsOfTopic<T>>) => void) {
  useEffect(() => realtime.on(prefix, handler), [prefix, handler]);
}

/**
 * SPEC 9 polling as the fallback: the interval while the socket is down, none while it is open (pushed events
 * make the queries stale instead).
 */
export function usePollingFallback(intervalMs: number | false): number | false {
  return useRealtimeStatus() === 'open' ? false : intervalMs;
}
