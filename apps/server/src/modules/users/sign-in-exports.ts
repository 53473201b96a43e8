import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import type { ExportSource } from '../downloads/registry.ts';
import { isUserAdmin } from './exports.ts';

const params = z
  .strictObject({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    outcome: z.enum(['success', 'failure', 'denied']).optional(),
  })
  .refine((p) => !p.from || !p.to || new Date(p.from) < new Date(p.to), {
    message: 'Please choose an end date greater than the start date',
    path: ['to'],
  });
type Params = z.infer<typeof params>;

function filtered(db: Db, tenantId: number, p: Params) {
  let query = db
    .selectFrom('audit_log')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('action', 'like', 'login.%'), eb('action', '=', 'logout'), eb('action', 'like', 'totp.%')]));
  if (p.from) query = query.where('created_at', '>=', new Date(p.from));
  if (p.to) query = query.where('created_at', '<', new Date(p.to));
  if (p.outcome) query = query.where('outcome', '=', p.outcome);
  return query;
}

/** The sign-in audit trail of the tenant (successes, failures and denials), newest first, for administrators. */
export function signInsSource(db: Db): ExportSource<Params> {
  return {
    kind: 'sign-ins',
    label: 'Sign-in log',
    params,
    columns: [
      { key: 'created_at', header: 'Time', type: 'datetime' },
      { key: 'username', header: 'Username', type: 'text' },
      { key: 'action', header: 'Action', type: 'text' },
      { key: 'outcome', header: 'Outcome', type: 'text' },
      { key: 'reason', header: 'Reason', type: 'text' },
      { key: 'ip', header: 'IP Address', type: 'text' },
      { key: 'user_agent', header: 'User Agent', type: 'text' },
    ],
    allowed: isUserAdmin,
    async count(scope, p) {
      const row = await filtered(db, scope.tenantId, p)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async fetchPage(scope, p, cursor, limit) {
      // Keyset on the id, newest first: ids grow with time, and the primary key serves the order.
      let query = filtered(db, scope.tenantId, p).select([
        'id',
        'created_at',
        'username',
        'action',
        'outcome',
        'ip',
        'user_agent',
        'detail',
      ]);
      if (cursor) query = query.where('id', '<', Number(cursor));
      const rows = await query.orderBy('id', 'desc').limit(limit).execute();
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => ({ ...r, reason: typeof r.detail?.reason === 'string' ? r.detail.reason : '' })),
        nextCursor: rows.length === limit && last ? String(last.id) : null,
      };
    },
  };
}
