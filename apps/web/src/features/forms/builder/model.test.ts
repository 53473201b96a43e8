import { checkTemplate, formMetadataSchema } from '@sitewatch/contracts/forms';
import { describe, expect, it } from 'vitest';
import { emptyState, fromTemplate, historyReducer, type Item, moveItem, newField, ROOT, toInput, uniqueKey } from './model.ts';

const items: Item[] = [
  { kind: 'field', key: 'a' },
  { kind: 'group', id: 'g1', label: 'G', description: '', placeholder: '', children: ['b'] },
  { kind: 'field', key: 'c' },
];

describe('builder model', () => {
  it('moves fields into and out of groups and keeps groups at the top level', () => {
    const into = moveItem(items, 'a', 'g1', 1);
    expect(into.map((i) => (i.kind === 'field' ? i.key : i.children))).toEqual([['b', 'a'], 'c']);
    const out = moveItem(items, 'b', ROOT, 0);
    expect(out[0]).toEqual({ kind: 'field', key: 'b' });
    expect(moveItem(items, 'group:g1', 'g1', 0)).toBe(items);
  });

  it('writes a sound template and reads it back', () => {
    const state = {
      ...emptyState(),
      name: 'audit',
      label: 'Audit',
      properties: { a: { ...newField('string'), required: true }, b: newField('radio'), c: newField('rating') },
      items,
    };
    const input = toInput(state);
    expect(input.metadata.schema.required).toEqual(['a']);
    expect(checkTemplate(formMetadataSchema.parse(input.metadata))).toEqual([]);
    const back = fromTemplate({
      ...input,
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
    } as never);
    expect(back.items.map((i) => (i.kind === 'field' ? i.key : i.children))).toEqual(['a', ['b'], 'c']);
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
