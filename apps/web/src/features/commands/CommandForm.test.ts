import { describe, expect, it } from 'vitest';
import { readCommandForm } from './CommandForm.tsx';

describe('readCommandForm', () => {
  it('reads method, JSON params and the timeout in seconds', () => {
    expect(readCommandForm({ method: ' setRelay ', params: '{ "on": true }', timeoutSeconds: '15' })).toEqual({
      ok: true,
      method: 'setRelay',
      params: { on: true },
      timeoutMs: 15_000,
    });
  });
  it('refuses what the server refuses, with the messages of the contracts', () => {
    const read = readCommandForm({ method: 'open door', params: '{ "on": ', timeoutSeconds: '0' });
    expect(read).toEqual({
      ok: false,
      errors: {
        method: 'Method may use letters, digits, _ - . : and / only',
        params: 'Invalid JSON',
        timeout: 'Timeout must be 1 to 600 seconds',
      },
    });
    expect(readCommandForm({ method: '', params: '', timeoutSeconds: '10' })).toMatchObject({ errors: { method: 'Method is required' } });
  });
});
