import { describe, expect, it, vi } from 'vitest';
import { buildUrl, type Query } from '../../lib/http-client.ts';
import { isKeptRead } from '../../lib/offline/read-cache.ts';

const read: string[] = [];
vi.mock('../../lib/api.ts', () => ({
  api: {
    get: async (path: string, options: { query?: Query }) => {
      read.push(buildUrl(path, options.query));
      return path === '/iotapp/inventory/stores/' ? { contents: [{ id: 3 }, { id: 8 }] } : { contents: [] };
    },
  },
}));

const { keepStockForOffline } = await import('./offline-reads.ts');

describe('keepStockForOffline', () => {
  it('reads the stock screen’s own pages, over all stores and for each, all of them kept for offline use', async () => {
    await keepStockForOffline(1_000_000);
    expect(read).toEqual([
      '/iotapp/inventory/stores/?limit=100',
      '/iotapp/inventory/stock/?page=1&limit=20',
      '/iotapp/inventory/stock/?page=1&limit=20&storeId=3',
      '/iotapp/inventory/stock/?page=1&limit=20&storeId=8',
      '/iotapp/inventory/items/?limit=20',
    ]);
    expect(read.every(isKeptRead)).toBe(true);
    // read again only after a while
    await keepStockForOffline(1_000_000 + 60_000);
    expect(read).toHaveLength(5);
  });
});
