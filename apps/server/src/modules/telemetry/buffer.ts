/**
 * A bounded ingest buffer: producers add messages, one flusher writes them in batches. When the buffer is full a
 * producer either waits for room (MQTT: the QoS 1 ack and the socket wait, so TCP pushes back on the device) or is
 * told no at once (HTTP: 503 with Retry-After). A message's promise settles when its batch is committed, so a QoS 1
 * ack is only sent for stored data. A failed flush keeps the batch and retries with backoff: nothing acknowledged is
 * dropped.
 *
 * Messages are grouped into batches as they arrive, and the messages of one batch share one promise: at tens of
 * thousands of messages a second a promise and a closure per message would be most of the buffer's cost.
 */
export interface BufferOptions<T> {
  /** Most messages held (queued plus in flight). */
  capacity: number;
  /** Largest batch written at once. */
  batchSize: number;
  /** Longest a message waits before its batch is written (unless a write is still running then). */
  flushIntervalMs: number;
  /** Writes one batch; throws to retry. */
  sink: (items: T[]) => Promise<void>;
  onError?: (error: unknown, attempt: number) => void;
  /**
   * Whether a failed write can never succeed with the same items (the database refused the data). The batch is
   * then split until the offending items are alone; those go to `onPoison` and count as handled, the rest are
   * written and acknowledged as usual.
   */
  isPoison?: (error: unknown) => boolean;
  onPoison?: (item: T, error: unknown) => void;
  /** Called after each committed batch with its write time and size (metrics). */
  onFlushed?: (ms: number, items: number) => void;
}

interface Batch<T> {
  items: T[];
  openedAt: number;
  stored: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class BufferClosedError extends Error {
  constructor() {
    super('ingest buffer closed');
  }
}

const ignore = () => undefined;

function openBatch<T>(): Batch<T> {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const stored = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // a caller that does not wait (QoS 0) must not turn a refused batch into an unhandled rejection
  stored.catch(ignore);
  return { items: [], openedAt: performance.now(), stored, resolve, reject };
}

export function createIngestBuffer<T>(options: BufferOptions<T>) {
  /** Batches waiting to be written, oldest first; only the last one still takes messages. */
  const queue: Batch<T>[] = [];
  let queued = 0;
  let inFlight = 0;
  let flushing = false;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;
  let poisoned = 0;
  let flushes = 0;
  let flushedItems = 0;
  let flushMsTotal = 0;
  let lastFlushMs: number | null = null;
  /** Messages waiting for room (MQTT), first come first served; `waitingHead` is the next one in. */
  const waiting: Array<{ item: T; admit: (stored: Promise<void>) => void; refuse: (error: Error) => void } | undefined> = [];
  let waitingHead = 0;
  let idleWaiters: Array<() => void> = [];

  const held = () => queued + inFlight;
  const anyWaiting = () => waitingHead < waiting.length;
  /** Room for one more message now, without overtaking those already waiting. */
  const hasRoom = () => held() < options.capacity && !anyWaiting();

  /** Lets waiting messages in, oldest first, as far as there is room. */
  function admitWaiting() {
    while (anyWaiting() && held() < options.capacity) {
      const next = waiting[waitingHead] as NonNullable<(typeof waiting)[number]>;
      waiting[waitingHead++] = undefined;
      next.admit(enqueue(next.item));
    }
    if (!anyWaiting()) {
      waiting.length = 0;
      waitingHead = 0;
    } else if (waitingHead > 4096 && waitingHead * 2 > waiting.length) {
      waiting.splice(0, waitingHead);
      waitingHead = 0;
    }
  }

  /** Wakes those waiting in `drain` for the running write to end. */
  function wakeIdleWaiters() {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  function clearTimer() {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  /**
   * Whether the oldest message has waited the flush interval while its timer has not fired. Arrivals check it too:
   * with thousands of busy sockets the event loop keeps polling them (libuv polls again at once while events fill
   * its list) and can run no timer for seconds, so a batch written only by its timer would wait that long.
   */
  const overdue = () =>
    timer !== null && failures === 0 && !flushing && performance.now() >= (queue[0] as Batch<T>).openedAt + options.flushIntervalMs;

  /** Writes at once when a batch is full, otherwise when the oldest message has waited the flush interval. */
  function schedule() {
    if (flushing || closed || queue.length === 0) return;
    const head = queue[0] as Batch<T>;
    if (queue.length > 1 || head.items.length >= options.batchSize) {
      clearTimer();
      void flush();
    } else if (!timer) {
      const due = Math.max(0, head.openedAt + options.flushIntervalMs - performance.now());
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, due);
    }
  }

  /**
   * Writes `items` in halves, down to single items, after the whole was refused as poison. Returns what is left
   * unwritten because of another failure (the database went away meanwhile): that is retried like any batch.
   */
  async function isolatePoison(items: T[]): Promise<T[]> {
    const mid = items.length >> 1;
    const left: T[] = [];
    for (const half of [items.slice(0, mid), items.slice(mid)]) {
      if (half.length === 0) continue;
      if (left.length > 0) {
        left.push(...half);
        continue;
      }
      try {
        await options.sink(half);
        flushedItems += half.length;
      } catch (error) {
        if (!options.isPoison?.(error)) left.push(...half);
        else if (half.length === 1) {
          poisoned++;
          options.onPoison?.(half[0] as T, error);
        } else left.push(...(await isolatePoison(half)));
      }
    }
    return left;
  }

  /** Writes a batch; a poison batch is split so that only its bad items are left out. */
  async function write(batch: Batch<T>): Promise<void> {
    try {
      await options.sink(batch.items);
      flushedItems += batch.items.length;
    } catch (error) {
      if (!options.isPoison?.(error)) throw error;
      if (batch.items.length === 1) {
        poisoned++;
        options.onPoison?.(batch.items[0] as T, error);
        return;
      }
      const left = await isolatePoison(batch.items);
      if (left.length > 0) {
        batch.items = left;
        throw error;
      }
    }
  }

  async function flush(): Promise<void> {
    if (flushing || queue.length === 0) return;
    flushing = true;
    const batch = queue.shift() as Batch<T>;
    queued -= batch.items.length;
    inFlight = batch.items.length;
    const started = performance.now();
    try {
      await write(batch);
    } catch (error) {
      failures++;
      options.onError?.(error, failures);
      inFlight = 0;
      queue.unshift(batch);
      queued += batch.items.length;
      flushing = false;
      wakeIdleWaiters();
      if (!closed) {
        const delay = Math.min(5000, 100 * 2 ** Math.min(failures, 6));
        timer = setTimeout(() => {
          timer = null;
          void flush();
        }, delay);
      }
      return;
    }
    failures = 0;
    flushes++;
    lastFlushMs = performance.now() - started;
    flushMsTotal += lastFlushMs;
    options.onFlushed?.(lastFlushMs, batch.items.length);
    inFlight = 0;
    flushing = false;
    batch.resolve();
    admitWaiting();
    if (queue.length === 0) wakeIdleWaiters();
    schedule();
  }

  function enqueue(item: T): Promise<void> {
    let batch = queue.at(-1);
    if (!batch || batch.items.length >= options.batchSize) {
      batch = openBatch<T>();
      queue.push(batch);
    }
    batch.items.push(item);
    queued++;
    if (batch.items.length === 1 || batch.items.length >= options.batchSize) schedule();
    else if (overdue()) {
      clearTimer();
      void flush();
    }
    return batch.stored;
  }

  return {
    /** Waits for room (after the messages already waiting), then adds the message; `stored` settles when it is written. */
    add(item: T): Promise<{ stored: Promise<void> }> {
      if (closed) return Promise.reject(new BufferClosedError());
      if (hasRoom()) return Promise.resolve({ stored: enqueue(item) });
      return new Promise((resolve, reject) => {
        waiting.push({ item, admit: (stored) => resolve({ stored }), refuse: reject });
      });
    },
    /** Adds the message if there is room now (null otherwise): the fast path of `add`, without a promise of its own. */
    addNow(item: T): Promise<void> | null {
      if (closed || !hasRoom()) return null;
      return enqueue(item);
    },
    get size() {
      return held();
    },
    get full() {
      return held() >= options.capacity;
    },
    stats: () => ({ buffered: held(), capacity: options.capacity, flushes, flushedItems, flushMsTotal, lastFlushMs, failures, poisoned }),
    /** Writes everything held now (tests, shutdown). */
    async drain(): Promise<void> {
      while (queue.length > 0 || flushing) {
        if (!flushing) {
          clearTimer();
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
      clearTimer();
      for (const batch of queue.splice(0)) batch.reject(new BufferClosedError());
      queued = 0;
      for (const w of waiting.splice(0)) w?.refuse(new BufferClosedError());
      waitingHead = 0;
    },
  };
}
export type IngestBuffer<T> = ReturnType<typeof createIngestBuffer<T>>;
