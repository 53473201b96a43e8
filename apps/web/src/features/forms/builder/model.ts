import {
  FIELD_KEY,
  FORM_LIMITS,
  FORM_MESSAGES,
  type FormActions,
  type FormField,
  type FormFieldType,
  type FormMetadata,
  type FormTemplate,
  type FormTemplateInput,
  type UiElement,
} from '@sitewatch/contracts/forms';

export interface GroupItem {
  kind: 'group';
  id: string;
  label: string;
  description: string;
  placeholder: string;
  /** Fields and Groups, nested to FORM_LIMITS.groupDepth levels. */
  children: Item[];
}
export type Item = { kind: 'field'; key: string } | GroupItem;

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

function elementOf(item: Item): UiElement {
  return item.kind === 'field'
    ? control(item.key)
    : {
        type: 'Group',
        label: item.label || undefined,
        description: item.description || undefined,
        placeholder: item.placeholder || undefined,
        elements: item.children.map(elementOf),
      };
}

export function toInput(state: BuilderState): FormTemplateInput {
  const metadata: FormMetadata = {
    schema: {
      type: 'object',
      properties: state.properties,
      required: Object.keys(state.properties).filter((k) => state.properties[k]?.required),
    },
    uiSchema: { type: 'VerticalLayout', elements: state.items.map(elementOf) },
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
export const newGroup = (): GroupItem => ({
  kind: 'group',
  id: newGroupId(),
  label: 'Group',
  description: '',
  placeholder: '',
  children: [],
});

export function fromTemplate(t: FormTemplate): BuilderState {
  const required = new Set(t.metadata.schema.required);
  const properties = Object.fromEntries(
    Object.entries(t.metadata.schema.properties).map(([k, f]) => [k, { ...f, required: f.required || required.has(k) || undefined }]),
  );
  const placed = new Set<string>();
  const walk = (elements: UiElement[]): Item[] =>
    elements.flatMap((e): Item[] => {
      if (e.type === 'Control') {
        const key = e.scope.replace('#/properties/', '');
        if (!Object.hasOwn(properties, key) || placed.has(key)) return [];
        placed.add(key);
        return [{ kind: 'field', key }];
      }
      if (e.type === 'Group')
        return [
          {
            kind: 'group',
            id: newGroupId(),
            label: e.label ?? '',
            description: e.description ?? '',
            placeholder: e.placeholder ?? '',
            children: walk(e.elements),
          },
        ];
      return walk(e.elements);
    });
  const items = t.metadata.uiSchema ? walk([t.metadata.uiSchema]) : [];
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

/** The container of the top level; a group is the container of its children under its id. */
export const ROOT = 'root';

/** The canvas id of an item: a field's key, `group:<id>` for a group. */
export const itemId = (item: Item) => (item.kind === 'field' ? item.key : `group:${item.id}`);

export const BUILDER_MESSAGES = {
  intoItself: 'A group cannot go into itself or into a group it holds',
  tooDeep: FORM_MESSAGES.groupTooDeep,
} as const;

/** Where an item sits: its container (ROOT or a group id), its index there and how many groups hold it. */
export function containerOf(items: Item[], id: string): { container: string; index: number; depth: number } | null {
  const walk = (list: Item[], container: string, depth: number): { container: string; index: number; depth: number } | null => {
    for (const [index, item] of list.entries()) {
      if (itemId(item) === id) return { container, index, depth };
      if (item.kind === 'group') {
        const found = walk(item.children, item.id, depth + 1);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(items, ROOT, 0);
}

/** The item of a canvas id, at any depth. */
export function findItem(items: Item[], id: string): Item | undefined {
  for (const item of items) {
    if (itemId(item) === id) return item;
    if (item.kind === 'group') {
      const found = findItem(item.children, id);
      if (found) return found;
    }
  }
  return undefined;
}

export const findGroup = (items: Item[], groupId: string) => findItem(items, `group:${groupId}`) as GroupItem | undefined;

/** The items of a container (the top level or a group's children), or null when there is no such group. */
export function contentsOf(items: Item[], container: string): Item[] | null {
  return container === ROOT ? items : (findGroup(items, container)?.children ?? null);
}

/** Levels of groups an item brings: none for a field, 1 for a group of fields, 2 for a group holding a group… */
export function levelsOf(item: Item): number {
  return item.kind === 'field' ? 0 : 1 + Math.max(0, ...item.children.map(levelsOf));
}

/** The ids of everything inside a group at any depth (where it cannot be dropped). */
export function idsInside(group: GroupItem): string[] {
  return group.children.flatMap((child) => [itemId(child), ...(child.kind === 'group' ? idsInside(child) : [])]);
}

/** Why an item (in the form or new) cannot go into a container, or null when it can. */
export function placeProblem(items: Item[], item: Item, container: string): string | null {
  if (container === ROOT) return null;
  if (item.kind === 'group' && (item.id === container || idsInside(item).includes(`group:${container}`)))
    return BUILDER_MESSAGES.intoItself;
  const at = containerOf(items, `group:${container}`);
  if (!at) return 'That group is no longer in the form';
  // The target group is at level depth + 1; what comes in adds its own levels below it.
  return at.depth + 1 + levelsOf(item) > FORM_LIMITS.groupDepth ? BUILDER_MESSAGES.tooDeep : null;
}

/** A copy of the items with one container's list replaced; unchanged when the container is not there. */
function withContents(items: Item[], container: string, change: (list: Item[]) => Item[]): Item[] {
  if (container === ROOT) return change(items);
  let hit = false;
  const walk = (list: Item[]): Item[] =>
    list.map((item) => {
      if (item.kind !== 'group') return item;
      if (item.id === container) {
        hit = true;
        return { ...item, children: change(item.children) };
      }
      const children = walk(item.children);
      return children.some((c, i) => c !== item.children[i]) ? { ...item, children } : item;
    });
  const next = walk(items);
  return hit ? next : items;
}

/** Puts an item into a container at an index; the same items when it may not go there. */
export function insertItem(items: Item[], item: Item, container: string, index: number): Item[] {
  if (placeProblem(items, item, container)) return items;
  return withContents(items, container, (list) => [...list.slice(0, Math.max(0, index)), item, ...list.slice(Math.max(0, index))]);
}

/**
 * Moves a field or a group (with its contents) to a container at an index, the index counted once the item has
 * left its place. The same items when the move is refused: into itself or its own groups, or deeper than allowed.
 */
export function moveItem(items: Item[], id: string, target: string, index: number): Item[] {
  const from = containerOf(items, id);
  const moving = findItem(items, id);
  if (!from || !moving || placeProblem(items, moving, target)) return items;
  const without = withContents(items, from.container, (list) => list.filter((_, i) => i !== from.index));
  const next = insertItem(without, moving, target, index);
  return next === without ? items : next;
}

/** Updates one group wherever it is. */
export const updateGroup = (items: Item[], group: GroupItem): Item[] => {
  const at = containerOf(items, itemId(group));
  return at ? withContents(items, at.container, (list) => list.map((i, n) => (n === at.index ? group : i))) : items;
};

/** Takes a group away; what it held stays in the form, where the group was. */
export function removeGroup(items: Item[], groupId: string): Item[] {
  const at = containerOf(items, `group:${groupId}`);
  const group = findGroup(items, groupId);
  if (!at || !group) return items;
  return withContents(items, at.container, (list) => [...list.slice(0, at.index), ...group.children, ...list.slice(at.index + 1)]);
}

export function removeKey(items: Item[], key: string): Item[] {
  return items
    .filter((i) => !(i.kind === 'field' && i.key === key))
    .map((i) => (i.kind === 'group' ? { ...i, children: removeKey(i.children, key) } : i));
}

export function renameKey(items: Item[], from: string, to: string): Item[] {
  return items.map((i) =>
    i.kind === 'field' ? (i.key === from ? { ...i, key: to } : i) : { ...i, children: renameKey(i.children, from, to) },
  );
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
