import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';
import { limitParam, orderBy, pageParam, searchText } from './query.ts';

/** Clusters (SPEC 2.2 cluster-view): a named group of sites with its city lead, area head and regional head. */

export const CLUSTER_PERMISSIONS = {
  view: 'view_cluster',
  add: 'add_cluster',
  change: 'change_cluster',
  delete: 'delete_cluster',
} as const satisfies Record<string, PermissionCodename>;

export const CLUSTER_LIMITS = { name: 150, description: 1000, sites: 500 } as const;

/** The roles a cluster's leads hold, by the field that names them. */
export const CLUSTER_LEAD_ROLES = { cityLeadId: 'citylead', areaHeadId: 'areahead', regionalHeadId: 'regionalhead' } as const;

export const CLUSTER_MESSAGES = {
  created: 'Cluster created successfully',
  updated: 'Cluster updated successfully',
  deleted: 'Cluster deleted successfully',
  exists: 'A cluster with this name already exists',
  cityLead: 'Choose an active city lead of this customer',
  areaHead: 'Choose an active area head of this customer',
  regionalHead: 'Choose an active regional head of this customer',
  sites: 'Choose sites you can see',
} as const;

const leadId = idSchema.nullable().default(null);

export const clusterInputSchema = z.strictObject({
  name: z
    .string({ message: 'Cluster name is required' })
    .trim()
    .min(1, 'Cluster name is required')
    .max(CLUSTER_LIMITS.name, `Please use maximum ${CLUSTER_LIMITS.name} characters`),
  description: z
    .string()
    .trim()
    .max(CLUSTER_LIMITS.description, `Please use maximum ${CLUSTER_LIMITS.description} characters`)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null)),
  cityLeadId: leadId,
  areaHeadId: leadId,
  regionalHeadId: leadId,
  /** The cluster's sites (only those the caller can see; sites they cannot see stay in the cluster). */
  assetIds: z.array(idSchema).max(CLUSTER_LIMITS.sites, `Choose at most ${CLUSTER_LIMITS.sites} sites`).default([]),
});
export type ClusterInput = z.infer<typeof clusterInputSchema>;

const personSchema = z.object({ id: z.number().int(), name: z.string(), isActive: z.boolean() }).nullable();

export const clusterSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  cityLead: personSchema,
  areaHead: personSchema,
  regionalHead: personSchema,
  /** The cluster's sites the caller can see. */
  sites: z.array(z.object({ id: z.number().int(), name: z.string() })),
  siteCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type Cluster = z.infer<typeof clusterSchema>;

export const clusterListQuerySchema = z.strictObject({
  searchText: searchText.optional(),
  page: pageParam,
  limit: limitParam(100, 20),
  orderBy: orderBy(['name', 'createdAt'] as const).default('name'),
});
export type ClusterListQuery = z.infer<typeof clusterListQuerySchema>;

export const clusterListSchema = z.object({ contents: z.array(clusterSchema), totalCount: z.number().int() });
export const clusterIdParamSchema = z.object({ id: idCoerced });
