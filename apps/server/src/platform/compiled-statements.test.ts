import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledStatements } from './compiled-statements.ts';

interface Tables {
  tickets: { id: number; tenant_id: number; status: string };
}

const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function counted() {
  const built: string[] = [];
  const build = (tenantId: number, status: string) => () => {
    built.push(`${tenantId}:${status}`);
    return db.selectFrom('tickets').select('id').where('tenant_id', '=', tenantId).where('status', '=', status);
  };
  return { built, build };
}

describe('compiledStatements', () => {
  it('builds a statement once per key and hands out the same compiled statement after', () => {
    const statements = compiledStatements<{ id: number }>();
    const { built, build } = counted();
    const first = statements('1:OPEN', build(1, 'OPEN'));
    const again = statements('1:OPEN', build(1, 'OPEN'));
    expect(again).toBe(first);
    expect(built).toEqual(['1:OPEN']);
    expect(first.sql).toBe('select "id" from "tickets" where "tenant_id" = $1 and "status" = $2');
    expect(first.parameters).toEqual([1, 'OPEN']);
  });

  it('keeps each set of inputs apart', () => {
    const statements = compiledStatements<{ id: number }>();
    const { built, build } = counted();
    const open = statements('1:OPEN', build(1, 'OPEN'));
    const otherTenant = statements('2:OPEN', build(2, 'OPEN'));
    expect(otherTenant.parameters).toEqual([2, 'OPEN']);
    expect(open.parameters).toEqual([1, 'OPEN']);
    expect(built).toEqual(['1:OPEN', '2:OPEN']);
  });

  it('lets the oldest go once it holds its maximum, and builds it again when asked', () => {
    const statements = compiledStatements<{ id: number }>(2);
    const { built, build } = counted();
    statements('a', build(1, 'A'));
    statements('b', build(1, 'B'));
    statements('c', build(1, 'C'));
    statements('b', build(1, 'B'));
    statements('a', build(1, 'A'));
    expect(built).toEqual(['1:A', '1:B', '1:C', '1:A']);
  });

  it('compiles without keeping when the key is null', () => {
    const statements = compiledStatements<{ id: number }>();
    const { built, build } = counted();
    const first = statements(null, build(1, 'OPEN'));
    const second = statements(null, build(1, 'OPEN'));
    expect(second).not.toBe(first);
    expect(second.sql).toBe(first.sql);
    expect(built).toEqual(['1:OPEN', '1:OPEN']);
  });
});
