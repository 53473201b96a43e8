import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoizedSerializerCompiler, sharedResponse } from './validation.ts';

describe('the memoized serializer', () => {
  it('shapes a shared answer by the response schema once, and every other answer every time', async () => {
    const app = Fastify();
    app.setSerializerCompiler(memoizedSerializerCompiler);
    const shared = sharedResponse({ name: 'Northwind', secret: 'never sent' });
    let calls = 0;
    const schema = { response: { 200: z.object({ name: z.string().refine(() => ++calls > 0) }) } };
    app.get('/shared', { schema }, async () => shared);
    app.get('/fresh', { schema }, async () => ({ name: 'Acme', secret: 'never sent' }));

    const first = await app.inject('/shared');
    const second = await app.inject('/shared');
    expect(first.body).toBe('{"name":"Northwind"}');
    expect(second.body).toBe(first.body);
    expect(calls).toBe(1);
    expect((await app.inject('/fresh')).body).toBe('{"name":"Acme"}');
    expect((await app.inject('/fresh')).body).toBe('{"name":"Acme"}');
    expect(calls).toBe(3);
    expect(Object.isFrozen(shared)).toBe(true);
    await app.close();
  });
});
