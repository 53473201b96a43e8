import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ASSET_MESSAGES, ASSET_TREE, nameWithSite, type TreeNode } from '@sitewatch/contracts/sites';
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, type MouseEvent, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { useAssetAlias } from '../sites/alias.ts';
import { assetQuery } from '../sites/api.ts';
import { useDebounced } from '../sites/hooks.ts';
import { NodeIcon } from './NodeIcon.tsx';
import { revealSite } from './reveal.ts';
import { TreeContextMenu } from './TreeContextMenu.tsx';
import { fetchChildren, searchTree } from './tree-api.ts';
import { enterLoaded, focusable, treeKey } from './tree-keys.ts';
import { initialTree, ROOT, type Row, selectionTarget, type TreeAction, type TreeState, treeReducer, visibleRows } from './tree-model.ts';
import { useAlarmRefresh } from './useAlarmRefresh.ts';

const ROW_HEIGHT = 30;
const OVERSCAN = 12;

/** Brings row `index` into the middle of the list when it is out of view; the rows drawn follow `onScroll`'s value. */
function scrollRowIntoView(el: HTMLElement, index: number, onScroll: (top: number) => void) {
  const top = index * ROW_HEIGHT;
  if (top >= el.scrollTop && top + ROW_HEIGHT <= el.scrollTop + el.clientHeight) return;
  el.scrollTop = Math.max(0, top - Math.floor(el.clientHeight / 2));
  onScroll(el.scrollTop);
}

/** The site a search result names beside a device (tree levels carry no site: their place says it). */
const siteOf = (node: object): string | null => ('siteName' in node && typeof node.siteName === 'string' ? node.siteName : null);

/**
 * SPEC 2.13: address levels → sites → devices, loaded a level at a time with 'Load More', a search, the footer
 * count and right-click menus; colours follow alarmStatus. Rows are virtualised: only the visible ones render.
 * A site chosen elsewhere (`assetId` in the address, set by the dashboards and the map) is revealed: its address
 * levels are opened, loaded as needed, and it is scrolled into view.
 */
export function AssetTree() {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [tree, dispatch] = useReducer(treeReducer, undefined, initialTree);
  const [found, dispatchFound] = useReducer(treeReducer, undefined, initialTree);
  const [input, setInput] = useState('');
  const searchText = useDebounced(input.trim(), ASSET_TREE.searchDebounceMs);
  const [searching, setSearching] = useState(false);
  const [menu, setMenu] = useState<{ node: TreeNode; x: number; y: number } | null>(null);
  const inSearch = searchText.length > 0;
  const state: TreeState = inSearch ? found : tree;
  const act = inSearch ? dispatchFound : dispatch;
  const stateRef = useRef(state);
  stateRef.current = state;
  const treeRef = useRef(tree);
  treeRef.current = tree;
  const client = useQueryClient();
  const chosenSite = Number(params.get('assetId')) || null;
  const [revealed, setRevealed] = useState<{ key: string } | null>(null);

  const load = useCallback(
    async (key: string, page: number) => {
      const current = stateRef.current.nodes[key];
      if (!current) return;
      act({ type: 'loading', key });
      try {
        const result = await fetchChildren(key, current.node, page);
        act({ type: 'loaded', key, page, ...result });
      } catch {
        act({ type: 'failed', key });
      }
    },
    [act],
  );

  useEffect(() => {
    void (async () => {
      dispatch({ type: 'loading', key: ROOT });
      try {
        const result = await fetchChildren(ROOT, initialTree().nodes[ROOT]?.node as TreeNode, 1);
        dispatch({ type: 'loaded', key: ROOT, page: 1, ...result });
      } catch {
        dispatch({ type: 'failed', key: ROOT });
      }
    })();
  }, []);

  useEffect(() => {
    if (!searchText) return;
    let cancelled = false;
    setSearching(true);
    searchTree(searchText)
      .then((res) => {
        if (cancelled) return;
        dispatchFound({ type: 'reset', nodes: [...res.sites, ...res.devices], siteCount: res.sites.length });
      })
      .catch(() => !cancelled && dispatchFound({ type: 'reset', nodes: [] }))
      .finally(() => !cancelled && setSearching(false));
    return () => {
      cancelled = true;
    };
  }, [searchText]);

  useEffect(() => {
    if (!chosenSite) return;
    let cancelled = false;
    // The reveal reads the tree between its own steps: it sees its actions at once, before React renders them.
    const dispatchSeen = (action: TreeAction) => {
      treeRef.current = treeReducer(treeRef.current, action);
      dispatch(action);
    };
    client
      .ensureQueryData(assetQuery(chosenSite))
      .then((asset) =>
        revealSite(asset.id, asset.address, {
          current: () => treeRef.current,
          dispatch: dispatchSeen,
          fetchChildren,
          cancelled: () => cancelled,
        }),
      )
      .then((key) => {
        if (key && !cancelled) setRevealed({ key });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [chosenSite, client]);

  useAlarmRefresh(tree, dispatch);

  const rows = useMemo(() => visibleRows(state), [state]);
  const selectedKey = params.get('deviceId')
    ? `device:${params.get('deviceId')}`
    : params.get('assetId')
      ? `asset:${params.get('assetId')}`
      : params.getAll('path').length
        ? `level:${JSON.stringify(params.getAll('path'))}`
        : null;

  const handleToggle = (row: Extract<Row, { kind: 'node' }>) => {
    const { state: s, key } = row;
    if (!s.node.children) return;
    if (s.expanded) act({ type: 'toggle', key, expanded: false });
    else if (s.children) act({ type: 'toggle', key, expanded: true });
    else void load(key, 1);
  };
  const handleSelect = (node: TreeNode) => {
    const target = selectionTarget(location.pathname, node);
    navigate({ pathname: target.pathname, search: target.search.toString() });
  };
  const handleContextMenu = (event: MouseEvent, node: TreeNode) => {
    if (node.nodeType === 'level') return;
    event.preventDefault();
    setMenu({ node, x: event.clientX, y: event.clientY });
  };

  const rootState = state.nodes[ROOT];
  const empty = !rootState?.loading && !searching && (rootState?.children?.length ?? 0) === 0;
  const rootLoading = Boolean(rootState?.loading) && (rootState?.children?.length ?? 0) === 0;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 210px)', minHeight: 320 }} data-testid="asset-tree">
      <TextField
        size="small"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        placeholder={`Search ${alias}`}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                {searching ? <CircularProgress size={16} /> : <SearchIcon fontSize="small" />}
              </InputAdornment>
            ),
          },
          htmlInput: { 'aria-label': `Search ${alias}`, 'data-testid': 'tree-search' },
        }}
        sx={{ mb: 1 }}
      />
      {empty ? (
        <Typography sx={{ p: 2, color: 'text.secondary' }} data-testid="tree-empty">
          {ASSET_MESSAGES.noData}
        </Typography>
      ) : rootLoading ? (
        // a tree holds tree items only: its first load is shown beside it, in its place
        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', pt: 2 }} data-testid="tree-loading">
          <CircularProgress size={20} aria-label={`Loading ${alias}s`} />
        </Box>
      ) : (
        <VirtualRows
          rows={rows}
          selectedKey={selectedKey}
          reveal={inSearch ? null : revealed}
          onToggle={handleToggle}
          onSelect={handleSelect}
          onMore={(parent) => {
            const s = state.nodes[parent];
            if (s && !s.loading) void load(parent, s.page + 1);
          }}
          onContextMenu={handleContextMenu}
        />
      )}
      <Typography
        variant="caption"
        sx={{ pt: 0.5, borderTop: 1, borderColor: 'divider', color: 'text.secondary' }}
        data-testid="tree-footer"
      >
        {`${alias}s - ${state.siteCount}`}
      </Typography>
      <TreeContextMenu menu={menu} onClose={() => setMenu(null)} viewMode={location.pathname.startsWith('/site-summary/v2-dashboard')} />
    </Box>
  );
}

/**
 * The tree itself (role=tree), of tree items only: where a level's children are loading it is busy (aria-busy) and
 * the ring drawn in their place is for the eye alone (a tree may own no progress bar); the expanding item's own
 * toggle shows the load to assistive technology.
 */
export function VirtualRows(props: {
  rows: Row[];
  selectedKey: string | null;
  /** A row to bring into view once (a new object for each reveal). */
  reveal: { key: string } | null;
  onToggle(row: Extract<Row, { kind: 'node' }>): void;
  onSelect(node: TreeNode): void;
  onMore(parent: string): void;
  onContextMenu(event: MouseEvent, node: TreeNode): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const revealedRef = useRef<{ key: string } | null>(null);
  const { reveal, rows } = props;
  useEffect(() => {
    const el = ref.current;
    if (!el || !reveal || revealedRef.current === reveal) return;
    const index = rows.findIndex((r) => r.key === reveal.key);
    if (index < 0) return;
    revealedRef.current = reveal;
    scrollRowIntoView(el, index, setScrollTop);
  }, [reveal, rows]);
  // One Tab stop: the active row (roving tabindex); the keys of the tree pattern move it (tree-keys.ts).
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const typed = useRef({ text: '', at: 0 });
  const moved = useRef(false);
  const current = focusable(rows).some((r) => r.key === activeKey) ? activeKey : (props.selectedKey ?? focusable(rows)[0]?.key ?? null);
  // The row the keys moved to takes the focus in the render that draws it, before the next key can arrive: scrolled
  // into view first where needed; a row far off is drawn, and focused, by the render that scroll asks for.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !moved.current || !current) return;
    const index = rows.findIndex((r) => r.key === current);
    if (index < 0) {
      moved.current = false;
      return;
    }
    scrollRowIntoView(el, index, setScrollTop);
    const target = el.querySelector<HTMLElement>(`[data-row="${CSS.escape(current)}"]`);
    if (!target) return;
    moved.current = false;
    target.focus();
  });
  // Right on a node whose children are loading enters the first of them once they are drawn, unless another key was
  // pressed or the focus left the node meanwhile (WAI-ARIA tree: Right on an open node moves to its first child).
  const entering = useRef<string | null>(null);
  useEffect(() => {
    const key = entering.current;
    if (!key) return;
    const next = enterLoaded(rows, key);
    if (next === 'waiting') return;
    entering.current = null;
    const row = ref.current?.querySelector(`[data-row="${CSS.escape(key)}"]`);
    if (!next || !row || row !== document.activeElement) return;
    moved.current = true;
    setActiveKey(next);
  }, [rows]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    entering.current = null;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    let text = '';
    if (event.key.length === 1 && event.key !== ' ') {
      const now = Date.now();
      typed.current = { text: (now - typed.current.at < 700 ? typed.current.text : '') + event.key, at: now };
      text = typed.current.text;
    }
    const action = treeKey(rows, current, event.key, text);
    if (!action) return;
    event.preventDefault();
    const row = rows.find((r) => r.key === action.key);
    if (action.kind === 'focus') {
      moved.current = true;
      setActiveKey(action.key);
    } else if (action.kind === 'enterWhenLoaded') {
      entering.current = action.key;
    } else if (row?.kind === 'node' && (action.kind === 'expand' || action.kind === 'collapse')) {
      props.onToggle(row);
    } else if (action.kind === 'activate') {
      if (row?.kind === 'node') props.onSelect(row.state.node);
      else if (row?.kind === 'loadMore') props.onMore(row.parent);
    }
  };
  const busy = rows.some((r) => r.kind === 'loading' || (r.kind === 'loadMore' && r.loading));
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(props.rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  return (
    <Box
      ref={ref}
      role="tree"
      aria-label="Asset tree"
      aria-busy={busy}
      onKeyDown={onKeyDown}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      sx={{ flex: 1, overflowY: 'auto', position: 'relative' }}
    >
      <Box sx={{ height: props.rows.length * ROW_HEIGHT, position: 'relative' }}>
        {props.rows.slice(first, last).map((row, i) => {
          const top = (first + i) * ROW_HEIGHT;
          const indent = row.depth * 16;
          if (row.kind === 'loading') {
            return (
              <Box
                key={row.key}
                aria-hidden
                data-testid="tree-row-loading"
                sx={{ position: 'absolute', top, left: indent + 28, height: ROW_HEIGHT, display: 'flex', alignItems: 'center' }}
              >
                <CircularProgress size={14} />
              </Box>
            );
          }
          if (row.kind === 'loadMore') {
            return (
              <Box
                key={row.key}
                component="button"
                type="button"
                role="treeitem"
                aria-level={row.depth + 1}
                tabIndex={current === row.key ? 0 : -1}
                data-row={row.key}
                onFocus={() => setActiveKey(row.key)}
                onClick={() => props.onMore(row.parent)}
                data-testid="tree-load-more"
                sx={{
                  position: 'absolute',
                  top,
                  left: indent + 28,
                  height: ROW_HEIGHT,
                  border: 0,
                  background: 'none',
                  color: 'primary.main',
                  cursor: 'pointer',
                  font: 'inherit',
                  fontSize: 13,
                  p: 0,
                }}
              >
                {row.loading ? 'Loading…' : 'Load More'}
              </Box>
            );
          }
          const { node } = row.state;
          const selected = props.selectedKey === row.key;
          return (
            <Box
              key={row.key}
              role="treeitem"
              aria-expanded={node.children ? row.state.expanded : undefined}
              aria-selected={selected}
              aria-level={row.depth + 1}
              aria-label={nameWithSite(node.text, siteOf(node))}
              tabIndex={current === row.key ? 0 : -1}
              data-row={row.key}
              onFocus={(e) => e.target === e.currentTarget && setActiveKey(row.key)}
              data-testid="tree-node"
              data-node={row.key}
              onContextMenu={(e) => props.onContextMenu(e, node)}
              sx={{
                position: 'absolute',
                top,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                display: 'flex',
                alignItems: 'center',
                pl: `${indent}px`,
                bgcolor: selected ? 'action.selected' : undefined,
                '&:hover': { bgcolor: 'action.hover' },
                '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
                whiteSpace: 'nowrap',
              }}
            >
              {node.children ? (
                <IconButton
                  size="small"
                  sx={{ p: 0.25 }}
                  aria-label={row.state.expanded ? `Collapse ${node.text}` : `Expand ${node.text}`}
                  tabIndex={-1}
                  onClick={() => props.onToggle(row)}
                  data-testid="tree-toggle"
                >
                  {row.state.loading ? (
                    <CircularProgress size={14} />
                  ) : row.state.expanded ? (
                    <ExpandMore fontSize="small" />
                  ) : (
                    <ChevronRight fontSize="small" />
                  )}
                </IconButton>
              ) : (
                <Box sx={{ width: 26, flexShrink: 0 }} />
              )}
              <Box
                component="button"
                type="button"
                tabIndex={-1}
                onClick={() => props.onSelect(node)}
                onDoubleClick={() => node.children && props.onToggle(row)}
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 0.75,
                  border: 0,
                  background: 'none',
                  p: 0,
                  cursor: 'pointer',
                  font: 'inherit',
                  color: 'text.primary',
                  minWidth: 0,
                }}
              >
                <NodeIcon node={node} depth={row.depth} />
                <Typography variant="body2" noWrap component="span" sx={{ fontWeight: node.nodeType === 'asset' ? 600 : 400 }}>
                  {/* a device found by search is named with its site: labels repeat at every site */}
                  <SiteNamed label={node.text} site={siteOf(node)} />
                </Typography>
                {node.nodeType === 'level' && node.count !== undefined ? (
                  <Typography variant="caption" color="text.secondary" component="span">
                    ({node.count})
                  </Typography>
                ) : null}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
