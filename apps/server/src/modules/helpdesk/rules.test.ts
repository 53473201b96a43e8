import { canTransition, csvCell, TICKET_STATUSES, TICKET_TRANSITIONS } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';
import { sniffContentType } from '../../platform/sniff.ts';
import { allowedStatuses } from './access.ts';
import { coerce, columnOf, parseCsv } from './csv.ts';
import { matchPolicy, mergeChecklist, stopReached } from './ticket-rules.ts';

describe('transitions', () => {
  it('leave every status somewhere and never jump from work in progress to closed', () => {
    for (const s of TICKET_STATUSES) expect(TICKET_TRANSITIONS[s].length).toBeGreaterThan(0);
    expect(canTransition('INPROGRESS', 'CLOSED')).toBe(false);
    expect(canTransition('RESOLVED', 'INPROGRESS')).toBe(false);
    expect(canTransition('CLOSED', 'RE-OPENED')).toBe(true);
    expect(canTransition('OPEN', 'OPEN')).toBe(true);
  });

  it('give the owner only closing and re-opening, and the assignee the rest', () => {
    const actor = { userId: 5, tenantId: 1, roles: ['customer'], permissions: new Set(['view_ticket']) };
    const ticket = { type: 'TICKET', status: 'RESOLVED', created_by: 5, assigned_to: 9, watchers: [], location_id: null };
    expect(allowedStatuses(actor, ticket)).toEqual(['CLOSED', 'RE-OPENED']);
    expect(allowedStatuses(actor, { ...ticket, status: 'INPROGRESS' })).toEqual([]);
    expect(allowedStatuses({ ...actor, userId: 9 }, { ...ticket, status: 'INPROGRESS' })).toEqual([
      'OPEN',
      'INREVIEW',
      'RESOLVED',
      'ESCALATE',
      'FLAGGED',
    ]);
  });
});

describe('escalation rules', () => {
  const policy = (id: number, p: Partial<{ ticket_types: string[]; priorities: string[]; events: string[]; active: boolean }>) => ({
    id,
    ticket_types: [],
    priorities: [],
    events: [],
    active: true,
    ...p,
  });
  it('pick the most specific active policy that matches every criterion it names', () => {
    const policies = [
      policy(1, {}),
      policy(2, { priorities: ['CRITICAL'] }),
      policy(3, { priorities: ['CRITICAL'], events: ['power failure'] }),
      policy(4, { ticket_types: ['AlarmTicket'], priorities: ['CRITICAL'], events: ['Power Failure'], active: false }),
    ];
    expect(matchPolicy(policies, { type: 'TICKET', priority: 'CRITICAL', event: 'Power Failure' })?.id).toBe(3);
    expect(matchPolicy(policies, { type: 'TICKET', priority: 'CRITICAL', event: 'HVAC' })?.id).toBe(2);
    expect(matchPolicy(policies, { type: 'TICKET', priority: 'LOW', event: 'HVAC' })?.id).toBe(1);
    expect(matchPolicy([policy(5, { priorities: ['MAJOR'] })], { type: 'TICKET', priority: 'LOW', event: 'x' })).toBeNull();
  });
  it('stop a response policy at INPROGRESS and a resolution policy at RESOLVED', () => {
    expect(stopReached('INPROGRESS', 'INPROGRESS')).toBe(true);
    expect(stopReached('RESOLVED', 'INPROGRESS')).toBe(false);
    expect(stopReached('RESOLVED', 'CLOSED')).toBe(true);
  });
});

describe('checklists', () => {
  it('stamp who ticked an item and keep the stamps of unchanged ones', () => {
    const before = [{ id: 'a', text: 'A', done: true, doneBy: 3, doneAt: '2026-01-01T00:00:00Z' }];
    const after = mergeChecklist(
      before,
      [
        { id: 'a', text: 'A', done: true, doneBy: null, doneAt: null },
        { id: 'b', text: 'B', done: true, doneBy: 99, doneAt: 'forged' },
        { id: 'b', text: 'dup', done: false, doneBy: null, doneAt: null },
      ],
      7,
      '2026-02-02T00:00:00Z',
    );
    expect(after).toEqual([
      { id: 'a', text: 'A', done: true, doneBy: 3, doneAt: '2026-01-01T00:00:00Z' },
      { id: 'b', text: 'B', done: true, doneBy: 7, doneAt: '2026-02-02T00:00:00Z' },
    ]);
  });
});

describe('CSV', () => {
  it('reads quotes, doubled quotes, CRLF and a BOM', () => {
    const { rows } = parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n\r\nlast,\n', 10);
    expect(rows).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['last', ''],
    ]);
    expect(parseCsv('h\n1\n2\n3\n', 2).truncated).toBe(true);
  });
  it('coerces by declared type: trimmed text, numbers, JSON (invalid JSON is null)', () => {
    expect(coerce('  hello ', 'text')).toEqual({ value: 'hello' });
    expect(coerce(' 42 ', 'number')).toEqual({ value: 42 });
    expect(coerce('4x', 'number')).toEqual({ value: null, error: 'Input Value is not a Number' });
    expect(coerce('{"a":1}', 'json')).toEqual({ value: { a: 1 } });
    expect(coerce('{oops', 'json')).toEqual({ value: null });
    expect(coerce('', 'number')).toEqual({ value: null });
  });
  it('maps field names and table headers to columns, and neutralises formulas on the way out', () => {
    expect(columnOf('Summary')).toBe('title');
    expect(columnOf('Issue Sub Type')).toBe('subEvent');
    expect(columnOf('locationid')).toBe('locationId');
    expect(columnOf('colour')).toBeNull();
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('a"b')).toBe('"a""b"');
  });
});

describe('content sniffing', () => {
  it('trusts the bytes, not the name', () => {
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42')]))).toBe('video/mp4');
    expect(sniffContentType(Buffer.from('plain notes, ünïcode\n'))).toBe('text/plain');
    expect(sniffContentType(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]))).toBeNull();
    expect(sniffContentType(Buffer.from([0xc3, 0x28]))).toBeNull();
  });
});
