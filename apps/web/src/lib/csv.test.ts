import { describe, expect, it } from 'vitest';
import { fetchAll, toCsv } from './csv.ts';

describe('csv', () => {
  it('writes a header line and a line per row', () => {
    const csv = toCsv(
      [{ n: 'Pune', t: 3 }],
      [
        { header: 'Name', value: (r) => r.n },
        { header: 'Total', value: (r) => r.t },
      ],
    );
    expect(csv).toBe('Name,Total\r\nPune,3\r\n');
  });
  it('fetches pages until the total or the maximum', async () => {
    const all = Array.from({ length: 25 }, (_, i) => i);
    const pages: number[] = [];
    const rows = await fetchAll(
      async (page, limit) => {
        pages.push(page);
        return { contents: all.slice((page - 1) * limit, page * limit), totalCount: all.length };
      },
      { pageSize: 10 },
    );
    expect(rows).toEqual(all);
    expect(pages).toEqual([1, 2, 3]);
    expect(
      await fetchAll(async (page, limit) => ({ contents: all.slice((page - 1) * limit, page * limit), totalCount: 25 }), {
        pageSize: 10,
        max: 12,
      }),
    ).toHaveLength(12);
  });
});
