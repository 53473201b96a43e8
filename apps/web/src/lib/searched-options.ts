import type { AutocompleteInputChangeReason } from '@mui/material/Autocomplete';
import { useEffect, useState } from 'react';

/**
 * An autocomplete whose options are searched on the server as the user types. Two rules keep a choice what it was on
 * a slow network:
 * - only the answer to the text in the field is offered: while a newer search is under way (its pause or its
 *   request), the list of an older search is not shown, so no one clicks an option that is about to be replaced
 *   under the pointer (the click then selected nothing, or the option now at that place);
 * - the chosen option is always among the options, whatever list arrives later, and choosing one does not search
 *   for its label (the field shows the label; the search stays the text the user typed).
 */

/**
 * The text to search after an input change. Only what the user types (or empties) is a search: the label MUI puts in
 * the field when an option is chosen, or puts back on blur, is not.
 */
export function searchAfter(current: string, value: string, reason: AutocompleteInputChangeReason): string {
  return reason === 'input' || value === '' ? value : current;
}

/**
 * The options to offer. `searched` is the text the list in hand answers (null: no answer yet, or one of an older
 * search); `typed` is the text searched now. Pending while they differ: then only the chosen option is offered.
 */
export function offeredOptions<T>(args: {
  typed: string;
  searched: string | null;
  list: readonly T[] | undefined;
  chosen: T | null;
  same(a: T, b: T): boolean;
}): { options: T[]; pending: boolean } {
  const pending = args.searched === null || args.searched !== args.typed;
  const answer = pending ? [] : [...(args.list ?? [])];
  const { chosen } = args;
  const options = chosen && !answer.some((o) => args.same(o, chosen)) ? [chosen, ...answer] : answer;
  return { options, pending };
}

/**
 * The input of a server-searched autocomplete: `input`/`onInputChange` for the field, `search` (debounced) for the
 * query, and `typed`, the text the options must answer (see `offeredOptions`).
 */
export function useSearchInput(debounceMs: number) {
  const [input, setInput] = useState('');
  const [typed, setTyped] = useState('');
  const trimmed = typed.trim();
  const [search, setSearch] = useState(trimmed);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(trimmed), debounceMs);
    return () => clearTimeout(timer);
  }, [trimmed, debounceMs]);
  return {
    input,
    search,
    typed: trimmed,
    onInputChange: (_event: unknown, value: string, reason: AutocompleteInputChangeReason) => {
      setInput(value);
      setTyped((current) => searchAfter(current, value, reason));
    },
  };
}
