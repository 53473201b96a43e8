/**
 * A bounded ingest buffer: producers add messages, one flusher writes them in batches. When the buffer is full a
 * producer either waits for room (MQTT: the QoS 1 ack and the socket wait, so TCP pushes back on the device) or is
 * told no at once (HTTP: 503 with Retry-After). A message's promise settles when its batch is committed, so a QoS 1
 * ack is only sent for stored data. A failed flush keeps the batch and retries with backoff: nothing acknowledged is
 * dropped.
 */
export interface BufferOptions<T> {
  /** Most messages held (queued plus in flight). */
  capacity: number;
  /** Largest batch written at once. */
  batchSize: number;
  /** Longest a message waits before its batch is written. */
  flushIntervalMs: number;
  /** Writes one batch; throws to retry. */
  sink: (items: T[]) => Promise<void>;
  onError?: (error: unknown, attempt: number) => void;
}

interface Entry<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class BufferClosedError extends Error {
  constructor() {
    super('ingest buffer closed');
  }
}

export function createIngestBuffer<T>(options: BufferOptions<T>) {
  let queue: Entry<T>[] = [];
  let inFlight = 0;
  let flushing = false;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;
  let flushes = 0;
  let lastFlushMs: number | null = null;
  const roomWaiters: Array<() => void> = [];
  let idleWaiters: Array<() => void> = [];

  const held = () => queue.length + inFlight;

  function schedule() {
    if (flushing || closed) return;
    if (queue.length >= options.batchSize) {
      if (timer) clearTimeout(timer);
      timer = null;
      void flush();
    } else if (!timer && queue.length > 0) {
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, options.flushIntervalMs);
    }
  }

  async function flush(): Promise<void> {
    if (flushing || queue.length === 0) return;
    flushing = true;
    const batch = queue.slice(0, options.batchSize);
    queue = queue.slice(batch.length);
    inFlight = batch.length;
    const started = performance.now();
    try {
      await options.sink(batch.map((e) => e.item));
      failures = 0;
      flushes++;
      lastFlushMs = performance.now() - started;
      inFlight = 0;
      for (const e of batch) e.resolve();
    } catch (error) {
      failures++;
      options.onError?.(error, failures);
      inFlight = 0;
      queue = batch.concat(queue);
      flushing = false;
      for (const w of idleWaiters.splice(0)) w();
      if (!closed) {
        const delay = Math.min(5000, 100 * 2 ** Math.min(failures, 6));
        timer = setTimeout(() => {
          timer = null;
          void flush();
        }, delay);
      }
      return;
    }
    flushing = false;
    while (roomWaiters.length && held() < options.capacity) roomWaiters.shift()?.();
    if (queue.length === 0 && idleWaiters.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
    schedule();
  }

  function enqueue(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
  }

  return {
    /** Adds the message, or returns null when the buffer is full. The promise settles when it is stored. */
    tryAdd(item: T): Promise<void> | null {
      if (closed) return Promise.reject(new BufferClosedError());
      if (held() >= options.capacity) return null;
      return enqueue(item);
    },
    /** Waits for room, then adds the message; `stored` settles when it is written. */
    async add(item: T): Promise<{ stored: Promise<void> }> {
      while (held() >= options.capacity) {
        if (closed) throw new BufferClosedError();
        await new Promise<void>((resolve) => roomWaiters.push(resolve));
      }
      if (closed) throw new BufferClosedError();
      return { stored: enqueue(item) };
    },
    get size() {
      return held();
    },
    get full() {
      return held() >= options.capacity;
    },
    stats: () => ({ buffered: held(), capacity: options.capacity, flushes, lastFlushMs, failures }),
    /** Writes everything held now (tests, shutdown). */
    async drain(): Promise<void> {
      while (queue.length > 0 || flushing) {
        if (!flushing) {
          if (timer) clearTimeout(timer);
          timer = null;
          await flush();
          if (failures > 0) return; // the database is down: keep what is held, the caller decides
        } else {
          await new Promise<void>((resolve) => idleWaiters.push(resolve));
          if (failures > 0) return;
        }
      }
    },
    /** Stops taking messages, writes what is held, and refuses whatever could not be written. */
    async close(): Promise<void> {
      await this.drain();
      closed = true;
      if (timer) clearTimeout(timer);
      for (const e of queue) e.reject(new BufferClosedError());
      queue = [];
      for (const w of roomWaiters.splice(0)) w();
    },
  };
}
export type IngestBuffer<T> = ReturnType<typeof createIngestBuffer<T>>;
