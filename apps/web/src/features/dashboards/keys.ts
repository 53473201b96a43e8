import type { RangeOverride, WidgetKind } from '@sitewatch/contracts/dashboards';
import type { Query } from '../../lib/http-client.ts';

/** Query keys of dashboards, folders, components, versions, widget data and shared links. */
export const dashboardKeys = {
  all: ['dashboards'] as const,
  lists: ['dashboards', 'list'] as const,
  list: (query: Query) => ['dashboards', 'list', query] as const,
  mine: ['dashboards', 'mine'] as const,
  one: (id: number) => ['dashboards', 'one', id] as const,
  folders: ['dashboards', 'folders'] as const,
  audience: ['dashboards', 'audience'] as const,
  folder: (id: number) => ['dashboards', 'folder', id] as const,
  components: (query: Query) => ['dashboards', 'components', query] as const,
  component: (id: number) => ['dashboards', 'component', id] as const,
  versions: (id: number, page: number) => ['dashboards', 'versions', id, page] as const,
  /** Every widget answer of a kind (pushed events make one kind stale). */
  widgetsOf: (kind: WidgetKind) => ['dashboards', 'widget', kind] as const,
  widget: (kind: WidgetKind, source: string, range: RangeOverride | null) => ['dashboards', 'widget', kind, source, range] as const,
  links: (query: Query) => ['dashboards', 'links', query] as const,
  linksAll: ['dashboards', 'links'] as const,
  report: ['dashboards', 'report'] as const,
  shared: (dashboardId: number, token: string) => ['dashboards', 'shared', dashboardId, token] as const,
};
