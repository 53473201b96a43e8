import { FORMAT_MESSAGES, type FormMetadata, validateField, validateResponse } from '@sitewatch/contracts/forms';

type Data = Record<string, unknown>;
type Listener = () => void;

/**
 * The answers of one open form, outside React and outside JSON Forms' state: a key press sets one field and wakes
 * only the control of that field (and the banner and Submit button when the form turns valid or invalid), so that
 * a 200-field form re-renders one control per key press. Each change re-checks that one field with the shared
 * validation module (`validateField`); the whole response is checked once when the form opens.
 */
export interface FormState {
  get(key: string): unknown;
  /** Sets a field (undefined removes it), marks it touched and re-checks it. */
  set(key: string, value: unknown): void;
  /** All answers; a new object after every change. */
  data(): Data;
  /** Replaces the answers (the draft and the pre-filled selects when the form opens); touches nothing. */
  reset(data: Data): void;
  /** The message shown under a field: its error once it has been touched or a submit was tried. */
  error(key: string): string | undefined;
  /** Whether any field shows an error (the banner and the disabled Submit button). */
  hasShownErrors(): boolean;
  /** Shows every error (a submit was tried); true when the response is valid. */
  showAll(): boolean;
  subscribe(key: string, listener: Listener): () => void;
  subscribeSummary(listener: Listener): () => void;
}

export interface FormStateOptions {
  /** The value as the validation sees it (pending local files count as attached). */
  forValidation?(value: unknown): unknown;
  /** Called after every change (the draft saver's dirty flag). */
  onChange?(key: string): void;
}

export function createFormState(metadata: FormMetadata, initial: Data, options: FormStateOptions = {}): FormState {
  const { properties, required } = metadata.schema;
  const asValidated = options.forValidation ?? ((v: unknown) => v);
  let data: Data = { ...initial };
  let errors: Record<string, string> = {};
  let touched: Set<string> | 'all' = new Set();
  let shownCount = 0;
  const listeners = new Map<string, Set<Listener>>();
  const summary = new Set<Listener>();

  const isShown = (key: string) => key in errors && (touched === 'all' || touched.has(key));
  const countShown = () => Object.keys(errors).filter(isShown).length;
  const checkAll = () => {
    errors = validateResponse(metadata, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, asValidated(v)])));
    shownCount = countShown();
  };
  const check = (key: string) => {
    const field = properties[key];
    const message = field ? validateField(key, field, asValidated(data[key]), required) : key in data ? FORMAT_MESSAGES.noValue : null;
    if (message === (errors[key] ?? null)) return;
    const next = { ...errors };
    if (message === null) delete next[key];
    else next[key] = message;
    errors = next;
  };
  const notify = (key: string) => {
    for (const l of listeners.get(key) ?? []) l();
  };
  const notifySummaryIfFlipped = (before: number) => {
    if (before > 0 !== shownCount > 0) for (const l of summary) l();
  };
  checkAll();

  return {
    get: (key) => data[key],
    set(key, value) {
      if (data[key] === value && (value !== undefined || !(key in data))) return;
      const next = { ...data };
      if (value === undefined) delete next[key];
      else next[key] = value;
      data = next;
      const wasShown = isShown(key);
      if (touched !== 'all' && !touched.has(key)) touched = new Set(touched).add(key);
      check(key);
      const before = shownCount;
      shownCount += (isShown(key) ? 1 : 0) - (wasShown ? 1 : 0);
      notify(key);
      notifySummaryIfFlipped(before);
      options.onChange?.(key);
    },
    data: () => data,
    reset(next) {
      const before = shownCount;
      data = { ...next };
      checkAll();
      for (const key of listeners.keys()) notify(key);
      notifySummaryIfFlipped(before);
    },
    error: (key) => (isShown(key) ? errors[key] : undefined),
    hasShownErrors: () => shownCount > 0,
    showAll() {
      if (touched !== 'all') {
        const hidden = Object.keys(errors).filter((k) => !isShown(k));
        touched = 'all';
        const before = shownCount;
        shownCount = countShown();
        for (const key of hidden) notify(key);
        notifySummaryIfFlipped(before);
      }
      return Object.keys(errors).length === 0;
    },
    subscribe(key, listener) {
      const set = listeners.get(key) ?? new Set<Listener>();
      listeners.set(key, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    subscribeSummary(listener) {
      summary.add(listener);
      return () => {
        summary.delete(listener);
      };
    },
  };
}
