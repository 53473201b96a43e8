/**
 * One run of a read for all the callers that ask for it together, without ever answering a caller from a run that
 * started before it asked.
 *
 * A pushed change makes every open screen of a list ask for it again at once. While a run for a key is under way,
 * callers of the same key wait for the next run, which starts when the current one ends, once for all of them. So
 * each caller gets what a read begun after its own call saw: a change committed before the call is in its answer,
 * as if it had read alone. No answer is kept after its run.
 *
 * `key` must name everything the read depends on: the same key must always mean the same read. A value handed to
 * more than one caller goes through `shared` first (e.g. `sharedResponse`, so that it is encoded once).
 */
export function createCoalescer<T>(shared: (value: T) => T = (value) => value) {
  interface Waiting {
    callers: number;
    promise: Promise<T>;
    start(): void;
  }
  /** Per key with a run under way: the callers waiting for the run after it, if any. */
  const waiting = new Map<string, Waiting | null>();

  function start(key: string, load: () => Promise<T>, callers: number): Promise<T> {
    const promise = Promise.resolve()
      .then(load)
      .then((value) => (callers > 1 ? shared(value) : value));
    const advance = () => {
      const next = waiting.get(key);
      if (!next) {
        waiting.delete(key);
        return;
      }
      waiting.set(key, null);
      next.start();
    };
    promise.then(advance, advance);
    return promise;
  }

  function wait(key: string, load: () => Promise<T>): Waiting {
    let adopt!: (run: Promise<T>) => void;
    const next: Waiting = {
      callers: 0,
      promise: new Promise<T>((resolve) => {
        adopt = resolve;
      }),
      start: () => adopt(start(key, load, next.callers)),
    };
    return next;
  }

  return {
    run(key: string, load: () => Promise<T>): Promise<T> {
      if (!waiting.has(key)) {
        waiting.set(key, null);
        return start(key, load, 1);
      }
      let next = waiting.get(key);
      if (!next) {
        next = wait(key, load);
        waiting.set(key, next);
      }
      next.callers++;
      return next.promise;
    },
    /** Keys with a run under way. */
    get size() {
      return waiting.size;
    },
  };
}
