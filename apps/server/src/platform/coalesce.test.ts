import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalesce.ts';

/** A load that the test ends by hand, recording when it started. */
function gatedLoads<T>() {
  const runs: Array<{ startedAt: number; finish: (value: T) => void; fail: (error: Error) => void }> = [];
  let clock = 0;
  const load = () =>
    new Promise<T>((resolve, reject) => {
      runs.push({ startedAt: ++clock, finish: resolve, fail: reject });
    });
  const tick = () => ++clock;
  return { runs, load, tick };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createCoalescer', () => {
  it('runs a lone call at once and hands its value as it is', async () => {
    const marked: object[] = [];
    const c = createCoalescer<object>((v) => {
      marked.push(v);
      return v;
    });
    const value = { a: 1 };
    await expect(c.run('k', async () => value)).resolves.toBe(value);
    expect(marked).toEqual([]);
    expect(c.size).toBe(0);
  });

  it('answers the callers that came during a run with one new run started after it, never with the run under way', async () => {
    const marked: string[] = [];
    const c = createCoalescer<string>((v) => {
      marked.push(v);
      return v;
    });
    const { runs, load, tick } = gatedLoads<string>();
    const first = c.run('k', load);
    await settle();
    expect(runs).toHaveLength(1);
    const askedAt = tick();
    const later = [c.run('k', load), c.run('k', load), c.run('k', load)];
    await settle();
    // still one run: the three wait for the next
    expect(runs).toHaveLength(1);
    runs[0]?.finish('before');
    await expect(first).resolves.toBe('before');
    await settle();
    expect(runs).toHaveLength(2);
    expect(runs[1]?.startedAt).toBeGreaterThan(askedAt);
    runs[1]?.finish('after');
    await expect(Promise.all(later)).resolves.toEqual(['after', 'after', 'after']);
    // only the value handed to several callers is marked shared
    expect(marked).toEqual(['after']);
    await settle();
    expect(c.size).toBe(0);
  });

  it('keeps keys apart', async () => {
    const c = createCoalescer<string>();
    const { runs, load } = gatedLoads<string>();
    const a = c.run('a', load);
    const b = c.run('b', load);
    await settle();
    expect(runs).toHaveLength(2);
    runs[1]?.finish('b');
    await expect(b).resolves.toBe('b');
    runs[0]?.finish('a');
    await expect(a).resolves.toBe('a');
  });

  it('hands a failure to every caller of its run and still runs for those who came after', async () => {
    const c = createCoalescer<string>();
    const { runs, load } = gatedLoads<string>();
    const first = c.run('k', load);
    await settle();
    const second = c.run('k', load);
    const third = c.run('k', load);
    runs[0]?.fail(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await settle();
    runs[1]?.fail(new Error('still down'));
    await expect(second).rejects.toThrow('still down');
    await expect(third).rejects.toThrow('still down');
    await settle();
    expect(c.size).toBe(0);
    await expect(c.run('k', async () => 'up')).resolves.toBe('up');
  });

  it('turns a load that throws at once into a rejection', async () => {
    const c = createCoalescer<string>();
    await expect(
      c.run('k', () => {
        throw new Error('bad');
      }),
    ).rejects.toThrow('bad');
    await settle();
    expect(c.size).toBe(0);
  });
});
