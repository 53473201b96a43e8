import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import type { TicketColumn } from '@sitewatch/contracts/helpdesk/admin';
import type { TicketSummary } from '@sitewatch/contracts/helpdesk/tickets';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatRelative } from '../../../lib/format.ts';
import { PriorityChip, StatusChip } from './components.tsx';
import { ALL_COLUMNS, columnLabel, columnText, groupByDay, type ListType, SORTABLE, viewPath } from './model.ts';

/** The four ways to show a page of tickets: table, grouped by day, thumbnails and compact (SPEC 2.15). */

/**
 * The ticket's link in the grid: the grid is one Tab stop with arrow keys inside (the grid pattern), so the link
 * takes the grid's tab index and the focus when its cell has it; Enter then opens the ticket.
 */
function GridLink({ to, hasFocus, tabIndex, children }: { to: string; hasFocus: boolean; tabIndex: -1 | 0; children: ReactNode }) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (hasFocus) ref.current?.focus();
  }, [hasFocus]);
  return (
    <Link ref={ref} to={to} tabIndex={tabIndex} data-testid="ticket-link">
      {children}
    </Link>
  );
}

function cell(column: TicketColumn, t: TicketSummary, type: ListType, focus?: { hasFocus: boolean; tabIndex: -1 | 0 }): ReactNode {
  if (column === 'status') return <StatusChip status={t.status} />;
  if (column === 'priority') return <PriorityChip priority={t.priority} />;
  if (column === 'ticketId') {
    const to = viewPath(type === 'all' ? 'all' : t.type, t.id);
    if (focus) {
      return (
        <GridLink to={to} hasFocus={focus.hasFocus} tabIndex={focus.tabIndex}>
          {t.ticketId}
        </GridLink>
      );
    }
    return (
      <Link to={to} data-testid="ticket-link">
        {t.ticketId}
      </Link>
    );
  }
  if (column === 'title' && t.overdue) {
    return (
      <span>
        {t.title}{' '}
        <Typography component="span" variant="caption" color="error">
          (overdue)
        </Typography>
      </span>
    );
  }
  return columnText(column, t);
}

const WIDTH: Partial<Record<TicketColumn, number>> = {
  ticketId: 110,
  priority: 110,
  status: 130,
  dueDate: 150,
  createdAt: 150,
  acknowledged: 120,
};
/** Text columns share the rest; the summary gets the most. Long texts wrap onto more lines instead of being cut. */
const MIN_TEXT_WIDTH: Partial<Record<TicketColumn, number>> = { title: 200, location: 150 };
const FLEX: Partial<Record<TicketColumn, number>> = { title: 2 };

export interface PagingProps {
  rows: TicketSummary[];
  total: number;
  loading: boolean;
  page: number;
  limit: number;
  onPage(page: number, limit: number): void;
  type: ListType;
  columns: TicketColumn[];
  /** Group by day: each day's count over the whole filtered list, by YYYY-MM-DD. */
  dayCounts?: ReadonlyMap<string, number>;
}

export function TableView(props: PagingProps & { orderBy: string; onOrder(orderBy: string): void }) {
  const columns: GridColDef<TicketSummary>[] = ALL_COLUMNS.map((c) => ({
    field: c,
    headerName: columnLabel(c),
    sortable: Boolean(SORTABLE[c]),
    flex: WIDTH[c] ? undefined : (FLEX[c] ?? 1),
    width: WIDTH[c],
    minWidth: WIDTH[c] ?? MIN_TEXT_WIDTH[c] ?? 120,
    renderCell: (p) => cell(c, p.row, props.type, { hasFocus: p.hasFocus, tabIndex: p.tabIndex }),
    valueGetter: (_v, row) => columnText(c, row),
  }));
  const field = props.orderBy.replace(/^-/, '');
  const column = (Object.keys(SORTABLE) as TicketColumn[]).find((c) => SORTABLE[c] === field);
  const sortModel: GridSortModel = column ? [{ field: column, sort: props.orderBy.startsWith('-') ? 'desc' : 'asc' }] : [];
  return (
    <Box data-testid="ticket-table">
      <DataGrid
        autoHeight
        rows={props.rows}
        columns={columns}
        loading={props.loading}
        rowCount={props.total}
        paginationMode="server"
        sortingMode="server"
        sortModel={sortModel}
        onSortModelChange={(model) => {
          const first = model[0];
          const key = first ? SORTABLE[first.field as TicketColumn] : undefined;
          props.onOrder(key ? `${first?.sort === 'asc' ? '' : '-'}${key}` : '-createdAt');
        }}
        paginationModel={{ page: props.page - 1, pageSize: props.limit }}
        onPaginationModelChange={(m) => props.onPage(m.page + 1, m.pageSize)}
        pageSizeOptions={[10, 20, 50, 100]}
        columnVisibilityModel={Object.fromEntries(ALL_COLUMNS.map((c) => [c, props.columns.includes(c)]))}
        disableRowSelectionOnClick
        disableColumnMenu
        getRowHeight={() => 'auto'}
        sx={{
          '& .MuiDataGrid-cell': {
            py: 1,
            whiteSpace: 'normal',
            overflowWrap: 'anywhere',
            lineHeight: 1.4,
            display: 'flex',
            alignItems: 'center',
          },
        }}
        getRowClassName={(p) => (p.row.overdue ? 'ticket-overdue' : '')}
      />
    </Box>
  );
}

/** Group by day: each day of the page under its heading, with the chosen columns. */
export function GroupedView(props: PagingProps) {
  const groups = groupByDay(props.rows, new Date(), props.dayCounts);
  return (
    <Box data-testid="ticket-groups">
      {groups.map((g) => (
        <Box key={g.key} sx={{ mb: 2 }}>
          <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 0.5 }} data-testid="day-group-heading">
            {g.label} · {g.count}
          </Typography>
          <Table size="small">
            <TableHead>
              <TableRow>
                {props.columns.map((c) => (
                  <TableCell key={c}>{columnLabel(c)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {g.rows.map((t) => (
                <TableRow key={t.id} hover>
                  {props.columns.map((c) => (
                    <TableCell key={c}>{cell(c, t, props.type)}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ))}
    </Box>
  );
}

export function ThumbnailView(props: PagingProps & { groupByDay: boolean }) {
  const groups = props.groupByDay
    ? groupByDay(props.rows, new Date(), props.dayCounts)
    : [{ key: 'all', label: '', rows: props.rows, count: props.rows.length }];
  return (
    <Box data-testid="ticket-thumbnails">
      {groups.map((g) => (
        <Box key={g.key} sx={{ mb: 2 }}>
          {g.label ? (
            <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }} data-testid="day-group-heading">
              {g.label} · {g.count}
            </Typography>
          ) : null}
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 2 }}>
            {g.rows.map((t) => (
              <Card key={t.id} variant="outlined">
                <CardActionArea component={Link} to={viewPath(props.type === 'all' ? 'all' : t.type, t.id)}>
                  <Box sx={{ height: 140, bgcolor: 'action.hover', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                    {t.thumbnail ? (
                      <Box
                        component="img"
                        src={t.thumbnail}
                        alt=""
                        loading="lazy"
                        sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
                      />
                    ) : (
                      <ImageOutlined color="disabled" fontSize="large" />
                    )}
                  </Box>
                  <CardContent sx={{ display: 'grid', gap: 0.5 }}>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'center' }}>
                      <Typography variant="caption" sx={{ fontWeight: 700 }}>
                        {t.ticketId}
                      </Typography>
                      <StatusChip status={t.status} />
                    </Box>
                    <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap title={t.title}>
                      {t.title}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap>
                      {[t.additionalInformation.assetLabel, t.event].filter(Boolean).join(' · ')}
                    </Typography>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
                      <PriorityChip priority={t.priority} />
                      <Typography variant="caption" color="text.secondary">
                        {formatRelative(t.createdAt)}
                      </Typography>
                    </Box>
                  </CardContent>
                </CardActionArea>
              </Card>
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

export function CompactView(props: PagingProps & { groupByDay: boolean }) {
  const groups = props.groupByDay
    ? groupByDay(props.rows, new Date(), props.dayCounts)
    : [{ key: 'all', label: '', rows: props.rows, count: props.rows.length }];
  return (
    <Box data-testid="ticket-compact">
      {groups.map((g) => (
        <Box key={g.key}>
          {g.label ? (
            <Typography variant="subtitle2" sx={{ fontWeight: 700, mt: 1 }} data-testid="day-group-heading">
              {g.label} · {g.count}
            </Typography>
          ) : null}
          <List dense disablePadding>
            {g.rows.map((t) => (
              <ListItem key={t.id} disablePadding>
                <ListItemButton component={Link} to={viewPath(props.type === 'all' ? 'all' : t.type, t.id)} divider>
                  <ListItemText
                    primary={`${t.ticketId} · ${t.title}`}
                    secondary={[t.additionalInformation.assetLabel, t.event, t.assignee?.name, formatRelative(t.createdAt)]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                  <Box sx={{ display: 'flex', gap: 1, ml: 1 }}>
                    <PriorityChip priority={t.priority} />
                    <StatusChip status={t.status} />
                  </Box>
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      ))}
    </Box>
  );
}
