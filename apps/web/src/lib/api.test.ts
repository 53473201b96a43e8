import { describe, expect, it, vi } from 'vitest';
import { createApi, fillPath } from './api.ts';
import type { RequestOptions } from './http-client.ts';

function recorder() {
  const calls: Array<{ path: string; options: RequestOptions }> = [];
  const request = vi.fn(async (path: string, options: RequestOptions = {}) => {
    calls.push({ path, options });
    return null as never;
  });
  return { api: createApi({ request }), calls };
}

describe('typed api client', () => {
  it('fills path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath('/iotapp/assets/{id}/', { id: 7 })).toBe('/iotapp/assets/7/');
    expect(fillPath('/api/auth/sessions/{id}/', { id: 'a/b c' })).toBe('/api/auth/sessions/a%2Fb%20c/');
    expect(() => fillPath('/iotapp/assets/{id}/', {})).toThrow('missing path parameter id');
  });

  it('sends method, query, body and the client options through the http client', async () => {
    const { api, calls } = recorder();
    await api.get('/iotapp/assets/{id}/', { path: { id: 3 }, query: { showRoles: 'true' }, toast: false });
    await api.put('/iotapp/assets/{id}/', { name: 'North' } as never, { path: { id: 3 } });
    await api.del('/iotapp/assets/{id}/', { path: { id: 3 } });
    await api.post('/api/auth/totp/setup/', undefined);
    expect(calls).toEqual([
      { path: '/iotapp/assets/3/', options: { method: 'GET', query: { showRoles: 'true' }, body: undefined, toast: false } },
      { path: '/iotapp/assets/3/', options: { method: 'PUT', query: undefined, body: { name: 'North' } } },
      { path: '/iotapp/assets/3/', options: { method: 'DELETE', query: undefined, body: undefined } },
      { path: '/api/auth/totp/setup/', options: { method: 'POST', query: undefined, body: undefined } },
    ]);
  });

  it('rejects at compile time a path the server does not serve, a missing path parameter and a wrong query', () => {
    const { api } = recorder();
    const never = () => {
      // @ts-expect-error: no such route
      void api.get('/iotapp/no-such-route/');
      // @ts-expect-error: the site id is required
      void api.get('/iotapp/assets/{id}/');
      // @ts-expect-error: showRoles is 'true' | 'false' | '1' | '0', not a boolean
      void api.get('/iotapp/assets/{id}/', { path: { id: 1 }, query: { showRoles: true } });
    };
    expect(typeof never).toBe('function');
  });
});
