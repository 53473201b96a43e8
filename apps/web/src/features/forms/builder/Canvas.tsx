import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
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
import { type ReactNode, useState } from 'react';
import { type BuilderState, containerOf, FIELD_LABELS, type Item, moveItem, ROOT } from './model.ts';

const idOf = (i: Item) => (i.kind === 'field' ? i.key : `group:${i.id}`);

export interface CanvasProps {
  state: BuilderState;
  selected: string | null;
  onSelect(id: string): void;
  onChange(state: BuilderState): void;
  onAdd(type: FormFieldType, container: string, index: number): void;
  onRemove(id: string): void;
  /** Saves an edited description at once (saved forms). */
  onDescription(key: string, description: string): void;
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
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `palette:${type}` });
  return (
    <Box component="li" ref={setNodeRef} sx={{ opacity: isDragging ? 0.5 : 1 }}>
      <Button
        fullWidth
        variant="outlined"
        size="small"
        startIcon={<DragIndicator {...listeners} {...attributes} aria-label={`Drag ${FIELD_LABELS[type]}`} />}
        onClick={() => onAdd(type)}
        sx={{ justifyContent: 'flex-start' }}
        data-testid={`palette-${type}`}
      >
        {FIELD_LABELS[type]}
      </Button>
    </Box>
  );
}

function Sortable({ id, children }: { id: string; children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  const style = {
    transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
    transition,
    opacity: isDragging ? 0.5 : 1,
  };
  const handle = (
    <IconButton size="small" {...listeners} {...attributes} aria-label={`Move ${id.replace('group:', 'group ')}`} sx={{ cursor: 'grab' }}>
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

function GroupDrop({ id, empty, children }: { id: string; empty: string; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: `drop:${id}` });
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

/** The form being built: fields and Groups in order, sortable and nestable by drag and drop or keyboard. */
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
      target = overId.slice(5);
      const g = items.find((i) => i.kind === 'group' && i.id === target);
      index = g && g.kind === 'group' ? g.children.length : items.length;
    } else {
      const at = containerOf(items, overId);
      if (at) {
        target = at.container;
        index = at.index;
      }
    }
    if (activeId.startsWith('palette:')) {
      const type = activeId.slice(8) as FormFieldType;
      props.onAdd(type, type === 'Group' ? ROOT : target, index);
      return;
    }
    if (activeId === overId) return;
    props.onChange({ ...props.state, items: moveItem(items, activeId, target, index) });
  }

  return { sensors, handleDragEnd, board: <Board {...props} /> };
}

function Board(props: CanvasProps) {
  const { items } = props.state;
  return (
    <GroupDrop id={ROOT} empty={items.length ? '' : 'Drag fields here, or press a field type to add it'}>
      <SortableContext items={items.map(idOf)} strategy={verticalListSortingStrategy}>
        {items.map((item) => (
          <Sortable key={idOf(item)} id={idOf(item)}>
            {(handle) =>
              item.kind === 'field' ? (
                <FieldCard fieldKey={item.key} handle={handle} props={props} />
              ) : (
                <Paper
                  variant="outlined"
                  sx={{ p: 1, borderColor: props.selected === `group:${item.id}` ? 'primary.main' : 'divider' }}
                  onClick={(e) => {
                    if (e.target === e.currentTarget) props.onSelect(`group:${item.id}`);
                  }}
                  data-testid="canvas-group"
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
                    {handle}
                    <Button size="small" onClick={() => props.onSelect(`group:${item.id}`)} sx={{ textTransform: 'none', fontWeight: 600 }}>
                      {item.label || 'Group'}
                    </Button>
                    <Box sx={{ flex: 1 }} />
                    <IconButton size="small" aria-label={`Remove group ${item.label}`} onClick={() => props.onRemove(`group:${item.id}`)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Box>
                  <GroupDrop id={item.id} empty={item.children.length ? '' : item.placeholder || 'Drag fields into this group'}>
                    <SortableContext items={item.children} strategy={verticalListSortingStrategy}>
                      {item.children.map((key) => (
                        <Sortable key={key} id={key}>
                          {(h) => <FieldCard fieldKey={key} handle={h} props={props} />}
                        </Sortable>
                      ))}
                    </SortableContext>
                  </GroupDrop>
                </Paper>
              )
            }
          </Sortable>
        ))}
      </SortableContext>
    </GroupDrop>
  );
}

export { closestCenter, DndContext };
