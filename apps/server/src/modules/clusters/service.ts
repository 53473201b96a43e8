import {
  CLUSTER_LEAD_ROLES,
  CLUSTER_MESSAGES,
  CLUSTER_PERMISSIONS,
  type Cluster,
  type ClusterInput,
  type ClusterListQuery,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { type Viewer, viewerOf } from '../sites/scope.ts';
import type { UserDirectory } from '../users/index.ts';
import * as repo from './repository.ts';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

const LEAD_MESSAGES = {
  cityLeadId: CLUSTER_MESSAGES.cityLead,
  areaHeadId: CLUSTER_MESSAGES.areaHead,
  regionalHeadId: CLUSTER_MESSAGES.regionalHead,
} as const;

/** Clusters of /cluster-view: access checks first; a site-bound user sees and changes only their sites of a cluster. */
export function createClusterService(deps: { db: Db; users: Pick<UserDirectory, 'byIds'>; events: EventBus }) {
  const { db, users, events } = deps;
  const changed = (tenantId: number, clusterId: number) => events.emit({ type: 'cluster.changed', tenantId, payload: { clusterId } });
  const need = (auth: AuthContext, codename: string) => {
    if (!auth.permissions.has(codename)) throw forbidden();
  };

  async function toClusters(auth: AuthContext, viewer: Viewer, rows: repo.ClusterRow[]): Promise<Cluster[]> {
    const ids = rows.map((r) => r.id);
    const leadIds = [...new Set(rows.flatMap((r) => [r.city_lead_id, r.area_head_id, r.regional_head_id]))].filter(
      (id): id is number => id !== null,
    );
    const [sites, people] = await Promise.all([
      repo.visibleSites(db, viewer, ids),
      leadIds.length ? users.byIds(auth.tenantId, leadIds) : Promise.resolve([]),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    const person = (id: number | null) => {
      const p = id === null ? undefined : byId.get(id);
      return p ? { id: p.id, name: `${p.firstname} ${p.lastname}`.trim() || p.username, isActive: p.isActive } : null;
    };
    const can = {
      change: auth.permissions.has(CLUSTER_PERMISSIONS.change),
      delete: auth.permissions.has(CLUSTER_PERMISSIONS.delete),
    };
    return rows.map((r) => {
      const list = sites.get(r.id) ?? [];
      return {
        id: r.id,
        name: r.name,
        description: r.description,
        cityLead: person(r.city_lead_id),
        areaHead: person(r.area_head_id),
        regionalHead: person(r.regional_head_id),
        sites: list,
        siteCount: list.length,
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
        can,
      };
    });
  }

  async function clusterOf(viewer: Viewer, id: number) {
    const row = await repo.findCluster(db, viewer, id);
    if (!row) throw notFound();
    return row;
  }

  /** Each lead named must be an active user of the tenant holding that lead's role. */
  async function assertLeads(tenantId: number, input: ClusterInput, kept: Partial<Record<keyof typeof CLUSTER_LEAD_ROLES, number | null>>) {
    const fields = (Object.keys(CLUSTER_LEAD_ROLES) as (keyof typeof CLUSTER_LEAD_ROLES)[]).filter(
      (f) => input[f] !== null && input[f] !== kept[f],
    );
    const ids = fields.map((f) => input[f]).filter((id): id is number => id !== null);
    if (ids.length === 0) return;
    const found = new Map((await users.byIds(tenantId, ids)).map((u) => [u.id, u]));
    for (const field of fields) {
      const id = input[field];
      if (id === null) continue;
      const user = found.get(id);
      if (!user?.isActive || !user.roles.includes(CLUSTER_LEAD_ROLES[field])) throw badRequest(`${field}: ${LEAD_MESSAGES[field]}`);
    }
  }

  async function assertSites(viewer: Viewer, assetIds: number[]) {
    const unique = [...new Set(assetIds)];
    const visible = await repo.visibleSiteIds(db, viewer, unique);
    if (visible.length !== unique.length) throw badRequest(`assetIds: ${CLUSTER_MESSAGES.sites}`);
    return unique;
  }

  const writeOf = (input: ClusterInput): repo.ClusterWrite => ({
    name: input.name,
    description: input.description,
    cityLeadId: input.cityLeadId,
    areaHeadId: input.areaHeadId,
    regionalHeadId: input.regionalHeadId,
  });
  const summaryOf = (w: repo.ClusterWrite, assetIds: number[]) => ({ ...w, assetIds: [...assetIds].sort((a, b) => a - b) });

  /** A lead left as it was may since have been deactivated; only newly named leads are checked. */
  async function checked(auth: AuthContext, viewer: Viewer, input: ClusterInput, row?: repo.ClusterRow) {
    const kept = row ? { cityLeadId: row.city_lead_id, areaHeadId: row.area_head_id, regionalHeadId: row.regional_head_id } : {};
    await assertLeads(auth.tenantId, input, kept);
    const exceptId = row?.id;
    const assetIds = await assertSites(viewer, input.assetIds);
    if (await repo.nameTaken(db, auth.tenantId, input.name, exceptId)) throw conflict(CLUSTER_MESSAGES.exists);
    return assetIds;
  }

  return {
    async list(auth: AuthContext, q: ClusterListQuery) {
      need(auth, CLUSTER_PERMISSIONS.view);
      const viewer = viewerOf(auth);
      const { rows, total } = await repo.listClusters(db, viewer, q);
      return { contents: await toClusters(auth, viewer, rows), totalCount: total };
    },

    async get(auth: AuthContext, id: number) {
      need(auth, CLUSTER_PERMISSIONS.view);
      const viewer = viewerOf(auth);
      const [cluster] = await toClusters(auth, viewer, [await clusterOf(viewer, id)]);
      return cluster as Cluster;
    },

    async create(auth: AuthContext, input: ClusterInput, origin: AuditOrigin) {
      need(auth, CLUSTER_PERMISSIONS.add);
      const viewer = viewerOf(auth);
      const assetIds = await checked(auth, viewer, input);
      const write = writeOf(input);
      try {
        const id = await db.transaction().execute(async (trx) => {
          const newId = await repo.insertCluster(trx, auth.tenantId, write, auth.userId);
          await repo.replaceVisibleSites(trx, viewer, newId, assetIds);
          await writeActivity(trx, origin, {
            action: 'cluster.create',
            object: { type: 'cluster', id: newId },
            after: summaryOf(write, assetIds),
          });
          return newId;
        });
        changed(auth.tenantId, id);
        return this.get(auth, id);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(CLUSTER_MESSAGES.exists);
        throw error;
      }
    },

    async update(auth: AuthContext, id: number, input: ClusterInput, origin: AuditOrigin) {
      need(auth, CLUSTER_PERMISSIONS.change);
      const viewer = viewerOf(auth);
      const row = await clusterOf(viewer, id);
      const assetIds = await checked(auth, viewer, input, row);
      const before = summaryOf(
        {
          name: row.name,
          description: row.description,
          cityLeadId: row.city_lead_id,
          areaHeadId: row.area_head_id,
          regionalHeadId: row.regional_head_id,
        },
        ((await repo.visibleSites(db, viewer, [id])).get(id) ?? []).map((s) => s.id),
      );
      const write = writeOf(input);
      try {
        await db.transaction().execute(async (trx) => {
          await repo.updateCluster(trx, auth.tenantId, id, write);
          await repo.replaceVisibleSites(trx, viewer, id, assetIds);
          const diff = changedFields(before, summaryOf(write, assetIds));
          await writeActivity(trx, origin, { action: 'cluster.update', object: { type: 'cluster', id }, ...diff });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(CLUSTER_MESSAGES.exists);
        throw error;
      }
      changed(auth.tenantId, id);
      // The caller may just have taken their last site out of it: answer with what they wrote and see.
      const [cluster] = await toClusters(auth, viewer, [(await repo.findCluster(db, viewer, id, true)) as repo.ClusterRow]);
      return cluster as Cluster;
    },

    async remove(auth: AuthContext, id: number, origin: AuditOrigin) {
      need(auth, CLUSTER_PERMISSIONS.delete);
      const viewer = viewerOf(auth);
      const row = await clusterOf(viewer, id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteCluster(trx, auth.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'cluster.delete',
          object: { type: 'cluster', id },
          before: { name: row.name, description: row.description },
        });
      });
      changed(auth.tenantId, id);
    },
  };
}
export type ClusterService = ReturnType<typeof createClusterService>;
