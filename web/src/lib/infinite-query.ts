import { useCallback } from 'react';
import { resultOf, useCachedQuery, type InfiniteData, type InfiniteQueryOptions, type InfiniteQueryResult } from './query';

/**
 * A query loaded a page at a time (TanStack Query's `useInfiniteQuery`), in a module of its own:
 * only the pages that list call it, so it stays out of the first load (lib/query.ts).
 */
export function useInfiniteQuery<T, P>(options: InfiniteQueryOptions<T, P>): InfiniteQueryResult<T, P> {
  const { queryKey, queryFn, initialPageParam, getNextPageParam } = options;
  const page = (signal: AbortSignal, pageParam: P) => queryFn({ signal, queryKey, pageParam });
  const nextParam = (pages: T[]) => (pages.length ? getNextPageParam(pages[pages.length - 1]!, pages) : initialPageParam);
  // A refetch loads again every page loaded so far, from the first.
  const { query, state } = useCachedQuery<InfiniteData<T, P>>(
    queryKey,
    async (signal, q) => {
      const loaded = q.state.data?.pages.length || 1;
      const pages: T[] = [];
      const pageParams: P[] = [];
      // The first page's parameter may be undefined (the first page has no cursor); the next ones are not.
      for (let param: P | undefined | null = initialPageParam; ; param = nextParam(pages)) {
        pageParams.push(param as P);
        pages.push(await page(signal, param as P));
        if (pages.length >= loaded || nextParam(pages) == null) break;
      }
      return { pages, pageParams };
    },
    options,
  );
  const data = state.data;
  const next = data ? nextParam(data.pages) : undefined;
  const hasNextPage = next != null;
  const fetchNextPage = useCallback(() => {
    const current = query.state.data;
    const param = current ? nextParam(current.pages) : undefined;
    if (!current || param == null || !query.fetcher) return Promise.resolve();
    const { retry, staleTime } = query.fetcher;
    return query.fetch({ fetch: async (signal) => ({ pages: [...current.pages, await page(signal, param)], pageParams: [...current.pageParams, param] }), retry, staleTime }, true);
    // The options are read from the latest render, as the key selects the query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);
  return { ...resultOf(state, data, query), hasNextPage, isFetchingNextPage: state.fetchingNext, isFetchNextPageError: state.status === 'error' && state.nextFailed, fetchNextPage };
}
