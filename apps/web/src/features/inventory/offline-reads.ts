import { INVENTORY_PERMISSIONS } from '@sitewatch/contracts/inventory';
import { api } from '../../lib/api.ts';

/**
 * The stock of the stores a user sees, read while online with the rest of the day's data so that the phone keeps
 * it (the http client keeps a copy of each answer, and a copy answering offline shows how old it is): the stores,
 * the stock screen's first page over all of them and for each store, and the items the issue dialog lists. The
 * queries are the screens' own, so the kept copies are the ones those screens ask for.
 */
const PAGE = { page: 1, limit: 20 };
const MOST_STORES = 10;
const EVERY_MS = 15 * 60_000;
let readAt = 0;

export async function keepStockForOffline(now = Date.now()) {
  if (now - readAt < EVERY_MS) return;
  readAt = now;
  try {
    const stores = await api.get('/iotapp/inventory/stores/', { query: { limit: 100 }, toast: false });
    await api.get('/iotapp/inventory/stock/', { query: PAGE, toast: false });
    for (const store of stores.contents.slice(0, MOST_STORES)) {
      await api.get('/iotapp/inventory/stock/', { query: { ...PAGE, storeId: store.id }, toast: false });
    }
    await api.get('/iotapp/inventory/items/', { query: { search: undefined, limit: 20 }, toast: false });
  } catch {
    readAt = 0;
  }
}

/** The same, for a user who may see the inventory. */
export function keepStockForOfflineIfAllowed(permissions: ReadonlySet<string>) {
  return permissions.has(INVENTORY_PERMISSIONS.view) ? keepStockForOffline() : undefined;
}
