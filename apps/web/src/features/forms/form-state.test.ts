import type { FormMetadata } from '@sitewatch/contracts/forms';
import { describe, expect, it, vi } from 'vitest';
import { createFormState } from './form-state.ts';

const metadata = {
  schema: {
    type: 'object',
    properties: {
      title: { type: 'string', label: 'Title' },
      count: { type: 'string', label: 'Count', inputType: 'number', validation: { kind: 'number', min: 0, max: 50 } },
      note: { type: 'string', label: 'Note' },
    },
    required: ['title'],
  },
} as unknown as FormMetadata;

describe('createFormState', () => {
  it('wakes only the listeners of the field that changed', () => {
    const state = createFormState(metadata, {});
    const title = vi.fn();
    const note = vi.fn();
    state.subscribe('title', title);
    state.subscribe('note', note);
    state.set('note', 'hello');
    expect(note).toHaveBeenCalledTimes(1);
    expect(title).not.toHaveBeenCalled();
    expect(state.get('note')).toBe('hello');
    // The same value again changes nothing.
    state.set('note', 'hello');
    expect(note).toHaveBeenCalledTimes(1);
  });

  it('shows a field error once the field is touched, and every error after a submit', () => {
    const state = createFormState(metadata, {});
    expect(state.error('title')).toBeUndefined();
    expect(state.hasShownErrors()).toBe(false);
    state.set('count', 99);
    expect(state.error('count')).toBe('Input Value cannot be greater than 50');
    expect(state.error('title')).toBeUndefined();
    expect(state.hasShownErrors()).toBe(true);
    state.set('count', 12);
    expect(state.error('count')).toBeUndefined();
    expect(state.hasShownErrors()).toBe(false);

    const title = vi.fn();
    const summary = vi.fn();
    state.subscribe('title', title);
    state.subscribeSummary(summary);
    expect(state.showAll()).toBe(false);
    expect(state.error('title')).toBe('Title is required');
    expect(title).toHaveBeenCalledTimes(1);
    expect(summary).toHaveBeenCalledTimes(1);
    state.set('title', 'Night audit');
    expect(state.hasShownErrors()).toBe(false);
    expect(summary).toHaveBeenCalledTimes(2);
    expect(state.showAll()).toBe(true);
  });

  it('tells the banner only when the form turns valid or invalid', () => {
    const state = createFormState(metadata, {});
    const summary = vi.fn();
    state.subscribeSummary(summary);
    state.set('count', 99);
    state.set('count', 98);
    state.set('note', 'x');
    expect(summary).toHaveBeenCalledTimes(1);
    state.set('count', undefined);
    expect(summary).toHaveBeenCalledTimes(2);
  });

  it('removes a field set to undefined and reports each change', () => {
    const onChange = vi.fn();
    const state = createFormState(metadata, { title: 'A' }, { onChange });
    const before = state.data();
    state.set('title', undefined);
    expect(state.data()).toEqual({});
    expect(before).toEqual({ title: 'A' });
    expect(onChange).toHaveBeenCalledWith('title');
  });

  it('checks values as the validation sees them, and keeps unknown keys as errors as the server would', () => {
    const state = createFormState(metadata, {}, { forValidation: (v) => (v === 'local' ? 'Draft' : v) });
    state.set('title', 'local');
    expect(state.error('title')).toBeUndefined();
    state.reset({ title: 'A', gone: 1 });
    expect(state.showAll()).toBe(false);
    expect(state.error('gone')).toBe('This field takes no value');
  });
});
