import { describe, expect, it } from 'vitest';
import { drainToasts, hasToasts, subscribeToasts, TOAST_DURATION, toast } from './toasts.ts';

describe('toasts', () => {
  it('last 3 s for success and 5 s for errors (SPEC 9)', () => {
    expect(TOAST_DURATION.success).toBe(3000);
    expect(TOAST_DURATION.error).toBe(5000);
  });

  it('queue until the host shows them, and tell the host', () => {
    let told = 0;
    const stop = subscribeToasts(() => told++);
    expect(hasToasts()).toBe(false);
    toast.success('Login Successful');
    toast.error('Failed to connect server');
    toast.error('');
    expect(hasToasts()).toBe(true);
    expect(told).toBe(2);
    expect(drainToasts()).toEqual([
      { kind: 'success', message: 'Login Successful' },
      { kind: 'error', message: 'Failed to connect server' },
    ]);
    expect(drainToasts()).toEqual([]);
    stop();
  });
});
