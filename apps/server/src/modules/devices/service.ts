import {
  ALLOWED_PARENT_TYPES,
  type AlarmActionInput,
  type CompactListQuery,
  type CustomerSettings,
  DEVICE_EVENT_TYPES,
  DEVICE_MESSAGES,
  DEVICE_TYPE_LABELS,
  type Device,
  type DeviceAccessToken,
  type DeviceAlarmActionEvent,
  type DeviceInput,
  type DeviceListQuery,
  type DeviceType,
  deviceMetadataSchema,
  type deviceUpdateSchema,
  NO_SPACES_LABEL,
  type ProvisionRequest,
  type ProvisionResponse,
  publicMetadata,
  withoutUrlCredentials,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, changedFields, masked, writeActivity } from '../../platform/audit.ts';
import { randomToken, safeEqual } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import { iso, isoOf, type Viewer } from '../sites/scope.ts';
import type { SiteService } from '../sites/service.ts';
import { type UserDirectory, usersById } from '../users/directory.ts';
import * as repo from './repository.ts';

const SETTING_OF: Record<AlarmActionInput['telemetryKey'], keyof CustomerSettings['deviceAlarmActions']> = {
  maintenance: 'maintenanceMode',
  muteDevice: 'muteMode',
  enableDevice: 'enableDevice',
};

const SUBJECT: Record<AlarmActionInput['telemetryKey'], string> = {
  maintenance: 'Maintenance mode',
  muteDevice: 'Mute Device mode',
  enableDevice: 'Device',
};

const ACTION_TITLE: Record<AlarmActionInput['telemetryKey'], (value: boolean) => string> = {
  maintenance: (v) => `Maintenance mode ${v ? 'enabled' : 'disabled'}`,
  muteDevice: (v) => `Device ${v ? 'muted' : 'unmuted'}`,
  enableDevice: (v) => `Device ${v ? 'enabled' : 'disabled'}`,
};

/** A device as every answer shows it: its secrets and its access token are write-only. */
export function toDevice(row: repo.DeviceRow): Device {
  const parsed = deviceMetadataSchema.safeParse(row.metadata);
  const { metadata, secrets } = publicMetadata(
    parsed.success ? parsed.data : { muteDevice: false, maintenance: false, enableDevice: true },
  );
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    type: row.type as DeviceType,
    status: row.status as Device['status'],
    alarmStatus: row.alarm_status,
    alarmUpdatedAt: iso(row.alarm_updated_at),
    lastActivityAt: iso(row.last_activity_at),
    assetId: row.asset_id,
    asset: row.asset_id !== null && row.asset_name !== null ? { id: row.asset_id, name: row.asset_name } : null,
    parentId: row.parent_id,
    parent:
      row.parent_id !== null && row.parent_name !== null
        ? { id: row.parent_id, name: row.parent_name, label: row.parent_label ?? '', type: row.parent_type ?? '' }
        : null,
    isParent: row.is_parent,
    childDevicesCount: row.child_count,
    templateId: row.template_id,
    discovered: row.discovered,
    metadata,
    secrets,
    state: row.state as Device['state'],
    stateUpdatedAt: iso(row.state_updated_at),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

const toCompact = (row: repo.CompactRow, q: Pick<CompactListQuery, 'includeSite' | 'checkChildExist' | 'groupBy'>) => ({
  id: row.id,
  name: row.name,
  label: row.label,
  type: row.type as DeviceType,
  status: row.status as Device['status'],
  alarmStatus: row.alarm_status,
  alarmUpdatedAt: iso(row.alarm_updated_at),
  assetId: row.asset_id,
  parentId: row.parent_id,
  isParent: row.is_parent,
  ...(q.includeSite || q.groupBy === 'site'
    ? { site: row.asset_id !== null && row.site_name ? { id: row.asset_id, name: row.site_name } : null }
    : {}),
  ...(q.checkChildExist ? { hasChildren: Boolean(row.has_children) } : {}),
});

type DevicePatch = z.output<typeof deviceUpdateSchema>;

/** A device's fields as its activity log entries show them (never its access token). */
const recordOf = (d: Omit<repo.NewDevice, 'accessToken' | 'discovered'>) =>
  masked({
    name: d.name,
    label: d.label,
    type: d.type,
    assetId: d.assetId,
    parentId: d.parentId,
    templateId: d.templateId,
    metadata: d.metadata,
  });
const rowRecord = (row: repo.DeviceRow) =>
  recordOf({ ...row, assetId: row.asset_id, parentId: row.parent_id, templateId: row.template_id, metadata: row.metadata ?? {} });

/** A form that sends back a URL as it was answered (credentials replaced) keeps the stored one. */
function keptSecrets(stored: Record<string, unknown>, patch: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    const old = stored[key];
    out[key] = typeof value === 'string' && typeof old === 'string' && value !== old && value === withoutUrlCredentials(old) ? old : value;
  }
  return out;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export function createDeviceService(deps: {
  db: Db;
  events: EventBus;
  settings: (tenantId: number) => Promise<CustomerSettings>;
  /** The helpdesk raises the ticket an alarm action asks for (SPEC 2.14). */
  tickets: SystemTickets;
  /** The customer whose device-provisioning key this is (the sites module owns customers). */
  provisionCustomer: (key: string) => Promise<{ id: number; tenant_id: number; provision_secret: string } | undefined>;
  /** Names of who took each alarm action (the users module owns users). */
  users: Pick<UserDirectory, 'byIds'>;
  /** The sites devices are placed at (the sites module owns them). */
  sites: Pick<SiteService, 'visibleSite'>;
}) {
  const { db, events } = deps;

  async function get(viewer: Viewer, id: number) {
    const row = await repo.findDevice(db, viewer, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkLabel(tenantId: number, label: string) {
    if ((await deps.settings(tenantId)).deviceLabelRule === 'noSpaces' && !NO_SPACES_LABEL.test(label)) {
      throw badRequest(DEVICE_MESSAGES.labelNoSpaces, 'label_rule');
    }
  }

  /** Where a device goes: its parent decides the site; without one, the site given (or the inventory). */
  async function placement(viewer: Viewer, type: string, parentId: number | null, assetId: number | null, selfId?: number) {
    if (parentId !== null) {
      const parent = await repo.findDevice(db, viewer, parentId);
      if (!parent) throw badRequest('parentId: Unknown parent device');
      const allowed = ALLOWED_PARENT_TYPES[type as DeviceType] ?? [];
      if (!allowed.includes(parent.type as DeviceType)) {
        const names = allowed.map((t) => DEVICE_TYPE_LABELS[t]).join(' or ');
        throw badRequest(
          allowed.length
            ? `parentId: A ${DEVICE_TYPE_LABELS[type as DeviceType]} can only be placed under a ${names}`
            : `parentId: A ${DEVICE_TYPE_LABELS[type as DeviceType]} is a site's parent device and has no parent`,
        );
      }
      if (selfId !== undefined && (await repo.subtreeIds(db, viewer.tenantId, selfId)).includes(parentId)) {
        throw badRequest('parentId: A device cannot be placed under itself or its own children');
      }
      if (assetId !== null && parent.asset_id !== assetId) throw badRequest('assetId: The parent device belongs to another site');
      return { parentId, assetId: parent.asset_id, root: parent.name };
    }
    if (assetId !== null) {
      const site = await deps.sites.visibleSite(viewer, assetId);
      if (!site) throw badRequest('assetId: Unknown site');
      return { parentId: null, assetId, root: site.root };
    }
    return { parentId: null, assetId: null, root: null };
  }

  async function checkTemplate(tenantId: number, templateId: number | null) {
    if (templateId !== null && !(await repo.templateExists(db, tenantId, templateId))) throw badRequest('templateId: Unknown template');
  }

  const nameOf = (root: string | null, label: string) => (root ? `${root}:${label}` : label);

  async function guardUnique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DEVICE_MESSAGES.alreadyExists, 'device_exists');
      throw error;
    }
  }

  const changed = (viewer: Viewer, ids: number[]) =>
    events.emit({ type: DEVICE_EVENT_TYPES.changed, tenantId: viewer.tenantId, payload: { deviceIds: ids } });

  async function update(viewer: Viewer, id: number, patch: DevicePatch & { discovered?: boolean }, origin: AuditOrigin | null) {
    const current = await get(viewer, id);
    const type = patch.type ?? current.type;
    const label = patch.label ?? current.label;
    if (patch.label !== undefined && patch.label !== current.label) await checkLabel(viewer.tenantId, label);
    let parentId: number | null;
    let assetId: number | null;
    if (patch.parentId !== undefined && patch.parentId !== null) {
      parentId = patch.parentId;
      assetId = patch.assetId ?? null;
    } else if (patch.parentId === null) {
      parentId = null;
      assetId = patch.assetId !== undefined ? patch.assetId : current.asset_id;
    } else if (patch.assetId !== undefined && patch.assetId !== current.asset_id) {
      // Moving a device to another site without naming a parent takes it off its old parent.
      parentId = null;
      assetId = patch.assetId;
    } else {
      parentId = current.parent_id;
      assetId = parentId !== null ? null : current.asset_id;
    }
    const place = await placement(viewer, type, parentId, assetId, id);
    if (type !== current.type) {
      for (const child of await repo.childIds(db, viewer.tenantId, id)) {
        if (!(ALLOWED_PARENT_TYPES[child.type as DeviceType] ?? []).includes(type as DeviceType)) {
          throw badRequest(`type: ${child.label} cannot stay under a ${DEVICE_TYPE_LABELS[type as DeviceType]}`);
        }
      }
    }
    const templateId = patch.templateId !== undefined ? patch.templateId : current.template_id;
    await checkTemplate(viewer.tenantId, templateId);
    const merged = deviceMetadataSchema.safeParse({ ...current.metadata, ...keptSecrets(current.metadata ?? {}, patch.metadata ?? {}) });
    if (!merged.success) throw badRequest(`metadata: ${merged.error.issues[0]?.message ?? 'invalid'}`);
    const metadata = merged.data;
    await guardUnique(() =>
      db.transaction().execute(async (trx) => {
        await repo.updateDeviceRow(trx, viewer.tenantId, id, {
          label,
          type,
          assetId: place.assetId,
          parentId: place.parentId,
          templateId,
          metadata,
          discovered: patch.discovered ?? current.discovered,
        });
        await repo.renameSubtree(trx, viewer.tenantId, id, nameOf(place.root, label), place.assetId);
        const touched = [id, current.parent_id, place.parentId].filter((x): x is number => x !== null);
        await repo.refreshIsParent(trx, viewer.tenantId, touched);
        if (origin) {
          const after = recordOf({ name: nameOf(place.root, label), label, type, ...place, templateId, metadata });
          await writeActivity(trx, origin, {
            action: 'device.update',
            object: { type: 'device', id },
            ...changedFields(rowRecord(current), after),
          });
        }
      }),
    );
    changed(viewer, [id]);
    return get(viewer, id);
  }

  return {
    toDevice,

    async list(viewer: Viewer, q: DeviceListQuery) {
      const { rows, total } = await repo.listDevices(db, viewer, q);
      return { contents: rows.map((r) => toDevice(r)), totalCount: total };
    },

    async typeList(viewer: Viewer, q: DeviceListQuery) {
      const rows = await repo.typeCounts(db, viewer, q);
      return {
        contents: rows.map((r) => ({
          type: r.type as DeviceType,
          label: DEVICE_TYPE_LABELS[r.type as DeviceType] ?? r.type,
          count: r.count,
        })),
        totalCount: rows.length,
      };
    },

    detail: async (viewer: Viewer, id: number) => toDevice(await get(viewer, id)),

    /** The explicit read of a device's access token (to configure its firmware), recorded in the activity log. */
    async accessToken(viewer: Viewer, id: number, origin: AuditOrigin): Promise<DeviceAccessToken> {
      const row = await get(viewer, id);
      await writeActivity(db, origin, { action: 'device.access-token.read', object: { type: 'device', id } });
      return { deviceId: id, accessToken: row.access_token };
    },

    async compact(viewer: Viewer, q: CompactListQuery) {
      const { rows, total } = await repo.compactList(db, viewer, q);
      const items = rows.map((r) => toCompact(r, q));
      if (q.groupBy !== 'site') return { contents: items, totalCount: total };
      const groups = new Map<number | null, { site: { id: number; name: string } | null; devices: typeof items }>();
      for (const item of items) {
        const key = item.assetId;
        if (!groups.has(key)) groups.set(key, { site: item.site ?? null, devices: [] });
        groups.get(key)?.devices.push(item);
      }
      return { contents: [...groups.values()], totalCount: total };
    },

    /** `origin`: who creates it, for the activity log (null: a system caller, not recorded). */
    async create(viewer: Viewer, input: DeviceInput, origin: AuditOrigin | null, opts: { discovered?: boolean } = {}) {
      await checkLabel(viewer.tenantId, input.label);
      const place = await placement(viewer, input.type, input.parentId, input.assetId);
      await checkTemplate(viewer.tenantId, input.templateId);
      const { id } = await guardUnique(() =>
        db.transaction().execute(async (trx) => {
          const created = await repo.insertDevice(trx, viewer.tenantId, {
            name: nameOf(place.root, input.label),
            label: input.label,
            type: input.type,
            assetId: place.assetId,
            parentId: place.parentId,
            templateId: input.templateId,
            accessToken: randomToken(15),
            discovered: opts.discovered,
            metadata: input.metadata,
          });
          if (place.parentId !== null) await repo.refreshIsParent(trx, viewer.tenantId, [place.parentId]);
          if (origin) {
            const after = recordOf({ name: nameOf(place.root, input.label), ...input, ...place });
            await writeActivity(trx, origin, { action: 'device.create', object: { type: 'device', id: created.id }, after });
          }
          return created;
        }),
      );
      changed(viewer, [id]);
      return toDevice(await get(viewer, id));
    },

    update: async (viewer: Viewer, id: number, patch: DevicePatch, origin: AuditOrigin | null) =>
      toDevice(await update(viewer, id, patch, origin)),

    /** Deleting a device keeps its children: they stay at the site without a parent. */
    async remove(viewer: Viewer, id: number, origin: AuditOrigin | null) {
      const current = await get(viewer, id);
      // Whoever sees the device sees its site.
      const site = current.asset_id !== null ? await deps.sites.visibleSite(viewer, current.asset_id) : null;
      const root = site?.root ?? null;
      await guardUnique(() =>
        db.transaction().execute(async (trx) => {
          const children = await repo.childIds(trx, viewer.tenantId, id);
          await repo.deleteDeviceRow(trx, viewer.tenantId, id);
          for (const child of children)
            await repo.renameSubtree(trx, viewer.tenantId, child.id, nameOf(root, child.label), current.asset_id);
          if (current.parent_id !== null) await repo.refreshIsParent(trx, viewer.tenantId, [current.parent_id]);
          if (origin)
            await writeActivity(trx, origin, { action: 'device.delete', object: { type: 'device', id }, before: rowRecord(current) });
        }),
      );
      changed(viewer, [id]);
    },

    /** Assigns inventory devices to a site (and a parent there), or sends them back to the inventory. */
    async assign(
      viewer: Viewer,
      input: { deviceIds: number[]; assetId: number | null; parentId: number | null },
      origin: AuditOrigin | null,
    ) {
      const updated: number[] = [];
      for (const id of input.deviceIds) {
        await update(viewer, id, { assetId: input.assetId, parentId: input.parentId }, origin);
        updated.push(id);
      }
      return { updated: updated.length };
    },

    /** A discovered device becomes part of the inventory. */
    async addToInventory(viewer: Viewer, id: number, patch: DevicePatch, origin: AuditOrigin | null) {
      const current = await get(viewer, id);
      if (!current.discovered) throw new HttpError(409, DEVICE_MESSAGES.inventoryFailed, 'not_discovered');
      return toDevice(await update(viewer, id, { ...patch, discovered: false }, origin));
    },

    /** SPEC 2.14: maintenance, mute or enable one device or its whole subtree, logged, with an optional ticket. */
    async alarmAction(viewer: Viewer, id: number, input: AlarmActionInput) {
      const device = await get(viewer, id);
      const setting = (await deps.settings(viewer.tenantId)).deviceAlarmActions[SETTING_OF[input.telemetryKey]];
      if (!setting.show) throw forbidden('This action is not enabled for your organisation');
      if (input.createTicket && !setting.createTicket) throw badRequest('createTicket: Tickets are not enabled for this action');
      const ids = input.updateChildDevice ? await repo.subtreeIds(db, viewer.tenantId, id) : [id];
      await db.transaction().execute(async (trx) => {
        await repo.setToggle(trx, viewer.tenantId, ids, input.telemetryKey, input.telemetryValue);
        await repo.insertAlarmAction(trx, {
          tenantId: viewer.tenantId,
          deviceId: id,
          key: input.telemetryKey,
          value: input.telemetryValue,
          updateChild: input.updateChildDevice,
          updated: ids.length,
          createTicket: input.createTicket,
          description: input.description,
          userId: viewer.userId,
        });
      });
      let ticketId: number | null = null;
      if (input.createTicket) {
        const title = ACTION_TITLE[input.telemetryKey](input.telemetryValue);
        const ticket = await deps.tickets.createTicket(viewer.tenantId, {
          type: 'AlarmTicket',
          title: `${title}: ${device.label}`.slice(0, 250),
          description: input.description || title,
          event: 'Device Alarm Action',
          subEvent: SUBJECT[input.telemetryKey],
          entityId: id,
          locationId: device.asset_id,
          ownerId: viewer.userId,
          metadata: { telemetryKey: input.telemetryKey, telemetryValue: input.telemetryValue, updatedDeviceIds: ids },
        });
        ticketId = ticket.id;
      }
      const payload: DeviceAlarmActionEvent = {
        deviceId: id,
        telemetryKey: input.telemetryKey,
        telemetryValue: input.telemetryValue,
        createTicket: input.createTicket,
        description: input.description,
        userId: viewer.userId,
        updatedDeviceIds: ids,
        assetId: device.asset_id,
        deviceLabel: device.label,
        ticketId,
      };
      events.emit({ type: DEVICE_EVENT_TYPES.alarmAction, tenantId: viewer.tenantId, payload });
      return { success: true, updatedDevices: ids.length, ticketId };
    },

    async alarmActionLog(viewer: Viewer, id: number, page: number, limit: number) {
      await get(viewer, id);
      const { rows, total } = await repo.listAlarmActions(db, viewer.tenantId, id, page, limit);
      const users = await usersById(
        deps.users,
        viewer.tenantId,
        rows.map((r) => r.user_id),
      );
      return {
        contents: rows.map((r) => {
          const u = r.user_id === null ? undefined : users.get(r.user_id);
          return {
            id: r.id,
            telemetryKey: r.telemetry_key,
            telemetryValue: r.telemetry_value,
            updateChildDevice: r.update_child_device,
            updatedDevices: r.updated_devices,
            createTicket: r.create_ticket,
            description: r.description,
            user: u ? { id: u.id, name: `${u.firstname} ${u.lastname}`.trim() || u.username } : null,
            createdAt: isoOf(r.created_at),
          };
        }),
        totalCount: total,
      };
    },

    deviceById: (tenantId: number, id: number) => repo.deviceById(db, tenantId, id),

    /**
     * ThingsBoard's provision API: a device with its customer's key and secret registers itself as discovered, in
     * the tenant of that customer (the key names it: keys are unique), with the token it brought or a new one.
     */
    async provision(body: ProvisionRequest): Promise<ProvisionResponse> {
      const customer = await deps.provisionCustomer(body.provisionDeviceKey);
      if (!customer || !safeEqual(customer.provision_secret, body.provisionDeviceSecret)) {
        return { status: 'NOT_FOUND', errorMsg: 'Provision data was not found!' };
      }
      const accessToken = body.token ?? randomToken(15);
      const deviceType: DeviceType = body.deviceType ?? 'ROUTER';
      const name = body.deviceName ?? `${deviceType}-${randomToken(6)}`;
      try {
        await repo.insertDevice(db, customer.tenant_id, {
          name,
          label: name,
          type: deviceType,
          assetId: null,
          parentId: null,
          templateId: null,
          accessToken,
          discovered: true,
          metadata: { muteDevice: false, maintenance: false, enableDevice: true, customerId: customer.id },
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          const tokenTaken = String((error as { constraint?: string }).constraint ?? '').includes('token');
          return {
            status: 'FAILURE',
            errorMsg: tokenTaken ? 'Device credentials are already in use' : 'Device with this name already exists',
          };
        }
        throw error;
      }
      return { status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: accessToken };
    },
  };
}
export type DeviceService = ReturnType<typeof createDeviceService>;
