import EditOutlined from '@mui/icons-material/EditOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import {
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  type DashboardComponent,
  WIDGET_KIND_LABELS,
  type Widget,
} from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { loadState } from '../../../components/LoadState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { useComponent, useSaveComponent } from '../api.ts';
import { messageOf } from '../components/errors.ts';
import { WidgetConfigDialog } from '../components/WidgetConfigDialog.tsx';
import { DashboardCanvas } from '../grid/DashboardCanvas.tsx';

const useComponentParam = () => {
  const { id } = useParams();
  const n = id === undefined ? null : Number(id);
  return { id: n, valid: n === null || (Number.isInteger(n) && n > 0) };
};

function Preview({ widget, size }: { widget: Widget; size: { w: number; h: number } }) {
  return (
    <DashboardCanvas
      widgets={[widget]}
      layouts={{ lg: [{ i: widget.id, x: 0, y: 0, w: size.w, h: size.h }], sm: [] }}
      components={[]}
      sourceOf={(w) => ({ kind: 'draft', widget: w })}
    />
  );
}

/** /dashboards/component/create and /{id}/edit: one widget kept once, placed on many dashboards. */
export function ComponentEditPage() {
  const { id, valid } = useComponentParam();
  const component = useComponent(id ?? 0, id !== null && valid);
  if (id !== null) {
    const state = loadState(
      component,
      { title: DASHBOARD_MESSAGES.componentNotFound, back: { to: '/dashboards?tab=components', label: 'Components' } },
      valid,
    );
    if (state || !component.data) return state;
    return <ComponentEditor key={component.data.updatedAt} id={id} initial={component.data} />;
  }
  return <ComponentEditor id={null} initial={null} />;
}

function ComponentEditor({ id, initial }: { id: number | null; initial: DashboardComponent | null }) {
  const navigate = useNavigate();
  const [name, setName] = useState(initial?.name ?? '');
  const [widget, setWidget] = useState<Widget | null>(initial?.widget ?? null);
  const [size, setSize] = useState(initial?.size ?? { w: 4, h: 6 });
  const [configuring, setConfiguring] = useState(initial === null);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveComponent(id);
  const handleSave = () => {
    setError(null);
    if (!name.trim()) return setError(DASHBOARD_MESSAGES.nameRequired);
    if (!widget) return setError('Configure the widget first');
    save.mutate(
      { name: name.trim(), widget, size },
      {
        onSuccess: (saved) => {
          toast.success(id === null ? DASHBOARD_MESSAGES.created : DASHBOARD_MESSAGES.updated);
          navigate(`/dashboards/component/${saved.id}/view`);
        },
        onError: (e) => setError(messageOf(e)),
      },
    );
  };
  return (
    <Box data-testid="component-editor">
      <PageHeader
        title={id === null ? 'Create component' : `Edit ${initial?.name ?? ''}`}
        actions={
          <>
            <Button onClick={() => setConfiguring(true)} data-testid="component-configure">
              Configure widget
            </Button>
            <Button
              variant="contained"
              startIcon={<SaveOutlined />}
              onClick={handleSave}
              disabled={save.isPending}
              data-testid="component-save"
            >
              Save
            </Button>
          </>
        }
      />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr 1fr' } }}>
        <TextField
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.name, 'data-testid': 'component-name' } }}
        />
        <TextField
          label="Width (columns)"
          type="number"
          value={size.w}
          onChange={(e) => setSize((s) => ({ ...s, w: Math.min(12, Math.max(1, Number(e.target.value) || 1)) }))}
        />
        <TextField
          label="Height (rows)"
          type="number"
          value={size.h}
          onChange={(e) => setSize((s) => ({ ...s, h: Math.min(48, Math.max(1, Number(e.target.value) || 1)) }))}
        />
      </Paper>
      {widget ? <Preview widget={widget} size={size} /> : <Alert severity="info">Configure the widget this component shows.</Alert>}
      {configuring ? (
        <WidgetConfigDialog
          allowComponent={false}
          initial={widget ? { ...widget } : { id: 'component', kind: 'timeseries', title: '' }}
          onSave={(w) => {
            setWidget(w);
            setConfiguring(false);
          }}
          onClose={() => setConfiguring(false)}
        />
      ) : null}
    </Box>
  );
}

/** /dashboards/component/{id}/view */
export function ComponentViewPage() {
  const { id, valid } = useComponentParam();
  const user = useUser();
  const component = useComponent(id ?? 0, valid);
  const state = loadState(
    component,
    { title: DASHBOARD_MESSAGES.componentNotFound, back: { to: '/dashboards?tab=components', label: 'Components' } },
    valid && id !== null,
  );
  if (state || !component.data) return state;
  const c = component.data;
  return (
    <Box data-testid="component-view">
      <PageHeader
        title={c.name}
        subtitle={`${WIDGET_KIND_LABELS[c.widget.kind]} · on ${c.usedBy} dashboards`}
        actions={
          can(user, 'change_dashboard') ? (
            <Button startIcon={<EditOutlined />} component={RouterLink} to={`/dashboards/component/${c.id}/edit`}>
              Edit
            </Button>
          ) : undefined
        }
      />
      <Preview widget={c.widget} size={c.size} />
    </Box>
  );
}
