import type {
  BulkImport,
  EscalationPolicy,
  HelpdeskConfig,
  ImportResult,
  IssueType,
  TicketListPrefs,
  TicketNotificationPrefs,
  TicketReport,
} from '@sitewatch/contracts/helpdesk/admin';
import type { Comment, HistoryEntry, Ticket, TicketDays, TicketStatus, TicketSummary } from '@sitewatch/contracts/helpdesk/tickets';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cachedById, entityCache, remember } from '../../lib/entity-cache.ts';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';

export interface Page<T> {
  contents: T[];
  totalCount: number;
}
export type TicketPage = Page<TicketSummary> & { totalExact: boolean };
export interface Assignee {
  id: number;
  name: string;
  email: string;
  roles: string[];
}
export interface Dashboard {
  total: number;
  open: number;
  overdue: number;
  escalated: number;
  resolvedInRange: number;
  avgResolutionHours: number | null;
  avgRating: number | null;
  byStatus: { key: string; count: number; color: string }[];
  byPriority: { key: string; count: number; color: string }[];
  byType: { key: string; count: number }[];
  byEvent: { key: string; count: number }[];
  perDay: { day: string; created: number; resolved: number }[];
}

export const ticketKeys = {
  all: ['tickets'] as const,
  list: (q: Query) => ['tickets', 'list', q] as const,
  stats: (q: Query) => ['tickets', 'stats', q] as const,
  days: (q: Query) => ['tickets', 'days', q] as const,
  ticket: (id: number) => ['tickets', 'ticket', id] as const,
  history: (id: number, page: number) => ['tickets', 'history', id, page] as const,
  comments: (id: number) => ['tickets', 'comments', id] as const,
  config: ['helpdesk', 'config'] as const,
  prefs: (type: string) => ['helpdesk', 'prefs', type] as const,
  statuses: ['helpdesk', 'statuses'] as const,
  assignees: (q: Query) => ['helpdesk', 'assignees', q] as const,
  issueTypes: (q: Query) => ['helpdesk', 'issue-types', q] as const,
  issueType: (id: number) => ['helpdesk', 'issue-type', id] as const,
  policies: (q: Query) => ['helpdesk', 'policies', q] as const,
  policy: (id: number) => ['helpdesk', 'policy', id] as const,
  dashboard: (q: Query) => ['helpdesk', 'dashboard', q] as const,
  report: (q: Query) => ['helpdesk', 'report', q] as const,
  imports: ['helpdesk', 'imports'] as const,
};

// Pushed ticket events make the lists and the open ticket stale at once; polling stays as the fallback.
realtime.invalidateOn('ticket', ticketKeys.all);

export const fetchTickets = (query: Query, signal?: AbortSignal) =>
  http.get<TicketPage>('/helpdesk/tickets/', { query, signal, toast: false });

export function useTickets(query: Query, refetchInterval: number | false) {
  return useQuery({
    queryKey: ticketKeys.list(query),
    queryFn: ({ signal }) => http.get<TicketPage>('/helpdesk/tickets/', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useTicketStats(query: Query, refetchInterval: number | false) {
  return useQuery({
    queryKey: ticketKeys.stats(query),
    queryFn: ({ signal }) =>
      http.get<{ contents: { status: TicketStatus; count: number; color: string }[]; total: number }>('/helpdesk/tickets/stats/', {
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
      const days = await http.get<TicketDays>('/helpdesk/tickets/days/', { query: { ...query, timeZone }, signal });
      return new Map(days.contents.map((d) => [d.day, d.count]));
    },
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useTicket(id: number) {
  return useQuery({ queryKey: ticketKeys.ticket(id), queryFn: () => http.get<Ticket>(`/helpdesk/tickets/${id}/`), enabled: id > 0 });
}

/** Keeps the cached ticket in step after a change, and the lists stale. */
export function useTicketChange<TArgs>(call: (args: TArgs) => Promise<Ticket>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.ticket(ticket.id), ticket);
      void client.invalidateQueries({ queryKey: ['tickets', 'list'] });
      void client.invalidateQueries({ queryKey: ['tickets', 'stats'] });
      void client.invalidateQueries({ queryKey: ['tickets', 'days'] });
      void client.invalidateQueries({ queryKey: ['tickets', 'history', ticket.id] });
    },
  });
}

export const updateTicket = (id: number, body: Record<string, unknown>) =>
  http.put<Ticket>(`/helpdesk/tickets/${id}/`, body, { toast: false });
export const createTicket = (body: Record<string, unknown>) => http.post<Ticket>('/helpdesk/tickets/', body, { toast: false });

export function uploadAttachments(id: number, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('attachments', file, file.name);
  return http.post<Ticket>(`/helpdesk/tickets/${id}/attachments/`, form, { toast: false });
}

export function useHistory(id: number, page: number, limit = 20) {
  return useQuery({
    queryKey: ticketKeys.history(id, page),
    queryFn: () => http.get<Page<HistoryEntry>>(`/helpdesk/tickets/${id}/history/`, { query: { page, limit, orderBy: '-updatedAt' } }),
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

export function useComments(id: number) {
  return useQuery({
    queryKey: ticketKeys.comments(id),
    queryFn: () => http.get<Page<Comment>>(`/helpdesk/tickets/${id}/comments/`, { query: { page: 1, limit: 100, orderBy: '-updatedAt' } }),
    enabled: id > 0,
  });
}

export function useAddComment(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => http.post<Comment>(`/helpdesk/tickets/${id}/comments/`, { text }, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: ticketKeys.comments(id) }),
  });
}

export function useHelpdeskConfig() {
  return useQuery({ queryKey: ticketKeys.config, queryFn: () => http.get<HelpdeskConfig>('/helpdesk/config/'), staleTime: 60_000 });
}

export function useUpdateConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => http.put<HelpdeskConfig>('/helpdesk/config/', body, { toast: false }),
    onSuccess: (config) => client.setQueryData(ticketKeys.config, config),
  });
}

export interface Prefs {
  list: TicketListPrefs;
  notifications: TicketNotificationPrefs;
}
export function usePrefs(type: string) {
  return useQuery({
    queryKey: ticketKeys.prefs(type),
    queryFn: () => http.get<Prefs>('/helpdesk/preferences/', { query: { type } }),
    staleTime: 300_000,
  });
}
export function useSavePrefs(type: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { list?: TicketListPrefs; notifications?: TicketNotificationPrefs }) =>
      http.put<Prefs>('/helpdesk/preferences/', { type, ...body }, { toast: false }),
    onSuccess: (prefs) => client.setQueryData(ticketKeys.prefs(type), prefs),
  });
}

export function usePriorities() {
  return useQuery({
    queryKey: ['helpdesk', 'priorities'],
    queryFn: () => http.get<{ contents: { name: string; color: string }[] }>('/helpdesk/priority/'),
    staleTime: 300_000,
  });
}

export function useAssignees(search: string, ids?: number[]) {
  const query: Query = { limit: 20, ...(search ? { search } : {}), ...(ids?.length ? { ids: ids.join(',') } : {}) };
  return useQuery({
    queryKey: ticketKeys.assignees(query),
    queryFn: () => http.get<Page<Assignee>>('/helpdesk/assignees/', { query }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useIssueTypes(query: Query = {}) {
  const q: Query = { page: 1, limit: 500, ...query };
  return useQuery({
    queryKey: ticketKeys.issueTypes(q),
    queryFn: async () => {
      const page = await http.get<Page<IssueType>>('/helpdesk/issue-types/', { query: q });
      remember('issueTypes', page.contents);
      return page;
    },
  });
}
export function useIssueType(id: number) {
  return useQuery({
    queryKey: ticketKeys.issueType(id),
    ...cachedById('issueTypes', id, () => http.get<IssueType>(`/helpdesk/issue-types/${id}/`)),
    enabled: id > 0,
  });
}
export function useSaveIssueType(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      id
        ? http.put<IssueType>(`/helpdesk/issue-types/${id}/`, body, { toast: false })
        : http.post<IssueType>('/helpdesk/issue-types/', body, { toast: false }),
    onSuccess: () => {
      entityCache('issueTypes').clear();
      return client.invalidateQueries({ queryKey: ['helpdesk'] });
    },
  });
}
export function useDeleteIssueType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<null>(`/helpdesk/issue-types/${id}/`),
    onSuccess: () => {
      entityCache('issueTypes').clear();
      return client.invalidateQueries({ queryKey: ['helpdesk'] });
    },
  });
}

export function usePolicies(query: Query = {}) {
  const q: Query = { page: 1, limit: 100, ...query };
  return useQuery({
    queryKey: ticketKeys.policies(q),
    queryFn: () => http.get<Page<EscalationPolicy>>('/helpdesk/escalation-policies/', { query: q }),
  });
}
export function usePolicy(id: number) {
  return useQuery({
    queryKey: ticketKeys.policy(id),
    queryFn: () => http.get<EscalationPolicy>(`/helpdesk/escalation-policies/${id}/`),
    enabled: id > 0,
  });
}
export function useSavePolicy(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      id
        ? http.put<EscalationPolicy>(`/helpdesk/escalation-policies/${id}/`, body, { toast: false })
        : http.post<EscalationPolicy>('/helpdesk/escalation-policies/', body, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['helpdesk'] }),
  });
}
export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<null>(`/helpdesk/escalation-policies/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['helpdesk'] }),
  });
}

export function useDashboard(query: Query) {
  return useQuery({
    queryKey: ticketKeys.dashboard(query),
    queryFn: () => http.get<Dashboard>('/helpdesk/dashboard/', { query }),
    placeholderData: keepPreviousData,
  });
}
export function useReport(query: Query) {
  return useQuery({
    queryKey: ticketKeys.report(query),
    queryFn: () => http.get<TicketReport>('/helpdesk/reports/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function importCsv(file: File, dryRun: boolean) {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.post<ImportResult>('/helpdesk/tickets/import/', form, { query: { dryRun }, toast: false });
}
export function startBulkImport(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.post<BulkImport>('/helpdesk/imports/', form, { toast: false });
}
export function useImports(poll: boolean) {
  return useQuery({
    queryKey: ticketKeys.imports,
    queryFn: () => http.get<Page<BulkImport>>('/helpdesk/imports/', { query: { page: 1, limit: 20 } }),
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
}
export function useSiteOptions(search: string) {
  const query: Query = { limit: 20, orderBy: 'name', ...(search ? { searchText: search, searchKeys: 'name' } : {}) };
  return useQuery({
    queryKey: ['helpdesk', 'site-options', query],
    queryFn: () => http.get<Page<SiteOption>>('/iotapp/assets/', { query, toast: false }),
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
    ...(search ? { searchText: search, searchKeys: 'label,name' } : {}),
  };
  return useQuery({
    queryKey: ['helpdesk', 'device-options', query],
    queryFn: () => http.get<Page<DeviceOption>>('/iotapp/devices/', { query, toast: false }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
