import type { Db } from '../../platform/db.ts';
import type { TicketVendors } from '../helpdesk/index.ts';
import * as repo from './repository.ts';

/**
 * What the helpdesk asks of the vendors' tables (a vendor to assign, names on ticket lists, whom to tell). Built
 * before the helpdesk, which the vendors module itself reads issue types and tickets from.
 */
export function createVendorDirectory(db: Db): TicketVendors {
  return {
    async vendorFor(tenantId, vendorId, siteId) {
      const row = await repo.findVendor(db, tenantId, vendorId);
      if (!row) return null;
      const servesSite = siteId === null ? true : await repo.servesSite(db, tenantId, vendorId, siteId);
      return { id: row.id, name: row.company, active: row.active, servesSite };
    },
    async names(tenantId, vendorIds) {
      const rows = await repo.namesOf(db, tenantId, vendorIds);
      return new Map(rows.map((r) => [r.id, r.company]));
    },
    vendorOfUser: (tenantId, userId) => repo.vendorOfUser(db, tenantId, userId),
    async userIds(tenantId, vendorId) {
      return (await repo.userIdsOf(db, tenantId, [vendorId])).map((r) => r.user_id);
    },
  };
}
