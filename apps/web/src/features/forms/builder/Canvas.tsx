import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDndContext,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import DragIndicator from '@mui/icons-material/DragIndicator';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { FORM_FIELD_TYPES, type FormFieldType } from '@sitewatch/contracts/forms';
import { type ReactNode, useMemo, useState } from 'react';
import {
  type BuilderState,
  containerOf,
  contentsOf,
  FIELD_LABELS,
  findGroup,
  findItem,
  type GroupItem,
  type Item,
  idsInside,
  itemId,
  moveItem,
  placeProblem,
  ROOT,
} from './model.ts';

export interface CanvasProps {
  state: BuilderState;
  selected: string | null;
  onSelect(id: string): void;
  onChange(state: BuilderState): void;
  onAdd(type: FormFieldType, container: string, index: number): void;
  onRemove(id: string): void;
  /** Saves an edited description at once (saved forms). */
  onDescription(key: string, description: string): void;
  /** A drop that is refused (a group into itself, or nested too deep), with the reason. */
  onRefuse(message: string): void;
}

/** The palette of the 16 field types: drag onto the form, or press to add at the end. */
export function Palette({ onAdd }: { onAdd(type: FormFieldType): void }) {
  return (
    <Box
      component="ul"
      aria-label="Field types"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: '1fr' }, gap: 0.75 }}
    >
      {FORM_FIELD_TYPES.map((type) => (
        <PaletteItem key={type} type={type} onAdd={onAdd} />
      ))}
    </Box>
  );
}

function PaletteItem({ type, onAdd }: { type: FormFieldType; onAdd(type: FormFieldType): void }) {
  const { listeners, setNodeRef, isDragging } = useDraggable({ id: `palette:${type}` });
  return (
    <Box component="li" ref={setNodeRef} sx={{ opacity: isDragging ? 0.5 : 1 }}>
      <Button
        fullWidth
        variant="outlined"
        size="small"
        // The button adds the field by keyboard; the handle drags it by pointer only, so it takes no Tab stop of its own.
        startIcon={<DragIndicator {...listeners} />}
        onClick={() => onAdd(type)}
        sx={{ justifyContent: 'flex-start' }}
        data-testid={`palette-${type}`}
      >
        {FIELD_LABELS[type]}
      </Button>
    </Box>
  );
}

function Sortable({
  id,
  name,
  frozen,
  children,
}: {
  id: string;
  /** What the move handle is called (screen readers). */
  name: string;
  /** Inside the group being dragged: no place to drop it. */
  frozen: boolean;
  children: (handle: ReactNode) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: frozen ? { draggable: false, droppable: true } : false,
  });
  const style = {
    transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
    transition,
    opacity: isDragging ? 0.5 : 1,
  };
  const handle = (
    <IconButton size="small" {...listeners} {...attributes} aria-label={`Move ${name}`} sx={{ cursor: 'grab' }}>
      <DragIndicator fontSize="small" />
    </IconButton>
  );
  return (
    <Box ref={setNodeRef} style={style} sx={{ mb: 1 }}>
      {children(handle)}
    </Box>
  );
}

function InlineDescription({ value, onSave, label }: { value: string; onSave(v: string): void; label: string }) {
  const [text, setText] = useState(value);
  return (
    <InputBase
      value={text}
      placeholder="Add a description"
      fullWidth
      inputProps={{ 'aria-label': `Description of ${label}` }}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => text !== value && onSave(text)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
      }}
      sx={{ fontSize: 13, color: 'text.secondary' }}
    />
  );
}

function FieldCard({ fieldKey, handle, props }: { fieldKey: string; handle: ReactNode; props: CanvasProps }) {
  const field = props.state.properties[fieldKey];
  if (!field) return null;
  const selected = props.selected === fieldKey;
  return (
    <Paper
      variant="outlined"
      onClick={() => props.onSelect(fieldKey)}
      sx={{
        p: 1,
        display: 'flex',
        gap: 1,
        alignItems: 'flex-start',
        borderColor: selected ? 'primary.main' : 'divider',
        borderWidth: selected ? 2 : 1,
      }}
      data-testid={`canvas-field-${fieldKey}`}
    >
      {handle}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Button size="small" onClick={() => props.onSelect(fieldKey)} sx={{ p: 0, minWidth: 0, textTransform: 'none', fontWeight: 600 }}>
          {field.label || fieldKey}
          {field.required ? ' *' : ''}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          {FIELD_LABELS[field.type]} · {fieldKey}
        </Typography>
        <InlineDescription
          key={field.description ?? ''}
          value={field.description ?? ''}
          label={field.label || fieldKey}
          onSave={(d) => props.onDescription(fieldKey, d)}
        />
      </Box>
      <IconButton size="small" aria-label={`Remove ${field.label || fieldKey}`} onClick={() => props.onRemove(fieldKey)}>
        <DeleteOutline fontSize="small" />
      </IconButton>
    </Paper>
  );
}

function GroupDrop({ id, empty, frozen, children }: { id: string; empty: string; frozen?: boolean; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: `drop:${id}`, disabled: frozen });
  return (
    <Box
      ref={setNodeRef}
      sx={{ minHeight: 48, p: 1, borderRadius: 1, border: 1, borderStyle: 'dashed', borderColor: isOver ? 'primary.main' : 'divider' }}
    >
      {children}
      {empty ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The form being built: fields and Groups (nested to FORM_LIMITS.groupDepth) in order, sortable and nestable by drag and drop or keyboard. */
export function useCanvas(props: CanvasProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const { items } = props.state;

  function handleDragEnd({ active, over }: DragEndEvent) {
    if (!over) return;
    const activeId = String(active.id);
    const overId = String(over.id);
    let target = ROOT;
    let index = items.length;
    if (overId.startsWith('drop:')) {
      // The empty end of a container: the item goes last in it.
      target = overId.slice(5);
      index = contentsOf(items, target)?.length ?? items.length;
    } else {
      const at = containerOf(items, overId);
      if (at) {
        target = at.container;
        index = at.index;
      }
    }
    if (activeId.startsWith('palette:')) {
      props.onAdd(activeId.slice(8) as FormFieldType, target, index);
      return;
    }
    if (activeId === overId) return;
    const moving = findItem(items, activeId);
    const problem = moving ? placeProblem(items, moving, target) : null;
    if (problem) {
      props.onRefuse(problem);
      return;
    }
    props.onChange({ ...props.state, items: moveItem(items, activeId, target, index) });
  }

  return { sensors, handleDragEnd, board: <Board {...props} /> };
}

function Board(props: CanvasProps) {
  const { items } = props.state;
  const { active } = useDndContext();
  const activeId = active ? String(active.id) : null;
  // While a group is dragged, nothing inside it takes the drop (a group never goes into itself): the items it
  // holds and the drop zones of it and of its groups are switched off.
  const frozen = useMemo(() => {
    const group = activeId?.startsWith('group:') ? findGroup(items, activeId.slice(6)) : undefined;
    if (!group) return new Set<string>();
    const inside = idsInside(group);
    return new Set([`drop:${group.id}`, ...inside, ...inside.filter((id) => id.startsWith('group:')).map((id) => `drop:${id.slice(6)}`)]);
  }, [items, activeId]);
  return (
    <GroupDrop id={ROOT} empty={items.length ? '' : 'Drag fields here, or press a field type to add it'}>
      <ItemList items={items} frozen={frozen} props={props} />
    </GroupDrop>
  );
}

function ItemList({ items, frozen, props }: { items: Item[]; frozen: Set<string>; props: CanvasProps }) {
  return (
    <SortableContext items={items.map(itemId)} strategy={verticalListSortingStrategy}>
      {items.map((item) => {
        const id = itemId(item);
        const name = item.kind === 'field' ? props.state.properties[item.key]?.label || item.key : `group ${item.label || 'Group'}`;
        return (
          <Sortable key={id} id={id} name={name} frozen={frozen.has(id)}>
            {(handle) =>
              item.kind === 'field' ? (
                <FieldCard fieldKey={item.key} handle={handle} props={props} />
              ) : (
                <GroupCard group={item} handle={handle} frozen={frozen} props={props} />
              )
            }
          </Sortable>
        );
      })}
    </SortableContext>
  );
}

function GroupCard({ group, handle, frozen, props }: { group: GroupItem; handle: ReactNode; frozen: Set<string>; props: CanvasProps }) {
  const id = itemId(group);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 1, borderColor: props.selected === id ? 'primary.main' : 'divider' }}
      onClick={(e) => {
        if (e.target === e.currentTarget) props.onSelect(id);
      }}
      data-testid="canvas-group"
      data-group-label={group.label}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        {handle}
        <Button size="small" onClick={() => props.onSelect(id)} sx={{ textTransform: 'none', fontWeight: 600 }}>
          {group.label || 'Group'}
        </Button>
        <Box sx={{ flex: 1 }} />
        <IconButton size="small" aria-label={`Remove group ${group.label}`} onClick={() => props.onRemove(id)}>
          <DeleteOutline fontSize="small" />
        </IconButton>
      </Box>
      <GroupDrop
        id={group.id}
        frozen={frozen.has(`drop:${group.id}`)}
        empty={group.children.length ? '' : group.placeholder || 'Drag fields into this group'}
      >
        <ItemList items={group.children} frozen={frozen} props={props} />
      </GroupDrop>
    </Paper>
  );
}

export { closestCenter, DndContext };
