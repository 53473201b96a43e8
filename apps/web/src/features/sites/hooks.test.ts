import { keepPreviousData, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { listLoading, listRefreshing } from './hooks.ts';

/** A list query as a screen holds it: the page asked for, the previous page kept while another one loads. */
function listQuery(placeholder: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  let answer: () => void = () => undefined;
  const options = (search: string) => ({
    queryKey: ['list', search],
    queryFn: () => new Promise<string>((resolve) => (answer = () => resolve(search))),
    ...(placeholder ? { placeholderData: keepPreviousData } : {}),
  });
  const observer = new QueryObserver(client, options(''));
  const unsubscribe = observer.subscribe(() => undefined);
  const state = () => observer.getCurrentResult();
  const search = (text: string) => observer.setOptions(options(text));
  const settle = async () => {
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { client, search, state, settle, unsubscribe };
}

describe('list loading', () => {
  it('shows the loading state on a first load and when the search changes, not while the rows shown refresh', async () => {
    const q = listQuery(true);
    expect(listLoading(q.state())).toBe(true);
    await q.settle();
    expect(q.state().data).toBe('');
    expect(listLoading(q.state())).toBe(false);
    expect(listRefreshing(q.state())).toBe(false);

    // a pushed change or Refresh: the rows shown stay as they are, a thin bar says they refresh
    void q.client.invalidateQueries({ queryKey: ['list'] });
    expect(q.state().isFetching).toBe(true);
    expect(listLoading(q.state())).toBe(false);
    expect(listRefreshing(q.state())).toBe(true);
    await q.settle();
    expect(listRefreshing(q.state())).toBe(false);

    // another search: the previous rows are kept as placeholder until the answer, under the loading state
    q.search('pump');
    expect(q.state().data).toBe('');
    expect(listLoading(q.state())).toBe(true);
    expect(listRefreshing(q.state())).toBe(false);
    await q.settle();
    expect(q.state().data).toBe('pump');
    expect(listLoading(q.state())).toBe(false);
    q.unsubscribe();
  });

  it('shows the loading state for a changed query that keeps no placeholder', async () => {
    const q = listQuery(false);
    await q.settle();
    q.search('pump');
    expect(q.state().isPending).toBe(true);
    expect(listLoading(q.state())).toBe(true);
    await q.settle();
    expect(listLoading(q.state())).toBe(false);
    q.unsubscribe();
  });
});
