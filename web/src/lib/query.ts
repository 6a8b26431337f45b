import { createContext, createElement, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';

/**
 * Server state for components: answers cached by key (queries) and calls that change data
 * (mutations). It offers the part of TanStack Query's API the app uses, with the same names and
 * meanings, in a small fraction of its size: the home route's first load has a budget, so the
 * hooks only other pages call live in modules of their own (useMutation in mutation.ts,
 * useInfiniteQuery in infinite-query.ts).
 * - A query fetches when a component uses it and it has no answer yet, or its answer is older
 *   than `staleTime` or was invalidated; callers of one key share one request.
 * - Failures retry with a growing delay (1 s, 2 s, 4 s... at most 30 s) while `retry` allows.
 * - Offline, requests wait for the network instead of failing; back online, the stale queries
 *   that components show fetch again.
 * - A refetched answer keeps the objects of the previous one that did not change, so effects
 *   that watch them do not run again for an equal answer.
 * - An answer no component has used for five minutes is dropped.
 * - Mutations with the same `scope.id` run one after another, in the order they were called.
 */

export type QueryKey = readonly unknown[];
export type Retry = boolean | number | ((failureCount: number, error: unknown) => boolean);

type Status = 'pending' | 'error' | 'success';

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  status: Status;
  /** A request is under way (or waiting for the network). */
  fetching: boolean;
  /** The request under way loads the next page of an infinite query. */
  fetchingNext: boolean;
  /** The last request, for the next page of an infinite query, failed. */
  nextFailed: boolean;
  updatedAt: number;
  invalidated: boolean;
}

export interface QueryFunctionContext<P = unknown> {
  signal: AbortSignal;
  queryKey: QueryKey;
  pageParam: P;
}

export interface QueryOptions<TQueryFnData, TData = TQueryFnData> {
  queryKey: QueryKey;
  queryFn: (context: QueryFunctionContext) => Promise<TQueryFnData>;
  enabled?: boolean;
  staleTime?: number;
  retry?: Retry;
  select?: (data: TQueryFnData) => TData;
  /** Asks again whenever the answer (however it came) is this old. */
  refetchInterval?: number | false | ((query: Query<TQueryFnData>) => number | false);
  /** The answer before any request (a function is called once, when the key is first used). */
  initialData?: TQueryFnData | (() => TQueryFnData | undefined);
}

interface QueryResultBase {
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<void>;
}

/** A query's state for a component: the status tells whether `data` is there. */
export type QueryResult<TData> = QueryResultBase &
  (
    | { status: 'pending'; data: undefined; isPending: true; isSuccess: false; isError: false }
    | { status: 'success'; data: TData; isPending: false; isSuccess: true; isError: false }
    | { status: 'error'; data: TData | undefined; isPending: false; isSuccess: false; isError: true }
  );

export interface InfiniteData<T, P = unknown> {
  pages: T[];
  pageParams: P[];
}

export interface InfiniteQueryOptions<T, P> {
  queryKey: QueryKey;
  queryFn: (context: QueryFunctionContext<P>) => Promise<T>;
  initialPageParam: P;
  getNextPageParam: (lastPage: T, pages: T[]) => P | undefined | null;
  enabled?: boolean;
  staleTime?: number;
  retry?: Retry;
}

export type InfiniteQueryResult<T, P> = QueryResult<InfiniteData<T, P>> & {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The last request, for the next page, failed (the pages before it are still there). */
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<void>;
};

export interface MutationOptions<TData, TVariables, TContext = unknown> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  onMutate?: (variables: TVariables) => TContext | Promise<TContext>;
  onSuccess?: (data: TData, variables: TVariables, context: TContext | undefined) => unknown;
  onError?: (error: unknown, variables: TVariables, context: TContext | undefined) => unknown;
  onSettled?: (data: TData | undefined, error: unknown, variables: TVariables, context: TContext | undefined) => unknown;
  retry?: Retry;
  /** Mutations of one scope run one after another. */
  scope?: { id: string };
}

/** What one `mutate` call also does when it ends, if it is still the component's latest. */
export interface MutateCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (error: unknown, variables: TVariables) => void;
  onSettled?: (data: TData | undefined, error: unknown, variables: TVariables) => void;
}

export interface MutationResult<TData, TVariables> {
  data: TData | undefined;
  error: unknown;
  status: 'idle' | Status;
  variables: TVariables | undefined;
  isIdle: boolean;
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  mutate: (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables>) => void;
  mutateAsync: (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables>) => Promise<TData>;
  reset: () => void;
}

interface Filters {
  queryKey?: QueryKey;
  predicate?: (query: Query) => boolean;
}

interface DefaultOptions {
  queries?: { staleTime?: number; retry?: Retry };
  mutations?: { retry?: Retry };
}

const GC_MS = 5 * 60_000;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** A key's identity: its JSON, object keys sorted (so `{a, b}` and `{b, a}` are one key). */
export const hashKey = (key: QueryKey): string =>
  JSON.stringify(key, (_, value: unknown) =>
    isPlainObject(value) ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]])) : value,
  );

/** `filter` is a prefix of `key`, objects matching on the fields `filter` gives. */
function partialMatch(key: unknown, filter: unknown): boolean {
  if (key === filter) return true;
  if (typeof key !== 'object' || typeof filter !== 'object' || !key || !filter) return false;
  return Object.keys(filter).every((k) => partialMatch((key as Record<string, unknown>)[k], (filter as Record<string, unknown>)[k]));
}

/** `next`, with every part equal to `prev`'s replaced by `prev`'s own object. */
export function replaceEqualDeep<T>(prev: unknown, next: T): T {
  if (prev === next) return prev as T;
  const arrays = Array.isArray(prev) && Array.isArray(next);
  if (!arrays && !(isPlainObject(prev) && isPlainObject(next))) return next;
  const a = prev as Record<string, unknown>;
  const b = next as Record<string, unknown>;
  const keys = Object.keys(b);
  const copy = (arrays ? [] : {}) as Record<string, unknown>;
  let equal = keys.length === Object.keys(a).length;
  for (const k of keys) {
    copy[k] = replaceEqualDeep(a[k], b[k]);
    if (copy[k] !== a[k] || !(k in a)) equal = false;
  }
  return (equal ? prev : copy) as T;
}

const retries = (retry: Retry | undefined, failureCount: number, error: unknown) =>
  typeof retry === 'function' ? retry(failureCount, error) : retry === true || (typeof retry === 'number' && failureCount < retry);

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;
const whenOnline = () => (online() ? undefined : new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true })));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` until it succeeds or `retry` says stop; waits for the network first. */
async function withRetry<T>(fn: () => Promise<T>, retry: Retry | undefined, aborted: () => boolean): Promise<T> {
  for (let failures = 0; ; failures++) {
    await whenOnline();
    try {
      return await fn();
    } catch (error) {
      if (aborted() || !retries(retry, failures, error)) throw error;
      await sleep(Math.min(1000 * 2 ** failures, 30_000));
    }
  }
}

/** How components fetch a query: the latest one's settings win. */
interface Fetcher<T> {
  fetch: (signal: AbortSignal, query: Query<T>) => Promise<T>;
  retry: Retry | undefined;
  staleTime: number;
}

/** One cached answer and the components that show it. */
export class Query<T = unknown> {
  state: QueryState<T>;
  /** The request under way, if any. */
  promise: Promise<void> | undefined;
  fetcher: Fetcher<T> | undefined;
  private abort: AbortController | undefined;
  private listeners = new Set<() => void>();
  private gcTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    readonly queryKey: QueryKey,
    readonly hash: string,
    initialData: T | undefined,
  ) {
    const has = initialData !== undefined;
    this.state = { data: initialData, error: null, status: has ? 'success' : 'pending', fetching: false, fetchingNext: false, nextFailed: false, updatedAt: has ? Date.now() : 0, invalidated: false };
    this.scheduleGc();
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    clearTimeout(this.gcTimer);
    return () => {
      this.listeners.delete(listener);
      this.scheduleGc();
    };
  };

  readonly getState = () => this.state;

  get active(): boolean {
    return this.listeners.size > 0;
  }

  setState(patch: Partial<QueryState<T>>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }

  isStale(staleTime: number): boolean {
    return this.state.status !== 'success' || this.state.invalidated || Date.now() - this.state.updatedAt >= staleTime;
  }

  /** Fetches with `fetcher` (or the components' own), unless a request is already under way. */
  fetch(fetcher: Fetcher<T> | undefined = this.fetcher, next = false): Promise<void> {
    if (this.promise) return this.promise;
    if (!fetcher) return Promise.resolve();
    const abort = new AbortController();
    this.abort = abort;
    this.setState({ fetching: true, fetchingNext: next });
    const attempt = async () => {
      const data = await fetcher.fetch(abort.signal, this);
      // "No answer yet" is how a pending query looks: an answer must be a value (null for none).
      if (data === undefined) throw new Error(`The query ${this.hash} answered undefined`);
      return data;
    };
    const run = withRetry(attempt, fetcher.retry, () => abort.signal.aborted).then(
      (data) => {
        if (abort.signal.aborted) return;
        this.setState({ data: replaceEqualDeep(this.state.data, data), error: null, status: 'success', nextFailed: false, updatedAt: Date.now(), invalidated: false });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) this.setState({ error, status: 'error', nextFailed: next });
      },
    );
    const promise = run.finally(() => {
      if (this.abort !== abort) return;
      this.abort = undefined;
      this.promise = undefined;
      this.setState({ fetching: false, fetchingNext: false });
    });
    this.promise = promise;
    return promise;
  }

  cancel(): void {
    if (!this.abort) return;
    this.abort.abort();
    this.abort = undefined;
    this.promise = undefined;
    this.setState({ fetching: false, fetchingNext: false });
  }

  private scheduleGc(): void {
    clearTimeout(this.gcTimer);
    if (this.listeners.size === 0) this.gcTimer = setTimeout(() => this.client.remove(this as unknown as Query), GC_MS);
  }
}

export class QueryClient {
  private queries = new Map<string, Query>();
  private scopes = new Map<string, Promise<unknown>>();
  private defaults: DefaultOptions;

  constructor({ defaultOptions = {} }: { defaultOptions?: DefaultOptions } = {}) {
    this.defaults = defaultOptions;
    // Back online, what components show and is stale fetches again.
    if (typeof window !== 'undefined') {
      window.addEventListener('online', () => {
        for (const q of this.queries.values()) if (q.active && q.fetcher && q.isStale(q.fetcher.staleTime)) void q.fetch();
      });
    }
  }

  setDefaultOptions(options: DefaultOptions): void {
    this.defaults = { queries: { ...this.defaults.queries, ...options.queries }, mutations: { ...this.defaults.mutations, ...options.mutations } };
  }

  getDefaultOptions(): DefaultOptions {
    return this.defaults;
  }

  /** The key's query, made (with its initial data) if it has none. */
  build<T>(queryKey: QueryKey, initialData?: T | (() => T | undefined)): Query<T> {
    const hash = hashKey(queryKey);
    let query = this.queries.get(hash) as Query<T> | undefined;
    if (!query) {
      const data = typeof initialData === 'function' ? (initialData as () => T | undefined)() : initialData;
      query = new Query<T>(this, queryKey, hash, data);
      this.queries.set(hash, query as Query);
    }
    return query;
  }

  remove(query: Query): void {
    if (this.queries.get(query.hash) !== query) return;
    query.cancel();
    // Components that show it keep its last state; on their next render they make a new one (and fetch it).
    this.queries.delete(query.hash);
  }

  private find(filters: Filters = {}): Query[] {
    return [...this.queries.values()].filter(
      (q) => (!filters.queryKey || partialMatch(q.queryKey, filters.queryKey)) && (!filters.predicate || filters.predicate(q)),
    );
  }

  getQueryCache() {
    return { find: ({ queryKey }: { queryKey: QueryKey }): Query | undefined => this.queries.get(hashKey(queryKey)) };
  }

  getQueryData<T>(queryKey: QueryKey): T | undefined {
    return this.queries.get(hashKey(queryKey))?.state.data as T | undefined;
  }

  /** Sets a key's answer (an updater gets the current one); `undefined` leaves it as it is. */
  setQueryData<T>(queryKey: QueryKey, updater: T | undefined | ((old: T | undefined) => T | undefined)): void {
    const query = this.build<T>(queryKey);
    this.write(query, updater);
  }

  setQueriesData<T>(filters: Filters, updater: (old: T | undefined) => T | undefined): void {
    for (const query of this.find(filters)) this.write(query as Query<T>, updater);
  }

  private write<T>(query: Query<T>, updater: T | undefined | ((old: T | undefined) => T | undefined)): void {
    const data = typeof updater === 'function' ? (updater as (old: T | undefined) => T | undefined)(query.state.data) : updater;
    if (data === undefined) return;
    query.setState({ data: replaceEqualDeep(query.state.data, data), error: null, status: 'success', updatedAt: Date.now(), invalidated: false });
  }

  /** Marks the matching answers stale; those components show fetch again at once (a request under way restarts). */
  invalidateQueries(filters: Filters = {}): Promise<void> {
    const refetches: Promise<void>[] = [];
    for (const query of this.find(filters)) {
      query.setState({ invalidated: true });
      if (query.active && query.fetcher) {
        query.cancel();
        refetches.push(query.fetch());
      }
    }
    return Promise.all(refetches).then(() => undefined);
  }

  removeQueries(filters: Filters = {}): void {
    for (const query of this.find(filters)) this.remove(query);
  }

  cancelQueries(filters: Filters = {}): Promise<void> {
    for (const query of this.find(filters)) query.cancel();
    return Promise.resolve();
  }

  /** Runs a mutation (after the ones before it in its scope), with its callbacks; resolves with its answer. */
  mutate<TData, TVariables, TContext>(options: MutationOptions<TData, TVariables, TContext>, variables: TVariables): Promise<TData> {
    const run = async () => {
      let context: TContext | undefined;
      try {
        context = await options.onMutate?.(variables);
        const data = await withRetry(() => options.mutationFn(variables), options.retry ?? this.defaults.mutations?.retry, () => false);
        await options.onSuccess?.(data, variables, context);
        await options.onSettled?.(data, null, variables, context);
        return data;
      } catch (error) {
        await options.onError?.(error, variables, context);
        await options.onSettled?.(undefined, error, variables, context);
        throw error;
      }
    };
    const id = options.scope?.id;
    if (!id) return run();
    const result = (this.scopes.get(id) ?? Promise.resolve()).then(run, run);
    const tail = result.catch(() => undefined);
    this.scopes.set(id, tail);
    void tail.then(() => {
      if (this.scopes.get(id) === tail) this.scopes.delete(id);
    });
    return result;
  }
}

const ClientContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  return createElement(ClientContext.Provider, { value: client }, children);
}

export function useQueryClient(): QueryClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('No QueryClient: wrap the app in <QueryClientProvider>');
  return client;
}

/** Types a query's options where they are declared (as TanStack Query's helper of that name). */
export const queryOptions = <TQueryFnData, TData = TQueryFnData>(options: QueryOptions<TQueryFnData, TData>) => options;

/** Subscribes to a key's query, fetches it when needed (and on `refetchInterval`), and returns its state. */
/** The query of `queryKey` in the client, kept fetched as `options` say, and its state (for the hooks here and in infinite-query.ts). */
export function useCachedQuery<T>(
  queryKey: QueryKey,
  fetch: Fetcher<T>['fetch'],
  options: { enabled?: boolean; staleTime?: number; retry?: Retry; initialData?: T | (() => T | undefined); refetchInterval?: QueryOptions<T>['refetchInterval'] },
): { query: Query<T>; state: QueryState<T> } {
  const client = useQueryClient();
  const defaults = client.getDefaultOptions().queries ?? {};
  const query = client.build<T>(queryKey, options.initialData);
  const staleTime = options.staleTime ?? defaults.staleTime ?? 0;
  query.fetcher = { fetch, retry: options.retry ?? defaults.retry ?? 3, staleTime };
  const state = useSyncExternalStore(query.subscribe, query.getState, query.getState);
  const enabled = options.enabled !== false;
  // When a component starts showing it (or it is enabled), a missing, failed or stale answer is fetched.
  useEffect(() => {
    if (enabled && query.isStale(staleTime)) void query.fetch();
    // The staleness is judged at that moment, with that render's staleTime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, enabled]);
  const interval = typeof options.refetchInterval === 'function' ? options.refetchInterval(query) : options.refetchInterval;
  // The answer is kept no older than `interval`: a request goes when the last answer (fetched, or
  // set with setQueryData) or the last try is that old. As in a background tab nothing is shown,
  // nothing is polled there.
  useEffect(() => {
    if (!enabled || !interval) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let triedAt = Date.now();
    const schedule = () => {
      clearTimeout(timer);
      const due = Math.max(query.getState().updatedAt, triedAt) + interval;
      timer = setTimeout(() => {
        triedAt = Date.now();
        if (document.visibilityState !== 'hidden') void query.fetch();
        schedule();
      }, Math.max(0, due - Date.now()));
    };
    schedule();
    const unsubscribe = query.subscribe(schedule);
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [query, enabled, interval]);
  return { query, state };
}

/** A query's state as the hooks answer it. */
export function resultOf<TData>(state: QueryState<unknown>, data: TData | undefined, query: { cancel(): void; fetch(): Promise<void> }): QueryResult<TData> {
  return {
    data,
    error: state.error,
    status: state.status,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
    isFetching: state.fetching,
    refetch: () => {
      query.cancel();
      return query.fetch();
    },
  } as QueryResult<TData>;
}

export function useQuery<TQueryFnData, TData = TQueryFnData>(options: QueryOptions<TQueryFnData, TData>): QueryResult<TData> {
  const { queryKey, queryFn, select } = options;
  const { query, state } = useCachedQuery<TQueryFnData>(queryKey, (signal) => queryFn({ signal, queryKey, pageParam: undefined }), options);
  const data = state.data === undefined ? undefined : select ? select(state.data) : (state.data as unknown as TData);
  return resultOf(state, data, query);
}
