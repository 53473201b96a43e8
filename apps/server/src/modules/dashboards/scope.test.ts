import { rlsConditionSchema } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';
import { allowed, type DataScope, groupConditions, sitesWithin } from './scope.ts';

const scope = (sites: number[] | 'all'): DataScope => ({
  tenantId: 1,
  sites,
  sitesConditioned: false,
  actor: { userId: 1, tenantId: 1, roles: [], permissions: new Set() },
  filters: new Map(),
  viaLink: false,
  permissions: new Set(),
});

describe('row-level conditions', () => {
  it('only ever narrow: in/eq intersect, not_in removes', () => {
    const grouped = groupConditions([
      { dataset: 'tickets', column: 'status', operator: 'in', values: ['OPEN', 'CLOSED', 'RESOLVED'] },
      { dataset: 'tickets', column: 'status', operator: 'eq', values: ['CLOSED'] },
      { dataset: 'tickets', column: 'status', operator: 'not_in', values: ['RESOLVED'] },
    ]);
    const f = grouped.get('tickets.status');
    expect(f?.only && [...f.only]).toEqual(['CLOSED']);
    expect(f && [...f.not]).toEqual(['RESOLVED']);
    // a widget asking for more than the condition allows gets the intersection, never more
    expect(allowed(f, ['OPEN', 'CLOSED'])).toEqual({ only: ['CLOSED'], not: ['RESOLVED'] });
    expect(allowed(f, [])).toEqual({ only: ['CLOSED'], not: ['RESOLVED'] });
    expect(allowed(undefined, [])).toEqual({ only: null, not: [] });
  });

  it("keeps a widget's sites within the scope", () => {
    expect(sitesWithin(scope([1, 2]), [])).toEqual([1, 2]);
    expect(sitesWithin(scope([1, 2]), [2, 3])).toEqual([2]);
    expect(sitesWithin(scope('all'), [3])).toEqual([3]);
    expect(sitesWithin(scope('all'), [])).toBe('all');
  });

  it('checks conditions against the catalogue and its value types', () => {
    const ok = (c: unknown) => rlsConditionSchema.safeParse(c).success;
    expect(ok({ dataset: 'sites', column: 'customerId', operator: 'in', values: [3] })).toBe(true);
    expect(ok({ dataset: 'sites', column: 'customerId', operator: 'in', values: ['3'] })).toBe(false);
    expect(ok({ dataset: 'sites', column: 'tenant_id', operator: 'in', values: [1] })).toBe(false);
    expect(ok({ dataset: 'sites', column: 'constructor', operator: 'in', values: [1] })).toBe(false);
    expect(ok({ dataset: 'devices', column: 'type', operator: 'in', values: ['GENERATOR'] })).toBe(true);
    expect(ok({ dataset: 'devices', column: 'type', operator: 'in', values: ["x' or '1'='1"] })).toBe(false);
    expect(ok({ dataset: 'tickets', column: 'status', operator: 'eq', values: ['OPEN', 'CLOSED'] })).toBe(false);
    expect(ok({ dataset: 'users', column: 'id', operator: 'in', values: [1] })).toBe(false);
    expect(ok({ dataset: 'sites', column: 'id', operator: 'like', values: [1] })).toBe(false);
  });
});
