import { describe, expect, it } from 'vitest';
import { readReply } from './dispatcher.ts';

describe('readReply', () => {
  it('keeps a JSON reply and marks it successful', () => {
    expect(readReply(Buffer.from('{"running":true}'))).toEqual({ state: 'successful', response: { running: true }, error: null });
  });
  it('fails a reply with an error key', () => {
    expect(readReply(Buffer.from('{"error":"no such door"}'))).toMatchObject({ state: 'failed', error: 'no such door' });
  });
  it('keeps text that is not JSON, and an empty reply as null', () => {
    expect(readReply(Buffer.from('done'))).toEqual({ state: 'successful', response: 'done', error: null });
    expect(readReply(Buffer.alloc(0))).toEqual({ state: 'successful', response: null, error: null });
  });
  it('drops NUL, which PostgreSQL cannot store, also as a JSON escape', () => {
    expect(readReply(Buffer.from('{"a":"x\\u0000y"}')).response).toEqual({ a: 'xy' });
    expect(readReply(Buffer.from('a\u0000b')).response).toBe('ab');
  });
  it('refuses a reply over 64 KB', () => {
    expect(readReply(Buffer.alloc(70_000, 'a'))).toMatchObject({ state: 'failed', error: 'Reply too large' });
  });
});
