import AddIcon from '@mui/icons-material/Add';
import CalendarViewDayOutlined from '@mui/icons-material/CalendarViewDayOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FilterListIcon from '@mui/icons-material/FilterList';
import GridViewOutlined from '@mui/icons-material/GridViewOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import SearchIcon from '@mui/icons-material/Search';
import TableRowsOutlined from '@mui/icons-material/TableRowsOutlined';
import ViewColumnOutlined from '@mui/icons-material/ViewColumnOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import { TICKET_DEFAULTS } from '@sitewatch/contracts/constants';
import type { TicketColumn, TicketListPrefs } from '@sitewatch/contracts/helpdesk/admin';
import { TICKET_STATUSES, type TicketStatus, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useShell } from '../../../app/shell/shell-context.ts';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { countOf } from '../../../lib/format.ts';
import type { Query } from '../../../lib/http-client.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { useExportSources, useStartExport } from '../../downloads/api.ts';
import { useUpdateProfile } from '../../profile/api.ts';
import {
  useAssignees,
  useHelpdeskConfig,
  usePrefs,
  useSavePrefs,
  useSiteOptions,
  useTicketDays,
  useTicketStats,
  useTickets,
} from './api.ts';
import { useDebounced } from './components.tsx';
import { HelpdeskMenu } from './HelpdeskMenu.tsx';
import { ColumnsDialog, DateRangeControl, EMPTY_FILTERS, FilterDialog, type ListFilters, NotificationDialog } from './ListDialogs.tsx';
import { createPath, type DatePreset, type DateRange, exceedsMonths, isListType, type ListType, presetRange } from './model.ts';
import { StatusCards } from './StatusCards.tsx';
import { CompactView, GroupedView, TableView, ThumbnailView } from './TicketViews.tsx';

const csvParam = (v: string | null) => (v ? v.split(',').filter(Boolean) : []);
const DEFAULT_PREFS: TicketListPrefs = { view: 'table', groupByDay: false, autoRefresh: true, onlyMine: false };

/** SPEC 9: a ticket export covers at most 6 months. */
const EXPORT_RANGE_MESSAGE = 'Choose a date range of at most 6 months to export.';

/** /tickets, /tickets/{type}, /escalation-tickets and /work-orders/: the ticket list with every option of SPEC 2.15. */
export function TicketListPage({ fixedType }: { fixedType?: TicketType }) {
  const routeType = useParams().type;
  // /tickets/BOGUS is not a list of every ticket: the address names no ticket type.
  if (!fixedType && routeType !== undefined && !isListType(routeType)) {
    return <EmptyState data-testid="not-found-state" title="Ticket type not found" description="Choose a ticket list from the menu." />;
  }
  return <TicketList fixedType={fixedType} />;
}

function TicketList({ fixedType }: { fixedType?: TicketType }) {
  const exportSources = useExportSources();
  const startExport = useStartExport();
  const routeType = useParams().type;
  const type: ListType = fixedType ?? (isListType(routeType) ? routeType : 'all');
  const user = useUser();
  const { settings } = useShell();
  const config = useHelpdeskConfig();
  const prefsQuery = usePrefs(type);
  const savePrefs = useSavePrefs(type);
  const updateProfile = useUpdateProfile();
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<'filter' | 'columns' | 'notifications' | null>(null);
  const [searchInput, setSearchInput] = useState(params.get('search') ?? '');
  const search = useDebounced(searchInput.trim(), 400);

  const typeSettings = type === 'all' ? undefined : config.data?.types[type];
  const prefs = { ...DEFAULT_PREFS, ...prefsQuery.data?.list };
  const defaultColumns = (typeSettings?.tableView.columns ?? config.data?.types.TICKET.tableView.columns ?? []) as TicketColumn[];
  const columns = prefs.columns ?? defaultColumns;
  const refreshSec = Math.max(
    TICKET_DEFAULTS.minRefreshIntervalSec,
    prefs.refreshInterval ?? typeSettings?.refreshInterval ?? settings?.ticket.refreshInterval ?? TICKET_DEFAULTS.refreshIntervalSec,
  );
  const statusCards = (typeSettings?.statusCards ?? ['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED']) as TicketStatus[];

  const updatePrefs = (patch: Partial<TicketListPrefs>) => {
    const next = { ...prefs, ...patch };
    savePrefs.mutate({ list: next }, { onError: () => toast.error('Failed To Update Settings') });
  };

  // The date range: initial from the customer settings (SPEC 9: last 24 hours), kept in the address.
  const presetParam = (params.get('range') ?? settings?.ticket.initialDateFilter ?? TICKET_DEFAULTS.initialDateFilter) as DatePreset;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!prefs.autoRefresh || presetParam === 'custom') return;
    const timer = setInterval(() => setNow(Date.now()), refreshSec * 1000);
    return () => clearInterval(timer);
  }, [prefs.autoRefresh, presetParam, refreshSec]);
  const range: DateRange =
    presetParam === 'custom' && params.get('from') && params.get('to')
      ? { preset: 'custom', from: params.get('from') as string, to: params.get('to') as string }
      : presetRange(presetParam === 'custom' ? 'last24h' : (presetParam as Exclude<DatePreset, 'custom'>), now);

  const statusFilter = csvParam(params.get('status')).filter((s) => (TICKET_STATUSES as readonly string[]).includes(s));
  const page = Number(params.get('page') ?? '1') || 1;
  const limit = Number(params.get('limit') ?? '20') || 20;
  const orderBy = params.get('orderBy') ?? '-createdAt';
  const assignedTo = params.get('assignedTo');
  const locationId = params.get('locationId');

  const filterQuery: Query = {
    type,
    ...(statusFilter.length ? { status: statusFilter.join(',') } : {}),
    ...(params.get('priority') ? { priority: params.get('priority') } : {}),
    ...(params.get('event') ? { event: params.get('event') } : {}),
    ...(params.get('subEvent') ? { subEvent: params.get('subEvent') } : {}),
    ...(assignedTo ? { assignedTo } : {}),
    ...(locationId ? { locationId } : {}),
    ...(params.get('vendor') ? { vendor: params.get('vendor') } : {}),
    ...(params.get('overdue') ? { overdue: 'true' } : {}),
    ...(params.get('onHold') ? { onHold: 'true' } : {}),
    ...(params.get('unacknowledged') ? { acknowledged: 'false' } : {}),
    ...(search ? { search } : {}),
    ...(prefs.onlyMine ? { mine: 'true' } : {}),
    from: range.from,
    to: range.to,
  };
  const listQuery: Query = { ...filterQuery, page, limit, orderBy };
  const refetch = prefs.autoRefresh ? refreshSec * 1000 : false;
  const tickets = useTickets(listQuery, refetch);
  const { status: _omit, ...statsQuery } = filterQuery;
  const stats = useTicketStats(statsQuery, refetch);
  const days = useTicketDays(filterQuery, prefs.groupByDay, refetch);

  // Names for the filter box of what the address holds by id.
  const assigneeId = assignedTo && assignedTo !== 'none' ? Number(assignedTo) : undefined;
  const assignee = useAssignees('', assigneeId ? [assigneeId] : undefined);
  const sites = useSiteOptions('');
  const filters: ListFilters = useMemo(
    () => ({
      ...EMPTY_FILTERS,
      status: statusFilter,
      priority: csvParam(params.get('priority')),
      event: params.get('event') ?? '',
      subEvent: params.get('subEvent') ?? '',
      assignee: assigneeId
        ? (assignee.data?.contents.find((u) => u.id === assigneeId) ?? { id: assigneeId, name: `User ${assigneeId}`, email: '', roles: [] })
        : null,
      unassigned: assignedTo === 'none',
      site: locationId
        ? (sites.data?.contents.find((s) => s.id === Number(locationId)) ?? { id: Number(locationId), name: `Site ${locationId}` })
        : null,
      overdue: Boolean(params.get('overdue')),
      onHold: Boolean(params.get('onHold')),
      unacknowledged: Boolean(params.get('unacknowledged')),
    }),
    [params, statusFilter, assigneeId, assignee.data, assignedTo, locationId, sites.data],
  );
  const activeFilters = [
    filters.status.length,
    filters.priority.length,
    filters.event,
    filters.subEvent,
    filters.assignee,
    filters.unassigned,
    filters.site,
    filters.overdue,
    filters.onHold,
    filters.unacknowledged,
  ].filter(Boolean).length;

  const setQuery = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in patch)) next.delete('page');
    setParams(next, { replace: true });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the debounced text moves the address
  useEffect(() => {
    if ((params.get('search') ?? '') !== search) setQuery({ search: search || null });
  }, [search]);

  const applyFilters = (f: ListFilters) =>
    setQuery({
      status: f.status.join(',') || null,
      priority: f.priority.join(',') || null,
      event: f.event || null,
      subEvent: f.subEvent || null,
      assignedTo: f.unassigned ? 'none' : f.assignee ? String(f.assignee.id) : null,
      locationId: f.site ? String(f.site.id) : null,
      overdue: f.overdue ? '1' : null,
      onHold: f.onHold ? '1' : null,
      unacknowledged: f.unacknowledged ? '1' : null,
    });
  const toggleStatus = (s: TicketStatus) =>
    setQuery({ status: (statusFilter.includes(s) ? statusFilter.filter((x) => x !== s) : [...statusFilter, s]).join(',') || null });

  const permissions = permissionsOf(user);
  const isAdmin = Boolean(user?.userRole.some((r) => ['sysadmin', 'customeradmin', 'localadmin'].includes(r)));
  const mayRaise = isAdmin || permissions.has('add_ticket') || ((type === 'all' || type === 'TICKET') && permissions.has('view_ticket'));
  const alias = settings?.aliases.ticket ?? 'Ticket';
  const title = typeSettings?.label ?? `${alias}s`;
  // The export runs as a server job with the list's filters; it then shows in the downloads job centre.
  const canExport = Boolean(exportSources.data?.some((source) => source.kind === 'tickets'));
  const exportList = () => {
    if (startExport.isPending) return;
    if (range.from && range.to && exceedsMonths(range.from, range.to)) {
      toast.error(EXPORT_RANGE_MESSAGE);
      return;
    }
    startExport.mutate({
      kind: 'tickets',
      params: filterQuery,
      name: `${title.replace(/\s+/g, '_')}_${new Date().toISOString().slice(0, 10)}`,
    });
  };
  const rows = tickets.data?.contents ?? [];
  const total = tickets.data?.totalCount ?? 0;
  const paging = {
    rows,
    total,
    loading: tickets.isFetching && !tickets.data,
    page,
    limit,
    type,
    columns,
    dayCounts: prefs.groupByDay ? days.data : undefined,
    onPage: (p: number, l: number) => setQuery({ page: String(p), limit: String(l) }),
  };

  return (
    <Box>
      <PageHeader
        title={title}
        subtitle={tickets.data && !tickets.data.totalExact ? `About ${countOf(total, 'ticket')}` : undefined}
        actions={
          <>
            {mayRaise ? (
              <Button variant="contained" startIcon={<AddIcon />} component={Link} to={createPath(type)} data-testid="add-ticket">
                Add {alias}
              </Button>
            ) : null}
            <HelpdeskMenu
              type={type}
              isAdmin={isAdmin}
              mayAssign={isAdmin || permissions.has('change_ticket')}
              mayImport={isAdmin || permissions.has('add_ticket')}
            />
          </>
        }
      />
      <StatusCards cards={statusCards} counts={stats.data?.contents} selected={statusFilter} onToggle={toggleStatus} />
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField
          size="small"
          placeholder="Search tickets"
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': 'Search tickets', 'data-testid': 'ticket-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: 220 }}
        />
        <DateRangeControl
          value={range}
          onChange={(r) =>
            setQuery(r.preset === 'custom' ? { range: 'custom', from: r.from, to: r.to } : { range: r.preset, from: null, to: null })
          }
        />
        <FormControlLabel
          control={
            <Switch checked={prefs.onlyMine} onChange={(e) => updatePrefs({ onlyMine: e.target.checked })} data-testid="only-mine" />
          }
          label="Only my tickets"
        />
        <FormControlLabel
          control={<Switch checked={prefs.autoRefresh} onChange={(e) => updatePrefs({ autoRefresh: e.target.checked })} />}
          label={`Auto-refresh (${refreshSec} s)`}
        />
        <Box sx={{ flex: 1 }} />
        <ToggleButtonGroup size="small" exclusive value={prefs.view} onChange={(_e, v) => v && updatePrefs({ view: v })} aria-label="View">
          <ToggleButton value="table" aria-label="Table view">
            <TableRowsOutlined fontSize="small" />
          </ToggleButton>
          <ToggleButton value="thumbnail" aria-label="Thumbnail view" data-testid="view-thumbnail">
            <GridViewOutlined fontSize="small" />
          </ToggleButton>
          <ToggleButton value="compact" aria-label="Compact view" data-testid="view-compact">
            <ViewListOutlined fontSize="small" />
          </ToggleButton>
        </ToggleButtonGroup>
        <Tooltip title="Group by day">
          <ToggleButton
            size="small"
            value="day"
            selected={prefs.groupByDay}
            onChange={() => updatePrefs({ groupByDay: !prefs.groupByDay })}
            aria-label="Group by day"
          >
            <CalendarViewDayOutlined fontSize="small" />
          </ToggleButton>
        </Tooltip>
        <Tooltip title="Filter">
          {/* the count drawn on the icon is part of the button's name, as speech input users say what they see */}
          <IconButton
            onClick={() => setDialog('filter')}
            aria-label={activeFilters ? `Filter, ${activeFilters} active` : 'Filter'}
            data-testid="open-filter"
          >
            {activeFilters ? (
              <Badge badgeContent={activeFilters} color="primary">
                <FilterListIcon />
              </Badge>
            ) : (
              <FilterListIcon />
            )}
          </IconButton>
        </Tooltip>
        <Tooltip title="Modify table header">
          <IconButton onClick={() => setDialog('columns')} aria-label="Modify table header" data-testid="open-columns">
            <ViewColumnOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title="Notification config">
          <IconButton onClick={() => setDialog('notifications')} aria-label="Notification config">
            <NotificationsOutlined />
          </IconButton>
        </Tooltip>
        {canExport ? (
          <Tooltip title="Export CSV">
            <IconButton
              onClick={exportList}
              // aria-disabled, not disabled: a disabled button would drop the keyboard focus to the page
              aria-disabled={startExport.isPending}
              aria-label="Export"
              data-testid="open-export"
            >
              <FileDownloadOutlined />
            </IconButton>
          </Tooltip>
        ) : null}
      </Paper>

      {tickets.isError && !tickets.data ? (
        <ErrorState onRetry={() => void tickets.refetch()} />
      ) : !tickets.isFetching && rows.length === 0 ? (
        <EmptyState title="No tickets found" description="No ticket matches the filters and the date range." />
      ) : prefs.view === 'table' && !prefs.groupByDay ? (
        <TableView {...paging} orderBy={orderBy} onOrder={(o) => setQuery({ orderBy: o })} />
      ) : (
        <>
          {prefs.view === 'thumbnail' ? (
            <ThumbnailView {...paging} groupByDay={prefs.groupByDay} />
          ) : prefs.view === 'compact' ? (
            <CompactView {...paging} groupByDay={prefs.groupByDay} />
          ) : (
            <GroupedView {...paging} />
          )}
          <TablePagination
            component="div"
            count={total}
            page={page - 1}
            rowsPerPage={limit}
            rowsPerPageOptions={[10, 20, 50, 100]}
            onPageChange={(_e, p) => paging.onPage(p + 1, limit)}
            onRowsPerPageChange={(e) => paging.onPage(1, Number(e.target.value))}
          />
        </>
      )}

      <FilterDialog open={dialog === 'filter'} type={type} value={filters} onApply={applyFilters} onClose={() => setDialog(null)} />
      <ColumnsDialog
        open={dialog === 'columns'}
        value={columns}
        defaults={defaultColumns}
        onSave={(c) => updatePrefs({ columns: c })}
        onClose={() => setDialog(null)}
      />
      {prefsQuery.data ? (
        <NotificationDialog
          open={dialog === 'notifications'}
          value={prefsQuery.data.notifications}
          popup={user?.notificationConfig.popup ?? true}
          busy={savePrefs.isPending || updateProfile.isPending}
          onClose={() => setDialog(null)}
          onSave={async (notifications, popup) => {
            try {
              await savePrefs.mutateAsync({ notifications });
              if (user && popup !== user.notificationConfig.popup) {
                await updateProfile.mutateAsync({
                  firstname: user.firstname,
                  lastname: user.lastname,
                  email: user.email,
                  mobile: user.mobile,
                  notificationConfig: { popup },
                });
              }
              toast.success('Permission for selected events are updated successfully!');
              setDialog(null);
            } catch {
              toast.error('Failed To Update Settings');
            }
          }}
        />
      ) : null}
    </Box>
  );
}

export const EscalationTicketsPage = () => <TicketListPage fixedType="TICKET" />;
export const WorkOrdersPage = () => <TicketListPage fixedType="WORKORDERTICKET" />;
