import { checkTemplate, FORM_LIMITS, formMetadataSchema } from '@sitewatch/contracts/forms';
import { describe, expect, it } from 'vitest';
import {
  BUILDER_MESSAGES,
  containerOf,
  emptyState,
  fromTemplate,
  type GroupItem,
  historyReducer,
  type Item,
  insertItem,
  levelsOf,
  moveItem,
  newField,
  placeProblem,
  ROOT,
  removeGroup,
  removeKey,
  renameKey,
  toInput,
  uniqueKey,
  updateGroup,
} from './model.ts';

const field = (key: string): Item => ({ kind: 'field', key });
const group = (id: string, children: Item[]): GroupItem => ({
  kind: 'group',
  id,
  label: id.toUpperCase(),
  description: '',
  placeholder: '',
  children,
});

/** The items as a nested list: a field by its key, a group as [id, ...children]. */
type Shape = string | Shape[];
const shape = (items: Item[]): Shape[] => items.map((i) => (i.kind === 'field' ? i.key : [i.id, ...shape(i.children)]));

const items: Item[] = [field('a'), group('g1', [field('b')]), field('c')];
/** a, g1 [b, g2 [d]], c, g3 [e] */
const nested: Item[] = [field('a'), group('g1', [field('b'), group('g2', [field('d')])]), field('c'), group('g3', [field('e')])];
/** A chain of groups l1 … l{depth}, the last holding field x. */
const chain = (depth: number): Item[] => {
  let inner: Item[] = [field('x')];
  for (let level = depth; level >= 1; level--) inner = [group(`l${level}`, inner)];
  return inner;
};

const template = (state: ReturnType<typeof emptyState>) =>
  ({
    ...toInput(state),
    id: 1,
    version: 1,
    responseCount: 0,
    createdAt: '',
    updatedAt: '',
    description: '',
    icon: '',
    views: [],
    actions: {},
    hideCancel: false,
  }) as never;

describe('builder model', () => {
  it('moves fields into and out of groups', () => {
    expect(shape(moveItem(items, 'a', 'g1', 1))).toEqual([['g1', 'b', 'a'], 'c']);
    expect(shape(moveItem(items, 'b', ROOT, 0))).toEqual(['b', 'a', ['g1'], 'c']);
    // Within one list the index counts once the item has left its place (as dnd-kit's arrayMove).
    expect(shape(moveItem(items, 'a', ROOT, 2))).toEqual([['g1', 'b'], 'c', 'a']);
  });

  it('nests a group in a group and moves it with its contents, at any depth', () => {
    const into = moveItem(nested, 'group:g3', 'g2', 0);
    expect(shape(into)).toEqual(['a', ['g1', 'b', ['g2', ['g3', 'e'], 'd']], 'c']);
    expect(containerOf(into, 'e')).toEqual({ container: 'g3', index: 0, depth: 3 });
    // g1 with everything it holds goes to the end, then comes back out of a group.
    const moved = moveItem(into, 'group:g1', ROOT, 2);
    expect(shape(moved)).toEqual(['a', 'c', ['g1', 'b', ['g2', ['g3', 'e'], 'd']]]);
    expect(shape(moveItem(moved, 'group:g3', ROOT, 0))).toEqual([['g3', 'e'], 'a', 'c', ['g1', 'b', ['g2', 'd']]]);
    expect(shape(insertItem(nested, group('new', []), 'g2', 1))).toEqual(['a', ['g1', 'b', ['g2', 'd', ['new']]], 'c', ['g3', 'e']]);
    // The moved item is the same object: its contents are not copied apart.
    expect(moveItem(nested, 'group:g2', ROOT, 0)[0]).toBe((nested[1] as GroupItem).children[1]);
  });

  it('never puts a group into itself or a group it holds', () => {
    expect(moveItem(nested, 'group:g1', 'g1', 0)).toBe(nested);
    expect(moveItem(nested, 'group:g1', 'g2', 0)).toBe(nested);
    expect(placeProblem(nested, nested[1] as Item, 'g2')).toBe(BUILDER_MESSAGES.intoItself);
    expect(placeProblem(nested, nested[1] as Item, 'g1')).toBe(BUILDER_MESSAGES.intoItself);
    expect(placeProblem(nested, nested[1] as Item, 'g3')).toBeNull();
    expect(moveItem(nested, 'group:g2', 'nowhere', 0)).toBe(nested);
    expect(moveItem(nested, 'nothing', ROOT, 0)).toBe(nested);
  });

  it(`nests groups at most ${FORM_LIMITS.groupDepth} levels deep`, () => {
    const full = chain(FORM_LIMITS.groupDepth);
    expect(levelsOf(full[0] as Item)).toBe(FORM_LIMITS.groupDepth);
    const deepest = `l${FORM_LIMITS.groupDepth}`;
    // A field fits at the deepest level, a group does not.
    expect(placeProblem(full, field('y'), deepest)).toBeNull();
    expect(placeProblem(full, group('extra', []), deepest)).toBe(BUILDER_MESSAGES.tooDeep);
    expect(insertItem(full, group('extra', []), deepest, 0)).toBe(full);
    // A group holding a group (2 levels) fits under level 3, not under level 4.
    const withPair: Item[] = [...chain(FORM_LIMITS.groupDepth - 1), group('p', [group('q', [])])];
    expect(moveItem(withPair, 'group:p', `l${FORM_LIMITS.groupDepth - 1}`, 0)).toBe(withPair);
    const fits = moveItem(withPair, 'group:p', `l${FORM_LIMITS.groupDepth - 2}`, 0);
    expect(fits).not.toBe(withPair);
    expect(containerOf(fits, 'group:q')?.depth).toBe(FORM_LIMITS.groupDepth - 1);
    expect(BUILDER_MESSAGES.tooDeep).toBe(`Groups can be nested at most ${FORM_LIMITS.groupDepth} levels deep`);
  });

  it('removes a group keeping what it held in its place, and removes, renames and edits at any depth', () => {
    expect(shape(removeGroup(nested, 'g1'))).toEqual(['a', 'b', ['g2', 'd'], 'c', ['g3', 'e']]);
    expect(shape(removeGroup(nested, 'g2'))).toEqual(['a', ['g1', 'b', 'd'], 'c', ['g3', 'e']]);
    expect(shape(removeKey(nested, 'd'))).toEqual(['a', ['g1', 'b', ['g2']], 'c', ['g3', 'e']]);
    expect(shape(renameKey(nested, 'd', 'dd'))).toEqual(['a', ['g1', 'b', ['g2', 'dd']], 'c', ['g3', 'e']]);
    const g2 = (nested[1] as GroupItem).children[1] as GroupItem;
    const edited = updateGroup(nested, { ...g2, label: 'Inner' });
    expect(((edited[1] as GroupItem).children[1] as GroupItem).label).toBe('Inner');
    expect(edited[3]).toBe(nested[3]);
  });

  it('writes a sound template with nested groups and reads it back', () => {
    const state = {
      ...emptyState(),
      name: 'audit',
      label: 'Audit',
      properties: {
        a: { ...newField('string'), required: true },
        b: newField('radio'),
        c: newField('rating'),
        d: newField('toggle'),
        e: newField('time'),
      },
      items: nested,
    };
    const input = toInput(state);
    expect(input.metadata.schema.required).toEqual(['a']);
    expect(input.metadata.uiSchema).toEqual({
      type: 'VerticalLayout',
      elements: [
        { type: 'Control', scope: '#/properties/a' },
        {
          type: 'Group',
          label: 'G1',
          elements: [
            { type: 'Control', scope: '#/properties/b' },
            { type: 'Group', label: 'G2', elements: [{ type: 'Control', scope: '#/properties/d' }] },
          ],
        },
        { type: 'Control', scope: '#/properties/c' },
        { type: 'Group', label: 'G3', elements: [{ type: 'Control', scope: '#/properties/e' }] },
      ],
    });
    expect(checkTemplate(formMetadataSchema.parse(input.metadata))).toEqual([]);
    const back = fromTemplate(template(state));
    expect(shape(back.items).map((s) => (Array.isArray(s) ? s.slice(1) : s))).toEqual(['a', ['b', [expect.any(String), 'd']], 'c', ['e']]);
    expect(toInput(back).metadata.uiSchema).toEqual(input.metadata.uiSchema);
    // The deepest layout the builder makes passes the server's check.
    const deep = toInput({ ...state, properties: { x: newField('string') }, items: chain(FORM_LIMITS.groupDepth) });
    expect(checkTemplate(formMetadataSchema.parse(deep.metadata))).toEqual([]);
  });

  it('undoes and redoes', () => {
    const a = emptyState();
    const b = { ...a, label: 'x' };
    let h = historyReducer({ past: [], present: a, future: [] }, { type: 'set', state: b });
    h = historyReducer(h, { type: 'undo' });
    expect(h.present).toBe(a);
    h = historyReducer(h, { type: 'redo' });
    expect(h.present).toBe(b);
  });

  it('makes unique keys', () => {
    expect(uniqueKey('rating', { rating: 1 })).toBe('rating2');
    expect(uniqueKey('assetApiSelect', {})).toBe('assetApiSelect');
  });
});
