import {
  EQUIPMENT_MESSAGES,
  EQUIPMENT_PERMISSIONS,
  type Equipment,
  type EquipmentHistory,
  type EquipmentInput,
  type EquipmentListQuery,
  type EquipmentOverview,
  type TicketListQuery,
  ticketListQuerySchema,
  WARRANTY_SOON_DAYS,
} from '@sitewatch/contracts';
import type { AuditOrigin } from '../../platform/audit.ts';
import { changedFields, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { viewerOf } from '../sites/scope.ts';
import * as repo from './repository.ts';

type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

/** What equipment asks of the helpdesk: the caller's view of tickets (maintenance history). */
export interface EquipmentTickets {
  list(
    actor: Actor,
    query: TicketListQuery,
  ): Promise<{
    contents: Array<{
      id: number;
      ticketId: string;
      title: string;
      description: string;
      status: string;
      priority: string;
      createdAt: string;
      resolvedDate: string | null;
    }>;
  }>;
}

export interface EquipmentDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  directory: Pick<SiteDirectory, 'asset' | 'device' | 'visibleAssetIds'>;
  tickets: EquipmentTickets;
}

const HISTORY_LIMIT = 50;
/** The latest tickets of the site read for ones that name the serial number. */
const SITE_TICKETS_SCANNED = 500;
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const day = (d: Date) => d.toISOString().slice(0, 10);

export function createEquipmentService(deps: EquipmentDeps) {
  const { db } = deps;

  const need = (actor: Actor, codename: string) => {
    if (!actor.permissions.has(codename)) throw forbidden();
  };
  const dates = () => {
    const now = deps.clock.now();
    return { today: day(now), soon: day(new Date(now.getTime() + WARRANTY_SOON_DAYS * 86_400_000)) };
  };

  async function sees(actor: Actor, assetId: number) {
    const visible = await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    return visible === 'all' || visible.includes(assetId);
  }

  async function present(tenantId: number, rows: repo.EquipmentRow[]): Promise<Equipment[]> {
    const deviceIds = [...new Set(rows.map((r) => r.device_id).filter((id): id is number => id !== null))];
    const devices = new Map(
      (await Promise.all(deviceIds.map((id) => deps.directory.device(tenantId, id)))).filter((d) => d !== null).map((d) => [d.id, d.label]),
    );
    return rows.map((r) => ({
      id: r.id,
      assetId: r.asset_id,
      siteName: r.site_name ?? `Site ${r.asset_id}`,
      name: r.name,
      category: r.category,
      make: r.make,
      model: r.model,
      serial: r.serial,
      installDate: r.install_date,
      warrantyUntil: r.warranty_until,
      deviceId: r.device_id,
      deviceLabel: r.device_id !== null ? (devices.get(r.device_id) ?? null) : null,
      notes: r.notes,
      status: r.status as Equipment['status'],
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
    }));
  }

  /** An equipment the caller may see, or 404 (another tenant's or another site's is not revealed). */
  async function visible(actor: Actor, id: number) {
    const row = await repo.findEquipment(db, actor.tenantId, id);
    if (!row || !(await sees(actor, row.asset_id))) throw notFound();
    return row;
  }

  /** The site must be one the caller sees; a linked device must exist and stand at that same site. */
  async function checkPlace(actor: Actor, input: EquipmentInput): Promise<string> {
    const site = await deps.directory.asset(actor.tenantId, input.assetId);
    if (!site || !(await sees(actor, input.assetId))) throw badRequest(EQUIPMENT_MESSAGES.siteUnknown);
    if (input.deviceId !== null) {
      const device = await deps.directory.device(actor.tenantId, input.deviceId);
      if (!device) throw badRequest(EQUIPMENT_MESSAGES.deviceUnknown);
      if (device.assetId !== input.assetId) throw badRequest(EQUIPMENT_MESSAGES.deviceElsewhere);
    }
    return site.name;
  }

  const valuesOf = (input: EquipmentInput): repo.EquipmentValues => ({
    asset_id: input.assetId,
    name: input.name,
    category: input.category,
    make: input.make,
    model: input.model,
    serial: input.serial,
    install_date: input.installDate,
    warranty_until: input.warrantyUntil,
    device_id: input.deviceId,
    notes: input.notes,
    status: input.status,
  });
  const logged = (e: Omit<Equipment, 'id' | 'deviceLabel' | 'createdAt' | 'updatedAt'>) => ({
    site: e.siteName,
    name: e.name,
    category: e.category,
    make: e.make,
    model: e.model,
    serial: e.serial,
    installDate: e.installDate,
    warrantyUntil: e.warrantyUntil,
    deviceId: e.deviceId,
    notes: e.notes,
    status: e.status,
  });

  function announce(tenantId: number, equipmentId: number, assetId: number) {
    deps.events.emit({ type: 'equipment.changed', tenantId, payload: { equipmentId, assetId } });
  }

  /** Read after the commit: names come from other modules' ports, which do not see an open transaction. */
  async function reload(tenantId: number, id: number) {
    const row = await repo.findEquipment(db, tenantId, id);
    if (!row) throw notFound();
    return (await present(tenantId, [row]))[0] as Equipment;
  }

  return {
    async list(actor: Actor, q: EquipmentListQuery) {
      need(actor, EQUIPMENT_PERMISSIONS.view);
      const viewer = viewerOf(actor as AuthContext);
      const d = dates();
      const [rows, totalCount] = await Promise.all([
        repo.listEquipment(db, viewer, q, d, { offset: (q.page - 1) * q.limit, limit: q.limit }),
        repo.countEquipment(db, viewer, q, d),
      ]);
      return { contents: await present(actor.tenantId, rows), totalCount };
    },

    async get(actor: Actor, id: number) {
      need(actor, EQUIPMENT_PERMISSIONS.view);
      return (await present(actor.tenantId, [await visible(actor, id)]))[0] as Equipment;
    },

    async overview(actor: Actor): Promise<EquipmentOverview> {
      need(actor, EQUIPMENT_PERMISSIONS.view);
      const rows = await repo.overview(db, viewerOf(actor as AuthContext), dates());
      const contents = rows.map((r) => ({
        assetId: r.asset_id,
        siteName: r.site_name ?? `Site ${r.asset_id}`,
        total: Number(r.total),
        active: Number(r.active),
        underMaintenance: Number(r.under_maintenance),
        retired: Number(r.retired),
        linked: Number(r.linked),
        warrantyExpiringSoon: Number(r.expiring),
        warrantyExpired: Number(r.expired),
      }));
      return {
        contents,
        totals: {
          total: contents.reduce((a, c) => a + c.total, 0),
          warrantyExpiringSoon: contents.reduce((a, c) => a + c.warrantyExpiringSoon, 0),
          warrantyExpired: contents.reduce((a, c) => a + c.warrantyExpired, 0),
          sites: contents.length,
        },
      };
    },

    async create(actor: Actor, input: EquipmentInput, origin: AuditOrigin) {
      need(actor, EQUIPMENT_PERMISSIONS.add);
      const siteName = await checkPlace(actor, input);
      try {
        const id = await db.transaction().execute(async (trx) => {
          const { id } = await repo.insertEquipment(trx, actor.tenantId, valuesOf(input), actor.userId, deps.clock.now());
          await writeActivity(trx, origin, {
            action: 'equipment.create',
            object: { type: 'equipment', id },
            after: logged({ ...input, siteName }),
          });
          return id;
        });
        const created = await reload(actor.tenantId, id);
        announce(actor.tenantId, created.id, created.assetId);
        return created;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EQUIPMENT_MESSAGES.serialTaken, 'serial_taken');
        throw error;
      }
    },

    async update(actor: Actor, id: number, input: EquipmentInput, origin: AuditOrigin) {
      need(actor, EQUIPMENT_PERMISSIONS.change);
      const before = (await present(actor.tenantId, [await visible(actor, id)]))[0] as Equipment;
      const siteName = await checkPlace(actor, input);
      try {
        await db.transaction().execute(async (trx) => {
          const result = await repo.updateEquipment(trx, actor.tenantId, id, valuesOf(input), deps.clock.now());
          if (Number(result.numUpdatedRows) === 0) throw notFound();
          await writeActivity(trx, origin, {
            action: 'equipment.update',
            object: { type: 'equipment', id },
            ...changedFields(logged(before), logged({ ...input, siteName })),
          });
        });
        const after = await reload(actor.tenantId, id);
        announce(actor.tenantId, id, after.assetId);
        if (before.assetId !== after.assetId) announce(actor.tenantId, id, before.assetId);
        return after;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EQUIPMENT_MESSAGES.serialTaken, 'serial_taken');
        throw error;
      }
    },

    async remove(actor: Actor, id: number, origin: AuditOrigin) {
      need(actor, EQUIPMENT_PERMISSIONS.delete);
      const before = (await present(actor.tenantId, [await visible(actor, id)]))[0] as Equipment;
      await db.transaction().execute(async (trx) => {
        const result = await repo.deleteEquipment(trx, actor.tenantId, id);
        if (Number(result.numDeletedRows) === 0) throw notFound();
        await writeActivity(trx, origin, { action: 'equipment.delete', object: { type: 'equipment', id }, before: logged(before) });
      });
      announce(actor.tenantId, id, before.assetId);
    },

    /**
     * Maintenance history: the tickets the caller may see that were raised on the linked device, and the latest
     * tickets of its site whose summary or description names the equipment's serial number, newest first.
     */
    async history(actor: Actor, id: number): Promise<EquipmentHistory> {
      need(actor, EQUIPMENT_PERMISSIONS.view);
      const row = await visible(actor, id);
      if (!actor.permissions.has('view_ticket')) return { contents: [] };
      const base = { limit: String(HISTORY_LIMIT), orderBy: '-createdAt' };
      const [byDevice, bySerial] = await Promise.all([
        row.device_id !== null
          ? deps.tickets.list(actor, ticketListQuerySchema.parse({ ...base, entityId: String(row.device_id) }))
          : Promise.resolve({ contents: [] }),
        deps.tickets
          .list(
            actor,
            ticketListQuerySchema.parse({ limit: String(SITE_TICKETS_SCANNED), orderBy: '-createdAt', locationId: String(row.asset_id) }),
          )
          .then((found) => {
            const serial = row.serial.toLowerCase();
            return { contents: found.contents.filter((t) => `${t.title}\n${t.description}`.toLowerCase().includes(serial)) };
          }),
      ]);
      const seen = new Set<number>();
      const contents: EquipmentHistory['contents'] = [];
      for (const [reason, list] of [
        ['device', byDevice.contents],
        ['serial', bySerial.contents],
      ] as const) {
        for (const t of list) {
          if (seen.has(t.id)) continue;
          seen.add(t.id);
          contents.push({
            id: t.id,
            ticketId: t.ticketId,
            title: t.title,
            status: t.status,
            priority: t.priority,
            createdAt: t.createdAt,
            resolvedDate: t.resolvedDate,
            reason,
          });
        }
      }
      contents.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return { contents: contents.slice(0, HISTORY_LIMIT) };
    },
  };
}
export type EquipmentService = ReturnType<typeof createEquipmentService>;
