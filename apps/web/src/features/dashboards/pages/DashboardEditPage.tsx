import AddOutlined from '@mui/icons-material/AddOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import {
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  type DashboardConfig,
  type DashboardDetail,
  dashboardConfigSchema,
  type Widget,
} from '@sitewatch/contracts/dashboards';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { loadState } from '../../../components/LoadState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { toast } from '../../../lib/toasts.ts';
import { useDashboard, useFolders, useSaveDashboard } from '../api.ts';
import { AudienceFields } from '../components/AudienceFields.tsx';
import { messageOf } from '../components/errors.ts';
import { VersionsPanel } from '../components/VersionsPanel.tsx';
import { blankWidget, WidgetConfigDialog } from '../components/WidgetConfigDialog.tsx';
import { DashboardCanvas } from '../grid/DashboardCanvas.tsx';
import {
  addToLayouts,
  applyGridLayout,
  type Breakpoint,
  type GridLayouts,
  layoutsForSave,
  newWidgetId,
  removeFromLayouts,
} from '../grid/layout.ts';

interface EditorState {
  name: string;
  folderId: number | null;
  config: DashboardConfig;
  layouts: GridLayouts;
  src: string;
  external: boolean;
  widgets: Widget[];
}

const emptyState = (folderId: number | null): EditorState => ({
  name: '',
  folderId,
  config: dashboardConfigSchema.parse({}),
  layouts: { lg: [], sm: [] },
  src: '',
  external: false,
  widgets: [],
});

const stateOf = (d: DashboardDetail): EditorState => ({
  name: d.name,
  folderId: d.folder,
  config: d.config,
  layouts: { lg: d.layouts.lg, sm: d.layouts.sm },
  src: d.layouts.src ?? '',
  external: Boolean(d.layouts.src),
  widgets: d.widgets,
});

/** /dashboards/create and /dashboards/{id}/edit: the grid editor; every save stores a version. */
export function DashboardEditPage() {
  const { id: idParam } = useParams();
  const id = idParam ? Number(idParam) : null;
  const valid = id === null || (Number.isInteger(id) && id > 0);
  const dashboard = useDashboard(id ?? 0, id !== null && valid);
  if (id !== null) {
    const state = loadState(dashboard, { title: DASHBOARD_MESSAGES.notFound, back: { to: '/dashboards', label: 'Dashboards' } }, valid);
    if (state || !dashboard.data) return state;
    return <Editor key={`${dashboard.data.id}:${dashboard.data.version}`} id={id} initial={dashboard.data} />;
  }
  return <Editor id={null} initial={null} />;
}

function Editor({ id, initial }: { id: number | null; initial: DashboardDetail | null }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const folderParam = Number(params.get('folderId'));
  const [state, setState] = useState<EditorState>(() =>
    initial ? stateOf(initial) : emptyState(Number.isInteger(folderParam) && folderParam > 0 ? folderParam : null),
  );
  const [bp, setBp] = useState<Breakpoint>(() => (typeof window !== 'undefined' && window.innerWidth < 600 ? 'sm' : 'lg'));
  const [editing, setEditing] = useState<{ widget: Record<string, unknown> & { id: string; kind: Widget['kind'] }; isNew: boolean } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [dirty, setDirty] = useState(false);
  const folders = useFolders();
  const save = useSaveDashboard(id);
  const components = initial?.components ?? [];

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const update = (patch: Partial<EditorState>) => {
    setState((s) => ({ ...s, ...patch }));
    setDirty(true);
  };
  const ids = state.widgets.map((w) => w.id);
  const handleApplyWidget = (widget: Widget) => {
    setState((s) => {
      const exists = s.widgets.some((w) => w.id === widget.id);
      return exists
        ? { ...s, widgets: s.widgets.map((w) => (w.id === widget.id ? widget : w)) }
        : {
            ...s,
            widgets: [...s.widgets, widget],
            layouts: addToLayouts(
              s.widgets.map((w) => w.id),
              s.layouts,
              widget.id,
              widget.kind === 'latest' || widget.kind === 'ticketCounters' ? { w: 3, h: 5 } : { w: 6, h: 7 },
            ),
          };
    });
    setDirty(true);
    setEditing(null);
  };
  const handleRemove = (widget: Widget) => {
    setState((s) => ({ ...s, widgets: s.widgets.filter((w) => w.id !== widget.id), layouts: removeFromLayouts(s.layouts, widget.id) }));
    setDirty(true);
  };
  const handleSave = () => {
    setError(null);
    if (!state.name.trim()) return setError(DASHBOARD_MESSAGES.nameRequired);
    const layouts = layoutsForSave(ids, state.layouts);
    // a saved dashboard is refetched and replaces this editor: the answer is awaited, not a mount-bound callback
    save
      .mutateAsync({
        name: state.name.trim(),
        folderId: state.folderId,
        config: state.config,
        layouts: { ...layouts, src: state.external ? state.src.trim() || null : null },
        widgets: state.external ? [] : state.widgets,
      })
      .then(
        (saved) => {
          setDirty(false);
          toast.success(id === null ? DASHBOARD_MESSAGES.created : DASHBOARD_MESSAGES.updated);
          if (id === null) navigate(`/dashboards/${saved.id}/edit`, { replace: true });
        },
        (e: unknown) => setError(messageOf(e)),
      );
  };

  return (
    <Box data-testid="dashboard-editor">
      <PageHeader
        title={id === null ? 'Create dashboard' : `Edit ${initial?.name ?? ''}`}
        actions={
          <>
            {id !== null ? (
              <>
                <Button onClick={() => navigate(`/dashboards/${id}/view`)} data-testid="open-view">
                  View
                </Button>
                <Button startIcon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)} data-testid="open-versions">
                  Versions
                </Button>
              </>
            ) : null}
            <Button
              variant="contained"
              startIcon={<SaveOutlined />}
              onClick={handleSave}
              disabled={save.isPending}
              data-testid="dashboard-save"
            >
              Save
            </Button>
          </>
        }
      />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="editor-error">
          {error}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' } }}>
        <TextField
          label="Name"
          required
          value={state.name}
          onChange={(e) => update({ name: e.target.value })}
          slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.name, 'data-testid': 'dashboard-name' } }}
        />
        <TextField
          select
          label="Folder"
          value={state.folderId === null ? 'top' : String(state.folderId)}
          onChange={(e) => update({ folderId: e.target.value === 'top' ? null : Number(e.target.value) })}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'dashboard-folder' } as object } }}
        >
          <MenuItem value="top">Top level</MenuItem>
          {(folders.data?.contents ?? []).map((f) => (
            <MenuItem key={f.id} value={String(f.id)}>
              {f.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Type"
          value={state.config.type}
          onChange={(e) => update({ config: { ...state.config, type: e.target.value as DashboardConfig['type'] } })}
        >
          <MenuItem value="DASHBOARD">Dashboard</MenuItem>
          <MenuItem value="ANALYTICS">Analytics (shareable by link)</MenuItem>
        </TextField>
        <Box sx={{ gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={state.config.titleAsBreadCrumb}
                onChange={(e) => update({ config: { ...state.config, titleAsBreadCrumb: e.target.checked } })}
              />
            }
            label="Name as the last breadcrumb"
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={state.config.settings.showInMenu}
                onChange={(e) =>
                  update({ config: { ...state.config, settings: { ...state.config.settings, showInMenu: e.target.checked } } })
                }
              />
            }
            label="In the navigation"
          />
          {state.config.settings.showInMenu || state.config.settings.showOnHome ? (
            <AudienceFields
              settings={state.config.settings}
              onChange={(settings) => update({ config: { ...state.config, settings: { ...state.config.settings, ...settings } } })}
            />
          ) : null}
          <FormControlLabel
            control={
              <Checkbox
                checked={state.config.settings.showOnHome}
                onChange={(e) =>
                  update({ config: { ...state.config, settings: { ...state.config.settings, showOnHome: e.target.checked } } })
                }
                slotProps={{ input: { 'data-testid': 'dashboard-show-home' } as object }}
              />
            }
            label="On the home page"
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={state.external}
                onChange={(e) => update({ external: e.target.checked })}
                data-testid="dashboard-external"
              />
            }
            label="External page"
          />
        </Box>
        {state.external ? (
          <TextField
            sx={{ gridColumn: '1 / -1' }}
            label="Page address (https://)"
            value={state.src}
            onChange={(e) => update({ src: e.target.value })}
            slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.src, 'data-testid': 'dashboard-src' } }}
          />
        ) : null}
      </Paper>

      {state.external ? null : (
        <>
          <Box sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
            <Button
              variant="outlined"
              startIcon={<AddOutlined />}
              disabled={state.widgets.length >= DASHBOARD_LIMITS.widgets}
              onClick={() => setEditing({ widget: blankWidget(newWidgetId(ids), 'timeseries'), isNew: true })}
              data-testid="add-widget"
            >
              Add widget
            </Button>
            <ToggleButtonGroup size="small" exclusive value={bp} onChange={(_e, v: Breakpoint | null) => v && setBp(v)} aria-label="Layout">
              <ToggleButton value="lg" data-testid="layout-wide">
                Wide layout
              </ToggleButton>
              <ToggleButton value="sm" data-testid="layout-small">
                Small-screen layout
              </ToggleButton>
            </ToggleButtonGroup>
          </Box>
          {state.widgets.length === 0 ? (
            <Alert severity="info">Add widgets, then drag them by their title and resize them from the corner.</Alert>
          ) : (
            <Box sx={{ maxWidth: bp === 'sm' ? 420 : undefined, mx: bp === 'sm' ? 'auto' : undefined }}>
              <DashboardCanvas
                editing
                breakpoint={bp}
                widgets={state.widgets}
                layouts={state.layouts}
                components={components}
                sourceOf={(widget) => ({ kind: 'draft', widget })}
                onLayout={(items, at) => {
                  setState((s) => ({ ...s, layouts: applyGridLayout(s.layouts, items, at) }));
                  setDirty(true);
                }}
                onConfigure={(widget) => setEditing({ widget: { ...widget }, isNew: false })}
                onRemove={handleRemove}
              />
            </Box>
          )}
        </>
      )}
      {editing ? <WidgetConfigDialog initial={editing.widget} onSave={handleApplyWidget} onClose={() => setEditing(null)} /> : null}
      {id !== null && versionsOpen ? (
        <VersionsPanel dashboardId={id} current={initial?.version ?? 0} onClose={() => setVersionsOpen(false)} />
      ) : null}
    </Box>
  );
}
