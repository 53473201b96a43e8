import type { Query } from '../../lib/http-client.ts';

/** Query keys of tickets and of the helpdesk's configuration, the only place they are spelled. */
export const ticketKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (q: Query) => ['tickets', 'list', q] as const,
  statsAll: ['tickets', 'stats'] as const,
  stats: (q: Query) => ['tickets', 'stats', q] as const,
  daysAll: ['tickets', 'days'] as const,
  days: (q: Query) => ['tickets', 'days', q] as const,
  ticket: (id: number) => ['tickets', 'ticket', id] as const,
  historyOf: (id: number) => ['tickets', 'history', id] as const,
  history: (id: number, page: number) => ['tickets', 'history', id, page] as const,
  comments: (id: number) => ['tickets', 'comments', id] as const,
  deviceMappings: (deviceId: number) => ['tickets', 'device-mappings', deviceId] as const,
  deviceActions: (deviceId: number) => ['tickets', 'device-actions', deviceId] as const,
};

export const helpdeskKeys = {
  all: ['helpdesk'] as const,
  config: ['helpdesk', 'config'] as const,
  prefs: (type: string) => ['helpdesk', 'prefs', type] as const,
  statuses: ['helpdesk', 'statuses'] as const,
  priorities: ['helpdesk', 'priorities'] as const,
  assignees: (q: Query) => ['helpdesk', 'assignees', q] as const,
  issueTypes: (q: Query) => ['helpdesk', 'issue-types', q] as const,
  issueType: (id: number) => ['helpdesk', 'issue-type', id] as const,
  policies: (q: Query) => ['helpdesk', 'policies', q] as const,
  policy: (id: number) => ['helpdesk', 'policy', id] as const,
  dashboard: (q: Query) => ['helpdesk', 'dashboard', q] as const,
  report: (q: Query) => ['helpdesk', 'report', q] as const,
  imports: ['helpdesk', 'imports'] as const,
  siteOptions: (q: Query) => ['helpdesk', 'site-options', q] as const,
  deviceOptions: (q: Query) => ['helpdesk', 'device-options', q] as const,
};
