import {
  FIELD_KEY,
  type FormActions,
  type FormField,
  type FormFieldType,
  type FormMetadata,
  type FormTemplate,
  type FormTemplateInput,
  type UiElement,
} from '@sitewatch/contracts/forms';

export type Item =
  | { kind: 'field'; key: string }
  | { kind: 'group'; id: string; label: string; description: string; placeholder: string; children: string[] };

export interface BuilderState {
  name: string;
  label: string;
  description: string;
  icon: string;
  views: string[];
  hideCancel: boolean;
  actions: FormActions;
  properties: Record<string, FormField>;
  items: Item[];
}

export const FIELD_LABELS: Record<FormFieldType, string> = {
  string: 'Text',
  assetApiSelect: 'Site select',
  deviceApiSelect: 'Device select',
  button: 'Buttons',
  toggle: 'Toggle',
  duration: 'Duration',
  radio: 'Radio',
  rating: 'Rating',
  dateTime: 'Date',
  randomid: 'Random ID',
  daterange: 'Date range',
  filerenderer: 'Files',
  time: 'Time',
  multiLevelSelect: 'Multi-level select',
  labelrenderer: 'Label',
  Group: 'Group',
};

export const emptyState = (): BuilderState => ({
  name: '',
  label: '',
  description: '',
  icon: '',
  views: [],
  hideCancel: false,
  actions: {},
  properties: {},
  items: [],
});

/** A new field of a type with what it needs to be valid (options for choices). */
export function newField(type: Exclude<FormFieldType, 'Group'>): FormField {
  const label = FIELD_LABELS[type];
  if (type === 'radio' || type === 'button') return { type, label, enum: ['Option 1', 'Option 2'] };
  if (type === 'multiLevelSelect') return { type, label, options: [{ label: 'Option 1', children: [{ label: 'Option 1.1' }] }] };
  if (type === 'rating') return { type, label, max: 5 };
  return { type, label };
}

export function uniqueKey(base: string, taken: Record<string, unknown>) {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '').replace(/^[^A-Za-z]+/, '') || 'field';
  let key = clean.charAt(0).toLowerCase() + clean.slice(1);
  let n = 1;
  while (key in taken || !FIELD_KEY.test(key)) key = `${clean}${++n}`;
  return key;
}

const control = (key: string): UiElement => ({ type: 'Control', scope: `#/properties/${key}` });

export function toInput(state: BuilderState): FormTemplateInput {
  const elements: UiElement[] = state.items.map((item) =>
    item.kind === 'field'
      ? control(item.key)
      : {
          type: 'Group',
          label: item.label || undefined,
          description: item.description || undefined,
          placeholder: item.placeholder || undefined,
          elements: item.children.map(control),
        },
  );
  const metadata: FormMetadata = {
    schema: {
      type: 'object',
      properties: state.properties,
      required: Object.keys(state.properties).filter((k) => state.properties[k]?.required),
    },
    uiSchema: { type: 'VerticalLayout', elements },
  };
  return {
    name: state.name.trim(),
    label: state.label.trim(),
    description: state.description,
    icon: state.icon,
    views: state.views,
    hideCancel: state.hideCancel,
    actions: state.actions,
    metadata,
  };
}

let groupSeq = 0;
export const newGroupId = () => `g${Date.now().toString(36)}${++groupSeq}`;

export function fromTemplate(t: FormTemplate): BuilderState {
  const required = new Set(t.metadata.schema.required);
  const properties = Object.fromEntries(
    Object.entries(t.metadata.schema.properties).map(([k, f]) => [k, { ...f, required: f.required || required.has(k) || undefined }]),
  );
  const items: Item[] = [];
  const placed = new Set<string>();
  const keyOf = (e: UiElement) => (e.type === 'Control' ? e.scope.replace('#/properties/', '') : null);
  const walk = (elements: UiElement[]) => {
    for (const e of elements) {
      const key = keyOf(e);
      if (key) {
        items.push({ kind: 'field', key });
        placed.add(key);
      } else if (e.type === 'Group') {
        const children = e.elements.map(keyOf).filter((k): k is string => Boolean(k));
        for (const k of children) placed.add(k);
        items.push({
          kind: 'group',
          id: newGroupId(),
          label: e.label ?? '',
          description: e.description ?? '',
          placeholder: e.placeholder ?? '',
          children,
        });
      } else if (e.type === 'VerticalLayout') walk(e.elements);
    }
  };
  if (t.metadata.uiSchema) walk([t.metadata.uiSchema]);
  for (const key of Object.keys(properties)) if (!placed.has(key)) items.push({ kind: 'field', key });
  return {
    name: t.name,
    label: t.label,
    description: t.description,
    icon: t.icon,
    views: t.views,
    hideCancel: t.hideCancel,
    actions: t.actions,
    properties,
    items,
  };
}

export const ROOT = 'root';

/** Where an item id sits: the root list or a group. */
export function containerOf(items: Item[], id: string): { container: string; index: number } | null {
  const top = items.findIndex((i) => (i.kind === 'field' ? i.key : `group:${i.id}`) === id);
  if (top >= 0) return { container: ROOT, index: top };
  for (const item of items) {
    if (item.kind !== 'group') continue;
    const index = item.children.indexOf(id);
    if (index >= 0) return { container: item.id, index };
  }
  return null;
}

/** Moves a field or group (groups only at the top level) to a container at an index. */
export function moveItem(items: Item[], id: string, target: string, index: number): Item[] {
  const from = containerOf(items, id);
  if (!from) return items;
  const isGroup = id.startsWith('group:');
  if (isGroup && target !== ROOT) return items;
  let moving: Item | null = null;
  let next = items.map((i) => (i.kind === 'group' ? { ...i, children: [...i.children] } : i));
  if (from.container === ROOT) {
    moving = next[from.index] ?? null;
    next.splice(from.index, 1);
  } else {
    const g = next.find((i) => i.kind === 'group' && i.id === from.container) as Extract<Item, { kind: 'group' }>;
    g.children.splice(from.index, 1);
    moving = { kind: 'field', key: id };
  }
  if (!moving) return items;
  if (target === ROOT) {
    next.splice(Math.min(index, next.length), 0, moving);
  } else {
    if (moving.kind !== 'field') return items;
    const g = next.find((i) => i.kind === 'group' && i.id === target) as Extract<Item, { kind: 'group' }> | undefined;
    if (!g) return items;
    g.children.splice(Math.min(index, g.children.length), 0, moving.key);
  }
  next = [...next];
  return next;
}

export function removeKey(items: Item[], key: string): Item[] {
  return items
    .filter((i) => !(i.kind === 'field' && i.key === key))
    .map((i) => (i.kind === 'group' ? { ...i, children: i.children.filter((k) => k !== key) } : i));
}

/** Undo and redo over whole builder states. */
export interface History {
  past: BuilderState[];
  present: BuilderState;
  future: BuilderState[];
}
export type HistoryAction =
  | { type: 'set'; state: BuilderState }
  | { type: 'reset'; state: BuilderState }
  | { type: 'undo' }
  | { type: 'redo' };

export function historyReducer(h: History, a: HistoryAction): History {
  switch (a.type) {
    case 'set':
      return a.state === h.present ? h : { past: [...h.past.slice(-99), h.present], present: a.state, future: [] };
    case 'reset':
      return { past: [], present: a.state, future: [] };
    case 'undo': {
      const prev = h.past.at(-1);
      return prev ? { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] } : h;
    }
    case 'redo': {
      const next = h.future[0];
      return next ? { past: [...h.past, h.present], present: next, future: h.future.slice(1) } : h;
    }
  }
}
