import Redo from '@mui/icons-material/Redo';
import Save from '@mui/icons-material/Save';
import Undo from '@mui/icons-material/Undo';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { FORM_MESSAGES, FORM_PERMISSIONS, type FormFieldType } from '@sitewatch/contracts/forms';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../../lib/http.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { useSaveTemplate, useTemplate } from '../api.ts';
import { closestCenter, DndContext, Palette, useCanvas } from './Canvas.tsx';
import {
  type BuilderState,
  emptyState,
  findGroup,
  fromTemplate,
  historyReducer,
  type Item,
  insertItem,
  newField,
  newGroup,
  placeProblem,
  ROOT,
  removeGroup,
  removeKey,
  renameKey,
  toInput,
  uniqueKey,
  updateGroup,
} from './model.ts';
import { Preview } from './Preview.tsx';
import { FieldProperties, GroupProperties } from './PropertyPanel.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';

/** forms/builder, forms/builder/{id}, form-builder: build a form, bind it to screens, preview, save, restore. */
export function BuilderPage() {
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const canBuild = permissionsOf(useUser()).has(FORM_PERMISSIONS.build);
  const template = useTemplate(id);
  if (!canBuild) return <EmptyState title="You cannot build forms" description="Ask an administrator for the form builder permission." />;
  if (id !== null && template.isPending) return <Skeleton variant="rounded" height={400} />;
  if (id !== null && !template.data) return <EmptyState title={FORM_MESSAGES.notFound} />;
  return (
    <Builder
      key={id ?? 'new'}
      id={id}
      initial={template.data ? fromTemplate(template.data) : emptyState()}
      version={template.data?.version ?? 0}
    />
  );
}

function Builder({ id, initial, version: loadedVersion }: { id: number | null; initial: BuilderState; version: number }) {
  const navigate = useNavigate();
  const [history, dispatch] = useReducer(historyReducer, { past: [], present: initial, future: [] });
  const state = history.present;
  const set = (next: BuilderState) => dispatch({ type: 'set', state: next });
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState(id ? 0 : 1);
  const [version, setVersion] = useState(loadedVersion);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveTemplate(id);
  const input = useMemo(() => toInput(state), [state]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z') return;
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea')) return;
      e.preventDefault();
      dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  function persist(next: BuilderState, message: string) {
    setError(null);
    save.mutate(
      { ...toInput(next), ...(id ? { version } : {}) },
      {
        onSuccess: (saved) => {
          toast.success(message);
          setVersion(saved.version);
          if (!id) navigate(`/forms/builder/${saved.id}`, { replace: true });
        },
        onError: (err) => setError((isHttpError(err) && detailOf(err.data)) || 'The form could not be saved; try again'),
      },
    );
  }

  function add(type: FormFieldType, container = ROOT, index = Number.MAX_SAFE_INTEGER) {
    const key = type === 'Group' ? null : uniqueKey(type, state.properties);
    const item: Item = key === null ? newGroup() : { kind: 'field', key };
    const problem = placeProblem(state.items, item, container);
    if (problem) {
      toast.warning(problem);
      return;
    }
    const items = insertItem(state.items, item, container, index);
    if (item.kind === 'group') {
      set({ ...state, items });
      setSelected(`group:${item.id}`);
    } else {
      set({ ...state, properties: { ...state.properties, [item.key]: newField(type as Exclude<FormFieldType, 'Group'>) }, items });
      setSelected(item.key);
    }
  }

  function remove(itemId: string) {
    if (itemId.startsWith('group:')) {
      // A removed group's fields and groups stay in the form, where the group was.
      set({ ...state, items: removeGroup(state.items, itemId.slice(6)) });
    } else {
      const { [itemId]: _gone, ...properties } = state.properties;
      set({ ...state, properties, items: removeKey(state.items, itemId) });
    }
    setSelected(null);
  }

  function rename(from: string, to: string) {
    const properties = Object.fromEntries(Object.entries(state.properties).map(([k, f]) => [k === from ? to : k, f]));
    set({ ...state, properties, items: renameKey(state.items, from, to) });
    setSelected(to);
  }

  function editDescription(key: string, description: string) {
    const field = state.properties[key];
    if (!field) return;
    const next = { ...state, properties: { ...state.properties, [key]: { ...field, description: description || undefined } } };
    set(next);
    if (id) persist(next, 'Successfully Updated');
  }

  const canvas = useCanvas({
    state,
    selected,
    onSelect: setSelected,
    onChange: set,
    onAdd: add,
    onRemove: remove,
    onDescription: editDescription,
    onRefuse: (message) => toast.warning(message),
  });
  const group = selected?.startsWith('group:') ? findGroup(state.items, selected.slice(6)) : undefined;
  const field = selected && !group ? state.properties[selected] : undefined;

  return (
    <>
      <PageHeader
        title={id ? `Edit form: ${state.label || state.name}` : 'New form'}
        subtitle={id ? `Version ${version}` : undefined}
        actions={
          <>
            <Tooltip title="Undo (Ctrl+Z)">
              <span>
                <IconButton aria-label="Undo" disabled={!history.past.length} onClick={() => dispatch({ type: 'undo' })}>
                  <Undo />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title="Redo (Ctrl+Shift+Z)">
              <span>
                <IconButton aria-label="Redo" disabled={!history.future.length} onClick={() => dispatch({ type: 'redo' })}>
                  <Redo />
                </IconButton>
              </span>
            </Tooltip>
            <Button
              variant="contained"
              startIcon={<Save />}
              disabled={save.isPending}
              onClick={() => persist(state, id ? 'Successfully Updated' : 'Successfully Created')}
            >
              Save
            </Button>
          </>
        }
      />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)} data-testid="builder-error">
          {error}
        </Alert>
      ) : null}
      <Tabs
        value={tab}
        onChange={(_e, v) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mb: 2 }}
        aria-label="Builder sections"
      >
        <Tab label="Fields" />
        <Tab label="Settings" />
        <Tab label="Preview" />
        {id ? <Tab label="Versions" /> : null}
      </Tabs>
      {tab === 0 ? (
        <DndContext sensors={canvas.sensors} collisionDetection={closestCenter} onDragEnd={canvas.handleDragEnd}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '180px 1fr 300px' }, alignItems: 'start' }}>
            <Paper variant="outlined" sx={{ p: 1 }}>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                Field types
              </Typography>
              <Palette onAdd={(type) => add(type)} />
            </Paper>
            <Box>{canvas.board}</Box>
            <Paper variant="outlined" sx={{ p: 2 }}>
              {field && selected ? (
                <FieldProperties
                  key={selected}
                  fieldKey={selected}
                  field={field}
                  taken={Object.keys(state.properties)}
                  onChange={(f) => set({ ...state, properties: { ...state.properties, [selected]: f } })}
                  onRename={(to) => rename(selected, to)}
                />
              ) : group ? (
                <GroupProperties group={group} onChange={(g) => set({ ...state, items: updateGroup(state.items, g) })} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Select a field to edit its properties
                </Typography>
              )}
            </Paper>
          </Box>
        </DndContext>
      ) : null}
      {tab === 1 ? <SettingsPanel state={state} onChange={set} nameLocked={false} /> : null}
      {tab === 2 ? (
        <Paper variant="outlined" sx={{ p: 2, maxWidth: 800 }}>
          <Preview metadata={input.metadata as never} label={state.label} description={state.description} />
        </Paper>
      ) : null}
      {tab === 3 && id ? (
        <VersionsPanel
          id={id}
          current={version}
          onRestored={(restored) => {
            dispatch({ type: 'reset', state: fromTemplate(restored) });
            setVersion(restored.version);
            setSelected(null);
          }}
        />
      ) : null}
    </>
  );
}
