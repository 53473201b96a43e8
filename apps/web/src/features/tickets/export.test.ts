import type { TicketSummary } from '@sitewatch/contracts/helpdesk/tickets';
import { describe, expect, it } from 'vitest';
import { csvCell, ExportCancelled, ExportFailed, type ExportPhase, exportTickets, toCsv } from './export.ts';
import { exceedsMonths, groupByDay, presetRange, viewPath } from './model.ts';

const ticket = (n: number, extra: Partial<TicketSummary> = {}): TicketSummary =>
  ({
    id: n,
    ticketId: `TKT-${n}`,
    type: 'TICKET',
    status: 'OPEN',
    priority: 'MINOR',
    event: 'Power Failure',
    subEvent: null,
    title: `Ticket ${n}`,
    description: '',
    assignedTo: null,
    assignee: null,
    createdBy: null,
    onHold: false,
    acknowledged: false,
    locationId: null,
    entityId: null,
    entityProfileType: null,
    eventDate: '2026-01-01T00:00:00.000Z',
    dueDate: null,
    resolvedDate: null,
    assignedDate: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    city: null,
    assetType: null,
    deviceName: null,
    additionalInformation: {},
    overdue: false,
    escalationLevel: 0,
    attachmentCount: 0,
    thumbnail: null,
    rating: null,
    version: 1,
    ...extra,
  }) as TicketSummary;

function harness(total: number, failures: Record<number, number> = {}) {
  const calls: Array<{ page: number; limit: number }> = [];
  const sleeps: number[] = [];
  const phases: ExportPhase[] = [];
  const limits: number[] = [];
  const failed: Record<number, number> = {};
  return {
    calls,
    sleeps,
    phases,
    limits,
    deps: {
      async fetchPage(page: number, limit: number) {
        calls.push({ page, limit });
        failed[page] = (failed[page] ?? 0) + 1;
        if ((failures[page] ?? 0) >= failed[page]) throw new Error('network');
        const start = (page - 1) * limit;
        const count = Math.max(0, Math.min(limit, total - start));
        return { contents: Array.from({ length: count }, (_, i) => ticket(start + i + 1)), totalCount: total };
      },
      async sleep(ms: number) {
        sleeps.push(ms);
      },
      onProgress: (p: { phase: ExportPhase }) => phases.push(p.phase),
      onLimit: (max: number) => limits.push(max),
    },
  };
}

describe('ticket CSV export', () => {
  it('fetches 100-row pages 500 ms apart and builds the CSV', async () => {
    const h = harness(250);
    const csv = await exportTickets(h.deps, { columns: ['ticketId', 'title'] }, new AbortController().signal);
    expect(h.calls).toEqual([
      { page: 1, limit: 100 },
      { page: 2, limit: 100 },
      { page: 3, limit: 100 },
    ]);
    expect(h.sleeps).toEqual([500, 500]);
    expect(csv?.split('\r\n')).toHaveLength(252);
    expect(csv?.startsWith('Ticket ID,Summary\r\nTKT-1,Ticket 1\r\n')).toBe(true);
    expect(h.phases).toEqual(['fetching', 'fetching', 'fetching', 'fetching', 'processing', 'done']);
  });

  it('stops at 10,000 rows and says so', async () => {
    const h = harness(12_345);
    const csv = await exportTickets(h.deps, { columns: ['ticketId'] }, new AbortController().signal);
    expect(h.calls).toHaveLength(100);
    expect(h.limits).toEqual([10_000]);
    expect(csv?.trim().split('\r\n')).toHaveLength(10_001);
  });

  it('retries a failing page up to 3 times, 2 s apart, then gives up with the spec error', async () => {
    const recovering = harness(150, { 2: 3 });
    expect(await exportTickets(recovering.deps, { columns: ['ticketId'] }, new AbortController().signal)).not.toBeNull();
    expect(recovering.sleeps).toEqual([500, 2000, 2000, 2000]);
    const broken = harness(150, { 2: 4 });
    await expect(exportTickets(broken.deps, { columns: ['ticketId'] }, new AbortController().signal)).rejects.toThrow(
      new ExportFailed().message,
    );
    expect(new ExportFailed().message).toBe('Error generating CSV, Please try agin later!');
  });

  it('reports an empty result and can be cancelled', async () => {
    const empty = harness(0);
    expect(await exportTickets(empty.deps, { columns: ['ticketId'] }, new AbortController().signal)).toBeNull();
    expect(empty.phases.at(-1)).toBe('empty');
    const controller = new AbortController();
    const h = harness(500);
    const deps = { ...h.deps, sleep: async () => controller.abort() };
    await expect(exportTickets(deps, { columns: ['ticketId'] }, controller.signal)).rejects.toBeInstanceOf(ExportCancelled);
  });

  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(toCsv([ticket(1, { title: '@cmd' })], ['title'])).toBe("Summary\r\n'@cmd\r\n");
  });
});

describe('ticket list helpers', () => {
  it('groups a page by day with Today and Yesterday', () => {
    const now = new Date('2026-03-10T12:00:00');
    const groups = groupByDay(
      [
        { createdAt: new Date('2026-03-10T09:00:00').toISOString() },
        { createdAt: new Date('2026-03-10T08:00:00').toISOString() },
        { createdAt: new Date('2026-03-09T23:00:00').toISOString() },
        { createdAt: new Date('2026-03-01T10:00:00').toISOString() },
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.rows.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 1],
      [expect.stringContaining('2026'), 1],
    ]);
  });

  it("heads each day with its count over the whole list when the server's day counts are known", () => {
    const now = new Date('2026-03-10T12:00:00');
    const rows = [
      { createdAt: new Date('2026-03-10T09:00:00').toISOString() },
      { createdAt: new Date('2026-03-09T23:00:00').toISOString() },
    ];
    const counts = new Map([
      ['2026-03-10', 57],
      ['2026-03-09', 12],
    ]);
    expect(groupByDay(rows, now, counts).map((g) => [g.key, g.label, g.rows.length, g.count])).toEqual([
      ['2026-03-10', 'Today', 1, 57],
      ['2026-03-09', 'Yesterday', 1, 12],
    ]);
    expect(groupByDay(rows, now).map((g) => g.count)).toEqual([1, 1]);
  });

  it('starts with the last 24 hours and allows at most 6 months', () => {
    const range = presetRange('last24h', Date.parse('2026-03-10T12:00:00Z'));
    expect(Date.parse(range.to) - Date.parse(range.from)).toBe(24 * 3600_000);
    expect(exceedsMonths('2026-01-01T00:00:00Z', '2026-07-01T00:00:00Z')).toBe(false);
    expect(exceedsMonths('2026-01-01T00:00:00Z', '2026-07-02T00:00:00Z')).toBe(true);
  });

  it('links a ticket the way SPEC 2.2 writes it', () => {
    expect(viewPath('TICKET', 12, 40)).toBe('/escalation-tickets/view/?ticketId=12&historyId=40');
    expect(viewPath('all', 12)).toBe('/tickets/all/view/?ticketId=12');
    expect(viewPath('WORKORDERTICKET', 7)).toBe('/work-orders/7/view');
  });
});
