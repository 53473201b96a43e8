import type { TicketListPrefs, TicketNotificationPrefs } from '@sitewatch/contracts/helpdesk/admin';
import type { Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf, type QueryParamsOf, type ResponseOf } from '../../../lib/api.ts';
import { cachedById, entityCache, remember } from '../../../lib/entity-cache.ts';
import type { Query } from '../../../lib/http-client.ts';
import { realtime } from '../../../lib/realtime.ts';
import { devicesOf } from '../../devices/api.ts';
import { helpdeskKeys, ticketKeys } from '../keys.ts';
import { addTicketComment } from './offline-changes.ts';

export interface Page<T> {
  contents: T[];
  totalCount: number;
}
export interface Assignee {
  id: number;
  name: string;
  email: string;
  roles: string[];
}
/** The helpdesk dashboard's figures (contracts dashboardSchema). */
export type Dashboard = ResponseOf<'/helpdesk/dashboard/', 'get'>;

// Pushed ticket events make the lists and the open ticket stale at once; polling stays as the fallback.
realtime.invalidateOn('ticket', ticketKeys.all);

export const fetchTickets = (query: Query, signal?: AbortSignal) => api.get('/helpdesk/tickets/', { query, signal, toast: false });

export function useTickets(query: Query, refetchInterval: number | false) {
  return useQuery({
    queryKey: ticketKeys.list(query),
    queryFn: ({ signal }) => api.get('/helpdesk/tickets/', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useTicketStats(query: Query, refetchInterval: number | false) {
  return useQuery({
    queryKey: ticketKeys.stats(query),
    queryFn: ({ signal }) =>
      api.get('/helpdesk/tickets/stats/', {
        query,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

/** Group by day: the count of each day over the whole filtered list (YYYY-MM-DD in the browser's time zone). */
export function useTicketDays(query: Query, enabled: boolean, refetchInterval: number | false) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return useQuery({
    queryKey: ticketKeys.days({ ...query, timeZone }),
    queryFn: async ({ signal }) => {
      const days = await api.get('/helpdesk/tickets/days/', { query: { ...query, timeZone }, signal });
      return new Map(days.contents.map((d) => [d.day, d.count]));
    },
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useTicket(id: number) {
  return useQuery({
    queryKey: ticketKeys.ticket(id),
    queryFn: () => api.get('/helpdesk/tickets/{id}/', { path: { id } }),
    enabled: id > 0,
  });
}

/** Keeps the cached ticket in step after a change, and the lists stale. */
export function useTicketChange<TArgs>(call: (args: TArgs) => Promise<Ticket>, options: { offline?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    // A change the outbox can keep runs without a connection too, instead of waiting paused for one.
    ...(options.offline ? { networkMode: 'always' as const } : {}),
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.ticket(ticket.id), ticket);
      void client.invalidateQueries({ queryKey: ticketKeys.lists });
      void client.invalidateQueries({ queryKey: ticketKeys.statsAll });
      void client.invalidateQueries({ queryKey: ticketKeys.daysAll });
      void client.invalidateQueries({ queryKey: ticketKeys.historyOf(ticket.id) });
    },
  });
}

export type TicketUpdate = BodyOf<'/helpdesk/tickets/{id}/', 'put'>;
export type TicketCreate = BodyOf<'/helpdesk/tickets/', 'post'>;
/** A change of fields on a ticket read at some version (the version is added by useTicketUpdate). */
export type TicketChange = Omit<TicketUpdate, 'version'>;
export const updateTicket = (id: number, body: TicketUpdate) => api.put('/helpdesk/tickets/{id}/', body, { path: { id }, toast: false });
export const createTicket = (body: TicketCreate) => api.post('/helpdesk/tickets/', body, { toast: false });

export function uploadAttachments(id: number, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('attachments', file, file.name);
  return api.post('/helpdesk/tickets/{id}/attachments/', form, { path: { id }, toast: false });
}

export function useHistory(id: number, page: number, limit = 20) {
  return useQuery({
    queryKey: ticketKeys.history(id, page),
    queryFn: () => api.get('/helpdesk/tickets/{id}/history/', { path: { id }, query: { page, limit, orderBy: '-updatedAt' } }),
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

export function useComments(id: number) {
  return useQuery({
    queryKey: ticketKeys.comments(id),
    queryFn: () => api.get('/helpdesk/tickets/{id}/comments/', { path: { id }, query: { page: 1, limit: 100, orderBy: '-updatedAt' } }),
    enabled: id > 0,
  });
}

/** Adds a comment; without a connection it is kept in the outbox (`queued`) and sent when the connection returns. */
export function useAddComment(id: number, ticketNumber: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => addTicketComment({ id, ticketId: ticketNumber }, text),
    networkMode: 'always',
    onSuccess: (result) => {
      if (!result.queued) void client.invalidateQueries({ queryKey: ticketKeys.comments(id) });
    },
  });
}

export function useHelpdeskConfig() {
  return useQuery({ queryKey: helpdeskKeys.config, queryFn: () => api.get('/helpdesk/config/'), staleTime: 60_000 });
}

export function useUpdateConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/helpdesk/config/', 'put'>) => api.put('/helpdesk/config/', body, { toast: false }),
    onSuccess: (config) => client.setQueryData(helpdeskKeys.config, config),
  });
}

export interface Prefs {
  list: TicketListPrefs;
  notifications: TicketNotificationPrefs;
}
/** Preferences are kept per ticket type ('all' for the list without a type filter). */
export type PrefsType = NonNullable<NonNullable<QueryParamsOf<'/helpdesk/preferences/', 'get'>>['type']>;
export function usePrefs(type: PrefsType) {
  return useQuery({
    queryKey: helpdeskKeys.prefs(type),
    queryFn: () => api.get('/helpdesk/preferences/', { query: { type } }),
    staleTime: 300_000,
  });
}
export function useSavePrefs(type: PrefsType) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { list?: TicketListPrefs; notifications?: TicketNotificationPrefs }) =>
      api.put('/helpdesk/preferences/', { type, ...body }, { toast: false }),
    onSuccess: (prefs) => client.setQueryData(helpdeskKeys.prefs(type), prefs),
  });
}

export function usePriorities() {
  return useQuery({
    queryKey: helpdeskKeys.priorities,
    queryFn: () => api.get('/helpdesk/priority/'),
    staleTime: 300_000,
  });
}

export function useAssignees(search: string, ids?: number[]) {
  const query: Query = { limit: 20, ...(search ? { search } : {}), ...(ids?.length ? { ids: ids.join(',') } : {}) };
  return useQuery({
    queryKey: helpdeskKeys.assignees(query),
    queryFn: () => api.get('/helpdesk/assignees/', { query }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useIssueTypes(query: Query = {}) {
  const q: Query = { page: 1, limit: 500, ...query };
  return useQuery({
    queryKey: helpdeskKeys.issueTypes(q),
    queryFn: async () => {
      const page = await api.get('/helpdesk/issue-types/', { query: q });
      remember('issueTypes', page.contents);
      return page;
    },
  });
}
export function useIssueType(id: number) {
  return useQuery({
    queryKey: helpdeskKeys.issueType(id),
    ...cachedById('issueTypes', id, () => api.get('/helpdesk/issue-types/{id}/', { path: { id } })),
    enabled: id > 0,
  });
}
export function useSaveIssueType(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/helpdesk/issue-types/', 'post'>) =>
      id
        ? api.put('/helpdesk/issue-types/{id}/', body, { path: { id }, toast: false })
        : api.post('/helpdesk/issue-types/', body, { toast: false }),
    onSuccess: () => {
      entityCache('issueTypes').clear();
      return client.invalidateQueries({ queryKey: helpdeskKeys.all });
    },
  });
}
export function useDeleteIssueType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/helpdesk/issue-types/{id}/', { path: { id } }),
    onSuccess: () => {
      entityCache('issueTypes').clear();
      return client.invalidateQueries({ queryKey: helpdeskKeys.all });
    },
  });
}

export function usePolicies(query: Query = {}) {
  const q: Query = { page: 1, limit: 100, ...query };
  return useQuery({
    queryKey: helpdeskKeys.policies(q),
    queryFn: () => api.get('/helpdesk/escalation-policies/', { query: q }),
  });
}
export function usePolicy(id: number) {
  return useQuery({
    queryKey: helpdeskKeys.policy(id),
    queryFn: () => api.get('/helpdesk/escalation-policies/{id}/', { path: { id } }),
    enabled: id > 0,
  });
}
export function useSavePolicy(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/helpdesk/escalation-policies/', 'post'>) =>
      id
        ? api.put('/helpdesk/escalation-policies/{id}/', body, { path: { id }, toast: false })
        : api.post('/helpdesk/escalation-policies/', body, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: helpdeskKeys.all }),
  });
}
export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/helpdesk/escalation-policies/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: helpdeskKeys.all }),
  });
}

export function useDashboard(query: Query) {
  return useQuery({
    queryKey: helpdeskKeys.dashboard(query),
    queryFn: () => api.get('/helpdesk/dashboard/', { query }),
    placeholderData: keepPreviousData,
  });
}
export type ReportQuery = NonNullable<QueryParamsOf<'/helpdesk/reports/', 'get'>>;
export function useReport(query: ReportQuery) {
  return useQuery({
    queryKey: helpdeskKeys.report(query),
    queryFn: () => api.get('/helpdesk/reports/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function importCsv(file: File, dryRun: boolean) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post('/helpdesk/tickets/import/', form, { query: { dryRun: dryRun ? 'true' : 'false' }, toast: false });
}
export function startBulkImport(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post('/helpdesk/imports/', form, { toast: false });
}
export function useImports(poll: boolean) {
  return useQuery({
    queryKey: helpdeskKeys.imports,
    queryFn: () => api.get('/helpdesk/imports/', { query: { page: 1, limit: 20 } }),
    refetchInterval: poll ? 2000 : false,
  });
}

/** Sites and devices for the pickers, from the sites-and-devices endpoints (SPEC 7). */
export interface SiteOption {
  id: number;
  name: string;
}
export interface DeviceOption {
  id: number;
  label: string;
  type: string;
  assetId: number | null;
  /** Its site's name: the picker names each device with its site (labels repeat at every site). */
  siteName?: string | null;
}
export function useSiteOptions(search: string) {
  const query: Query = { limit: 20, orderBy: 'name', ...(search ? { searchText: search, searchKeys: 'name' } : {}) };
  return useQuery({
    queryKey: helpdeskKeys.siteOptions(query),
    queryFn: () => api.get('/iotapp/assets/', { query, toast: false }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
export function useDeviceOptions(assetId: number | null, search: string) {
  const query: Query = {
    limit: 20,
    page: 1,
    orderBy: 'label',
    ...(assetId ? { assetId } : {}),
    ...(search ? { searchText: search, searchKeys: 'label,name,site__name' } : {}),
  };
  return useQuery({
    queryKey: helpdeskKeys.deviceOptions(query),
    queryFn: async (): Promise<{ contents: DeviceOption[] }> => ({
      contents: devicesOf(await api.get('/iotapp/devices/', { query, toast: false })).contents.map((d) => ({
        id: d.id,
        label: d.label,
        type: d.type,
        assetId: d.assetId,
        siteName: d.asset?.name ?? null,
      })),
    }),
    staleTime: 60_000,
    // while another location's devices load, the last list stays only if it is of the same location
    placeholderData: (previous) => (previous?.contents.every((d) => !assetId || d.assetId === assetId) ? previous : undefined),
  });
}
