import { randomBytes } from 'node:crypto';
import {
  type AlarmSeverity,
  ROLES_SEEING_ALL_SITES,
  TRAP_MESSAGES,
  TRAP_PERMISSIONS,
  type TrapDestination,
  type TrapDestinationInput,
  type TrapFilter,
  type TrapFilterInput,
  type TrapMapping,
  type TrapMappingInput,
  type TrapReceiving,
  type TrapReceivingInput,
  type TrapStats,
  type UnmatchedTrap,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { parseCidr } from '../../platform/cidr.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { checkTrapHost, type DestinationTarget, type ForwardNetworks } from './forwarder.ts';
import type { FilterView, MappingView, ReceiverCredentials, TenantTrapConfig } from './receiver.ts';
import type { DestinationWrite, SnmpRepository, TrapUserWrite } from './repository.ts';
import type { Sealer } from './secrets.ts';
import { unmatchedVarbinds } from './stats.ts';

type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;
type DestinationRow = NonNullable<Awaited<ReturnType<SnmpRepository['destination']>>>;
type FilterRow = NonNullable<Awaited<ReturnType<SnmpRepository['filter']>>>;
type MappingRow = Awaited<ReturnType<SnmpRepository['listMappings']>>[number];

const FAILURES_SHOWN = 10;
const iso = (d: Date | string) => new Date(d).toISOString();
const seesAll = (a: Actor) => a.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r));

const toMapping = (r: MappingRow): TrapMapping => ({
  id: r.id,
  name: r.name,
  trapOid: r.trap_oid,
  action: r.action as TrapMapping['action'],
  alarmKey: r.alarm_key,
  instanceOid: r.instance_oid,
  severity: r.severity as AlarmSeverity,
  createTicket: r.create_ticket,
  deviceType: r.device_type,
  enabled: r.enabled,
});

export function createSnmpService(deps: {
  repo: SnmpRepository;
  sealer: Sealer;
  directory: Pick<SiteDirectory, 'asset' | 'device' | 'visibleAssetIds'>;
  networks: ForwardNetworks;
  /** The networks each tenant's destinations may be in (set by the system administrator). */
  outbound: Pick<OutboundNetworks, 'of'>;
  /** A change through the API: the receiver drops its cached configuration of the tenant. */
  changed(tenantId: number): void;
  /** A destination was removed: its session closes. */
  removed(destinationId: number): void;
  /** A community, v3 user or relay changed: the receiver reloads them. */
  credentialsChanged(): void;
  /** The receiver's UDP port (shown with the community). */
  receiverPort: number;
  /** Whether the tenant's devices are on a simulated network (the demo). */
  simulated(tenantId: number): Promise<boolean>;
}) {
  const { repo, sealer } = deps;
  const need = (actor: Actor, codename: string) => {
    if (!actor.permissions.has(codename)) throw forbidden();
  };

  /** Opens the sealed secrets for the forwarder (never for an answer). */
  const targetOf = (r: DestinationRow): DestinationTarget => ({
    id: r.id,
    tenantId: r.tenant_id,
    host: r.host,
    port: r.port,
    version: r.version as DestinationTarget['version'],
    mode: r.mode as DestinationTarget['mode'],
    community: sealer.open(r.community) ?? '',
    user: {
      name: r.user_name,
      level: r.security_level,
      authProtocol: r.auth_protocol,
      authKey: sealer.open(r.auth_key) ?? '',
      privProtocol: r.priv_protocol,
      privKey: sealer.open(r.priv_key) ?? '',
    },
    revision: `${r.id}:${new Date(r.updated_at).getTime()}`,
  });

  async function present(tenantId: number, rows: DestinationRow[]): Promise<TrapDestination[]> {
    const failures = await repo.lastFailures(
      tenantId,
      rows.map((r) => r.id),
      FAILURES_SHOWN,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      host: r.host,
      port: r.port,
      version: r.version as TrapDestination['version'],
      mode: r.mode as TrapDestination['mode'],
      user: r.user_name,
      securityLevel: r.security_level as TrapDestination['securityLevel'],
      authProtocol: r.auth_protocol as TrapDestination['authProtocol'],
      privProtocol: r.priv_protocol as TrapDestination['privProtocol'],
      hasCommunity: r.community !== null,
      hasAuthKey: r.auth_key !== null,
      hasPrivKey: r.priv_key !== null,
      enabled: r.enabled,
      sent: Number(r.sent),
      failed: Number(r.failed),
      dropped: Number(r.dropped),
      lastFailures: failures.filter((f) => f.destination_id === r.id).map((f) => ({ at: iso(f.at), trapOid: f.trap_oid, error: f.error })),
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    }));
  }

  async function destinationWrite(
    tenantId: number,
    input: TrapDestinationInput,
    existing: DestinationRow | null,
  ): Promise<DestinationWrite> {
    const checked = await checkTrapHost(input.host, deps.networks, await deps.outbound.of(tenantId));
    if (!checked.ok) throw badRequest(checked.reason);
    const keep = (given: string | null | undefined, stored: string | null) =>
      given !== undefined && given !== null && given !== '' ? sealer.seal(given) : stored;
    const v3 = input.version === 'v3';
    const community = v3 ? null : keep(input.community, existing?.community ?? null);
    if (!v3 && community === null) throw badRequest(TRAP_MESSAGES.communityRequired);
    const level = v3 ? input.securityLevel : 'noAuthNoPriv';
    const authKey = v3 && level !== 'noAuthNoPriv' ? keep(input.authKey, existing?.auth_key ?? null) : null;
    const privKey = v3 && level === 'authPriv' ? keep(input.privKey, existing?.priv_key ?? null) : null;
    if (v3 && level !== 'noAuthNoPriv' && (authKey === null || (input.authKey && input.authKey.length < 8)))
      throw badRequest(TRAP_MESSAGES.authKeyRequired);
    if (v3 && level === 'authPriv' && (privKey === null || (input.privKey && input.privKey.length < 8)))
      throw badRequest(TRAP_MESSAGES.privKeyRequired);
    return {
      name: input.name,
      host: input.host,
      port: input.port,
      version: input.version,
      mode: input.version === 'v1' ? 'trap' : input.mode,
      community,
      user_name: v3 ? input.user : '',
      security_level: level,
      auth_protocol: input.authProtocol,
      auth_key: authKey,
      priv_protocol: input.privProtocol,
      priv_key: privKey,
      enabled: input.enabled,
    };
  }

  async function visibleSites(actor: Actor): Promise<number[] | 'all'> {
    if (seesAll(actor)) return 'all';
    return deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
  }
  const canSee = (visible: number[] | 'all', assetId: number | null) =>
    visible === 'all' || (assetId !== null && visible.includes(assetId));

  /** A filter is shown to callers who see the device or site it names (every caller when it names neither). */
  async function filterVisible(actor: Actor, r: FilterRow, visible: number[] | 'all') {
    if (visible === 'all') return true;
    if (r.asset_id !== null && !canSee(visible, r.asset_id)) return false;
    if (r.device_id !== null) {
      const device = await deps.directory.device(actor.tenantId, r.device_id);
      if (!device || !canSee(visible, device.assetId)) return false;
    }
    return true;
  }

  async function presentFilters(actor: Actor, rows: FilterRow[]): Promise<TrapFilter[]> {
    const out: TrapFilter[] = [];
    for (const r of rows) {
      const device = r.device_id === null ? null : await deps.directory.device(actor.tenantId, r.device_id);
      const site = r.asset_id === null ? null : await deps.directory.asset(actor.tenantId, r.asset_id);
      out.push({
        id: r.id,
        name: r.name,
        oidPrefix: r.oid_prefix,
        varbindOid: r.varbind_oid,
        varbindValue: r.varbind_value,
        deviceId: r.device_id,
        deviceLabel: device?.label ?? null,
        deviceSiteName: device?.siteName ?? null,
        assetId: r.asset_id,
        siteName: site?.name ?? null,
        minSeverity: r.min_severity as AlarmSeverity | null,
        destinationIds: r.destination_ids,
        enabled: r.enabled,
        matched: Number(r.matched),
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
      });
    }
    return out;
  }

  async function checkFilter(actor: Actor, input: TrapFilterInput) {
    const visible = await visibleSites(actor);
    if (input.deviceId !== null) {
      const device = await deps.directory.device(actor.tenantId, input.deviceId);
      if (!device || !canSee(visible, device.assetId)) throw badRequest(TRAP_MESSAGES.deviceUnknown);
    }
    if (input.assetId !== null) {
      const site = await deps.directory.asset(actor.tenantId, input.assetId);
      if (!site || !canSee(visible, site.id)) throw badRequest(TRAP_MESSAGES.siteUnknown);
    }
    const ids = [...new Set(input.destinationIds)];
    const found = await repo.destinationsByIds(actor.tenantId, ids);
    if (found.length !== ids.length) throw badRequest(TRAP_MESSAGES.destinationUnknown);
  }

  async function visibleFilter(actor: Actor, id: number) {
    const row = await repo.filter(actor.tenantId, id);
    if (!row || !(await filterVisible(actor, row, await visibleSites(actor)))) throw notFound(TRAP_MESSAGES.filterUnknown);
    return row;
  }

  const levelOf = (v: string) => v as ReceiverCredentials['users'][number]['level'];
  async function receiving(tenantId: number): Promise<TrapReceiving> {
    const [r, users] = await Promise.all([repo.receiving(tenantId), repo.trapUsers(tenantId)]);
    return {
      port: deps.receiverPort,
      community: r.trap_community,
      relays: r.trap_relays,
      users: users.map((u) => ({
        name: u.name,
        securityLevel: levelOf(u.security_level),
        authProtocol: u.auth_protocol as TrapReceiving['users'][number]['authProtocol'],
        privProtocol: u.priv_protocol as TrapReceiving['users'][number]['privProtocol'],
        hasAuthKey: u.auth_key !== null,
        hasPrivKey: u.priv_key !== null,
      })),
    };
  }

  return {
    targetOf,
    /** Every tenant's community, v3 users (keys opened) and relays, for the receiver. */
    async credentials(): Promise<ReceiverCredentials> {
      const [tenants, users] = await Promise.all([repo.allReceiving(), repo.allTrapUsers()]);
      return {
        tenants: tenants.map((t) => ({ tenantId: t.id, community: t.trap_community, relays: t.trap_relays })),
        users: users.map((u) => ({
          tenantId: u.tenant_id,
          name: u.name,
          level: levelOf(u.security_level),
          authProtocol: u.auth_protocol,
          authKey: sealer.open(u.auth_key),
          privProtocol: u.priv_protocol,
          privKey: sealer.open(u.priv_key),
        })),
      };
    },

    async getReceiving(actor: Actor) {
      need(actor, TRAP_PERMISSIONS.changeFilter);
      return receiving(actor.tenantId);
    },
    async saveReceiving(actor: Actor, input: TrapReceivingInput, origin: AuditOrigin) {
      need(actor, TRAP_PERMISSIONS.changeFilter);
      const relays = [...new Set(input.relays)];
      if (relays.some((r) => parseCidr(r) === null)) throw badRequest(TRAP_MESSAGES.relayInvalid);
      const names = input.users.map((u) => u.name);
      if (new Set(names).size !== names.length) throw badRequest(TRAP_MESSAGES.userTwice);
      if ((await repo.userNameTaken(actor.tenantId, names)).length > 0) throw badRequest(TRAP_MESSAGES.userTaken);
      const stored = new Map((await repo.trapUsers(actor.tenantId)).map((u) => [u.name, u]));
      const users: TrapUserWrite[] = input.users.map((u) => {
        const old = stored.get(u.name);
        const keep = (given: string | null | undefined, kept: string | null | undefined) => (given ? sealer.seal(given) : (kept ?? null));
        const authKey = u.securityLevel === 'noAuthNoPriv' ? null : keep(u.authKey, old?.auth_key);
        const privKey = u.securityLevel === 'authPriv' ? keep(u.privKey, old?.priv_key) : null;
        if (u.securityLevel !== 'noAuthNoPriv' && (authKey === null || (u.authKey && u.authKey.length < 8)))
          throw badRequest(TRAP_MESSAGES.authKeyRequired);
        if (u.securityLevel === 'authPriv' && (privKey === null || (u.privKey && u.privKey.length < 8)))
          throw badRequest(TRAP_MESSAGES.privKeyRequired);
        return {
          name: u.name,
          security_level: u.securityLevel,
          auth_protocol: u.authProtocol,
          auth_key: authKey,
          priv_protocol: u.privProtocol,
          priv_key: privKey,
        };
      });
      const [before, oldUsers] = await Promise.all([repo.receiving(actor.tenantId), repo.trapUsers(actor.tenantId)]);
      // names and security levels only: the keys never enter the log
      const usersOf = (list: readonly { name: string; security_level: string }[]) => list.map((u) => `${u.name} (${u.security_level})`);
      await repo.saveReceiving(actor.tenantId, relays, users, (tx) =>
        writeActivity(tx, origin, {
          action: 'trap-receiving.update',
          object: { type: 'trap-receiving', id: actor.tenantId },
          ...changedFields({ relays: before.trap_relays ?? [], users: usersOf(oldUsers) }, { relays, users: usersOf(users) }),
        }),
      );
      deps.credentialsChanged();
      return receiving(actor.tenantId);
    },
    /** A new random community for the tenant (the old one stops working at once). */
    async renewCommunity(actor: Actor, origin: AuditOrigin) {
      need(actor, TRAP_PERMISSIONS.changeFilter);
      // the entry says that it changed, never what it is
      await repo.renewCommunity(actor.tenantId, newCommunity(), (tx) =>
        writeActivity(tx, origin, { action: 'trap-community.renew', object: { type: 'trap-receiving', id: actor.tenantId } }),
      );
      deps.credentialsChanged();
      return receiving(actor.tenantId);
    },

    /** Everything the receiver needs of one tenant, loaded in three queries. */
    async tenantConfig(tenantId: number): Promise<TenantTrapConfig> {
      const [mappings, filters, destinations, simulated] = await Promise.all([
        repo.enabledMappings(tenantId),
        repo.enabledFilters(tenantId),
        repo.enabledDestinations(tenantId),
        deps.simulated(tenantId),
      ]);
      const byOid = new Map<string, MappingView[]>();
      for (const m of mappings) {
        const view: MappingView = { ...toMapping(m) };
        byOid.set(m.trap_oid, [...(byOid.get(m.trap_oid) ?? []), view]);
      }
      return {
        mappings: byOid,
        filters: filters.map(
          (f): FilterView => ({
            id: f.id,
            oidPrefix: f.oid_prefix,
            varbindOid: f.varbind_oid,
            varbindValue: f.varbind_value,
            deviceId: f.device_id,
            assetId: f.asset_id,
            minSeverity: f.min_severity as AlarmSeverity | null,
            destinationIds: f.destination_ids,
          }),
        ),
        destinations: new Map(destinations.map((d) => [d.id, targetOf(d)])),
        simulated,
      };
    },
    /** The destination as the inform retry sends to it now (null when removed or disabled). */
    async target(tenantId: number, id: number) {
      const row = await repo.destination(tenantId, id);
      return row?.enabled ? targetOf(row) : null;
    },

    async listDestinations(actor: Actor, q: { page: number; limit: number }) {
      need(actor, TRAP_PERMISSIONS.viewDestination);
      const [rows, total] = await Promise.all([
        repo.listDestinations(actor.tenantId, q.limit, (q.page - 1) * q.limit),
        repo.countDestinations(actor.tenantId),
      ]);
      return { contents: await present(actor.tenantId, rows), totalCount: total };
    },
    async getDestination(actor: Actor, id: number) {
      need(actor, TRAP_PERMISSIONS.viewDestination);
      const row = await repo.destination(actor.tenantId, id);
      if (!row) throw notFound(TRAP_MESSAGES.destinationUnknown);
      return (await present(actor.tenantId, [row]))[0] as TrapDestination;
    },
    async createDestination(actor: Actor, input: TrapDestinationInput) {
      need(actor, TRAP_PERMISSIONS.addDestination);
      const row = await repo.insertDestination(actor.tenantId, await destinationWrite(actor.tenantId, input, null));
      deps.changed(actor.tenantId);
      return (await present(actor.tenantId, [row]))[0] as TrapDestination;
    },
    async updateDestination(actor: Actor, id: number, input: TrapDestinationInput) {
      need(actor, TRAP_PERMISSIONS.changeDestination);
      const existing = await repo.destination(actor.tenantId, id);
      if (!existing) throw notFound(TRAP_MESSAGES.destinationUnknown);
      const row = await repo.updateDestination(actor.tenantId, id, await destinationWrite(actor.tenantId, input, existing));
      if (!row) throw notFound(TRAP_MESSAGES.destinationUnknown);
      deps.changed(actor.tenantId);
      return (await present(actor.tenantId, [row]))[0] as TrapDestination;
    },
    async deleteDestination(actor: Actor, id: number) {
      need(actor, TRAP_PERMISSIONS.deleteDestination);
      if (!(await repo.deleteDestination(actor.tenantId, id))) throw notFound(TRAP_MESSAGES.destinationUnknown);
      deps.changed(actor.tenantId);
      deps.removed(id);
    },

    async listFilters(actor: Actor, q: { page: number; limit: number }) {
      need(actor, TRAP_PERMISSIONS.viewFilter);
      const visible = await visibleSites(actor);
      if (visible === 'all') {
        const [rows, total] = await Promise.all([
          repo.listFilters(actor.tenantId, q.limit, (q.page - 1) * q.limit),
          repo.countFilters(actor.tenantId),
        ]);
        return { contents: await presentFilters(actor, rows), totalCount: total };
      }
      const all: FilterRow[] = [];
      for (const r of await repo.listFilters(actor.tenantId, 10_000, 0)) if (await filterVisible(actor, r, visible)) all.push(r);
      const page = all.slice((q.page - 1) * q.limit, q.page * q.limit);
      return { contents: await presentFilters(actor, page), totalCount: all.length };
    },
    async getFilter(actor: Actor, id: number) {
      need(actor, TRAP_PERMISSIONS.viewFilter);
      return (await presentFilters(actor, [await visibleFilter(actor, id)]))[0] as TrapFilter;
    },
    async createFilter(actor: Actor, input: TrapFilterInput) {
      need(actor, TRAP_PERMISSIONS.addFilter);
      await checkFilter(actor, input);
      const row = await repo.insertFilter(actor.tenantId, input);
      deps.changed(actor.tenantId);
      return (await presentFilters(actor, [row]))[0] as TrapFilter;
    },
    async updateFilter(actor: Actor, id: number, input: TrapFilterInput) {
      need(actor, TRAP_PERMISSIONS.changeFilter);
      await visibleFilter(actor, id);
      await checkFilter(actor, input);
      const row = await repo.updateFilter(actor.tenantId, id, input);
      if (!row) throw notFound(TRAP_MESSAGES.filterUnknown);
      deps.changed(actor.tenantId);
      return (await presentFilters(actor, [row]))[0] as TrapFilter;
    },
    async deleteFilter(actor: Actor, id: number) {
      need(actor, TRAP_PERMISSIONS.deleteFilter);
      await visibleFilter(actor, id);
      await repo.deleteFilter(actor.tenantId, id);
      deps.changed(actor.tenantId);
    },

    async listMappings(actor: Actor) {
      need(actor, TRAP_PERMISSIONS.viewFilter);
      const rows = await repo.listMappings(actor.tenantId);
      return { contents: rows.map(toMapping), totalCount: rows.length };
    },
    async createMapping(actor: Actor, input: TrapMappingInput) {
      need(actor, TRAP_PERMISSIONS.addFilter);
      const row = await repo.insertMapping(actor.tenantId, input);
      deps.changed(actor.tenantId);
      return toMapping(row);
    },
    async updateMapping(actor: Actor, id: number, input: TrapMappingInput) {
      need(actor, TRAP_PERMISSIONS.changeFilter);
      const row = await repo.updateMapping(actor.tenantId, id, input);
      if (!row) throw notFound(TRAP_MESSAGES.mappingUnknown);
      deps.changed(actor.tenantId);
      return toMapping(row);
    },
    async deleteMapping(actor: Actor, id: number) {
      need(actor, TRAP_PERMISSIONS.deleteFilter);
      if (!(await repo.deleteMapping(actor.tenantId, id))) throw notFound(TRAP_MESSAGES.mappingUnknown);
      deps.changed(actor.tenantId);
    },

    /**
     * Traps no mapping or no device took. Those of the tenant's devices (hidden when the device is on a site the
     * caller does not see); those of no known device belong to no tenant and are shown to system administrators only.
     */
    async listUnmatched(actor: Actor, q: { page: number; limit: number; reason?: 'unknown-source' | 'no-mapping'; search?: string }) {
      need(actor, TRAP_PERMISSIONS.viewFilter);
      const global = q.reason === 'unknown-source' && actor.roles.includes('sysadmin');
      const { rows, total } = await repo.listUnmatched(
        global ? 'global' : actor.tenantId,
        { reason: q.reason, search: q.search },
        q.limit,
        (q.page - 1) * q.limit,
      );
      const visible = await visibleSites(actor);
      const contents: UnmatchedTrap[] = [];
      let hidden = 0;
      for (const r of rows) {
        const device = r.device_id === null || global ? null : await deps.directory.device(actor.tenantId, r.device_id);
        if (r.device_id !== null && !global && (!device || !canSee(visible, device.assetId))) {
          hidden++;
          continue;
        }
        contents.push({
          id: Number(r.id),
          source: r.source,
          version: r.version,
          trapOid: r.trap_oid,
          reason: r.reason as UnmatchedTrap['reason'],
          deviceId: global ? null : r.device_id,
          deviceLabel: device?.label ?? null,
          deviceSiteName: device?.siteName ?? null,
          count: Number(r.count),
          firstSeen: iso(r.first_seen),
          lastSeen: iso(r.last_seen),
          varbinds: unmatchedVarbinds(r.varbinds),
        });
      }
      return { contents, totalCount: total - hidden };
    },
    async stats(actor: Actor): Promise<TrapStats> {
      if (!actor.permissions.has(TRAP_PERMISSIONS.viewFilter) && !actor.permissions.has(TRAP_PERMISSIONS.viewDestination))
        throw forbidden();
      const r = await repo.stats(actor.tenantId);
      const install = actor.roles.includes('sysadmin') ? await repo.stats(0) : null;
      return {
        install: actor.roles.includes('sysadmin')
          ? {
              refused: Number(install?.refused ?? 0),
              unknownSource: Number(install?.unmatched ?? 0),
            }
          : null,
        received: Number(r?.received ?? 0),
        matched: Number(r?.matched ?? 0),
        unmatched: Number(r?.unmatched ?? 0),
        deduped: Number(r?.deduped ?? 0),
        rateLimited: Number(r?.rate_limited ?? 0),
        alarms: Number(r?.alarms ?? 0),
        forwarded: Number(r?.forwarded ?? 0),
      };
    },
  };
}
export type SnmpService = ReturnType<typeof createSnmpService>;

/** A tenant's trap community: 24 random bytes (never a guessable word such as `public`). */
export const newCommunity = () => `sw${randomBytes(24).toString('base64url')}`;
