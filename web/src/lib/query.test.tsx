import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashKey, QueryClient, QueryClientProvider, replaceEqualDeep, useQuery } from './query';
import { useInfiniteQuery } from './infinite-query';
import { useMutation } from './mutation';

const wrapper = (client: QueryClient) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };

/** A promise and its resolve/reject, to answer a request when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('keys', () => {
  it('ignores the order of an object’s fields, not of the key’s parts', () => {
    expect(hashKey(['a', { x: 1, y: 2 }])).toBe(hashKey(['a', { y: 2, x: 1 }]));
    expect(hashKey(['a', 'b'])).not.toBe(hashKey(['b', 'a']));
  });

  it('keeps the unchanged parts of a new answer as the objects of the old one', () => {
    const old = { a: { n: 1 }, b: [{ n: 2 }], c: 3 };
    const next = replaceEqualDeep(old, { a: { n: 1 }, b: [{ n: 2 }], c: 4 });
    expect(next).toEqual({ a: { n: 1 }, b: [{ n: 2 }], c: 4 });
    expect(next.a).toBe(old.a);
    expect(next.b).toBe(old.b);
    expect(replaceEqualDeep(old, { a: { n: 1 }, b: [{ n: 2 }], c: 3 })).toBe(old);
  });
});

describe('useQuery', () => {
  it('shares one request between the components of a key and gives them its answer', async () => {
    const client = new QueryClient();
    const answer = deferred<string>();
    const queryFn = vi.fn(() => answer.promise);
    function Show({ label }: { label: string }) {
      const q = useQuery({ queryKey: ['k'], queryFn });
      return <p>{q.isPending ? `${label} loading` : `${label} ${q.data}`}</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Show label="one" />
        <Show label="two" />
      </QueryClientProvider>,
    );
    expect(screen.getByText('one loading')).toBeInTheDocument();
    await act(async () => answer.resolve('hello'));
    expect(await screen.findByText('one hello')).toBeInTheDocument();
    expect(screen.getByText('two hello')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('does not fetch while disabled or while the answer is fresh; fetches again once invalidated', async () => {
    const client = new QueryClient();
    let n = 0;
    const queryFn = vi.fn(async () => ++n);
    const { result, rerender } = renderHook(({ enabled }) => useQuery({ queryKey: ['n'], queryFn, enabled, staleTime: 60_000 }), {
      wrapper: wrapper(client),
      initialProps: { enabled: false },
    });
    expect(result.current.isPending).toBe(true);
    expect(queryFn).not.toHaveBeenCalled();
    rerender({ enabled: true });
    await waitFor(() => expect(result.current.data).toBe(1));
    rerender({ enabled: true });
    expect(queryFn).toHaveBeenCalledTimes(1);
    await act(() => client.invalidateQueries({ queryKey: ['n'] }));
    expect(result.current.data).toBe(2);
  });

  it('retries a failure with a growing delay while retry allows, then shows the error', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const queryFn = vi.fn(async () => {
      throw new Error('down');
    });
    const { result } = renderHook(() => useQuery({ queryKey: ['r'], queryFn, retry: (count) => count < 2 }), { wrapper: wrapper(client) });
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(queryFn).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(queryFn).toHaveBeenCalledTimes(2);
    await act(async () => vi.advanceTimersByTimeAsync(1999));
    expect(queryFn).toHaveBeenCalledTimes(2);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(result.current.isError).toBe(true);
    expect((result.current.error as Error).message).toBe('down');
  });

  it('waits for the network when offline instead of failing', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const client = new QueryClient();
    const queryFn = vi.fn(async () => 'ok');
    const { result } = renderHook(() => useQuery({ queryKey: ['o'], queryFn }), { wrapper: wrapper(client) });
    await act(async () => undefined);
    expect(queryFn).not.toHaveBeenCalled();
    expect(result.current.isPending).toBe(true);
    online.mockReturnValue(true);
    await act(async () => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(result.current.data).toBe('ok'));
    online.mockRestore();
  });

  it('treats an undefined answer as an error, not as data', async () => {
    const client = new QueryClient();
    const { result } = renderHook(() => useQuery({ queryKey: ['u'], queryFn: async () => undefined as unknown as string, retry: false }), {
      wrapper: wrapper(client),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.data).toBeUndefined();
  });

  it('applies setQueryData and select, and setQueryData with an updater returning undefined changes nothing', async () => {
    const client = new QueryClient();
    client.setQueryData(['s'], { items: [1, 2, 3] });
    const { result } = renderHook(
      () => useQuery({ queryKey: ['s'], queryFn: async () => ({ items: [9] }), staleTime: 60_000, select: (d) => d.items.length }),
      { wrapper: wrapper(client) },
    );
    expect(result.current.data).toBe(3);
    act(() => client.setQueryData<{ items: number[] }>(['s'], () => undefined));
    expect(result.current.data).toBe(3);
    act(() => client.setQueryData<{ items: number[] }>(['s'], (old) => ({ items: [...(old?.items ?? []), 4] })));
    expect(result.current.data).toBe(4);
  });
});

describe('useInfiniteQuery', () => {
  it('loads the next page with its cursor, and a refetch loads every loaded page again from the first', async () => {
    const client = new QueryClient();
    const pages: Record<string, { items: string[]; next: string | null }> = {
      first: { items: ['a'], next: 'c2' },
      c2: { items: ['b'], next: null },
    };
    const queryFn = vi.fn(async ({ pageParam }: { pageParam: string | undefined }) => pages[pageParam ?? 'first']!);
    const { result } = renderHook(
      () =>
        useInfiniteQuery({
          queryKey: ['list'],
          queryFn,
          initialPageParam: undefined as string | undefined,
          getNextPageParam: (last) => last.next ?? undefined,
        }),
      { wrapper: wrapper(client) },
    );
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    expect(result.current.hasNextPage).toBe(true);
    await act(() => result.current.fetchNextPage());
    expect(result.current.data?.pages.flatMap((p) => p.items)).toEqual(['a', 'b']);
    expect(result.current.hasNextPage).toBe(false);
    queryFn.mockClear();
    await act(() => client.invalidateQueries({ queryKey: ['list'] }));
    expect(queryFn.mock.calls.map(([c]) => c.pageParam)).toEqual([undefined, 'c2']);
  });
});

describe('useMutation', () => {
  it('is pending until its answer and its onSuccess (awaited) are done, then calls the mutate callbacks', async () => {
    const client = new QueryClient();
    const answer = deferred<string>();
    const after = deferred<void>();
    const onDone = vi.fn();
    const { result } = renderHook(() => useMutation({ mutationFn: (v: number) => answer.promise.then((a) => `${a}${v}`), onSuccess: () => after.promise }), {
      wrapper: wrapper(client),
    });
    act(() => result.current.mutate(1, { onSuccess: onDone }));
    expect(result.current.isPending).toBe(true);
    await act(async () => answer.resolve('x'));
    expect(result.current.isPending).toBe(true);
    await act(async () => after.resolve());
    expect(result.current.isSuccess).toBe(true);
    expect(result.current.data).toBe('x1');
    expect(onDone).toHaveBeenCalledWith('x1', 1);
  });

  it('runs the mutations of one scope one after another, in the order they were called, even after a failure', async () => {
    const client = new QueryClient();
    const order: string[] = [];
    const first = deferred<string>();
    const run = (name: string, answer: Promise<string>) =>
      client.mutate({ scope: { id: 'me' }, mutationFn: async () => (order.push(`start ${name}`), answer.finally(() => order.push(`end ${name}`))) }, undefined);
    const a = run('a', first.promise);
    const b = run('b', Promise.resolve('b'));
    await waitFor(() => expect(order).toEqual(['start a']));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['start a']);
    first.reject(new Error('a failed'));
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b');
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('tells onError and the mutate callback of a failure, and reset goes back to idle', async () => {
    const client = new QueryClient();
    const onError = vi.fn();
    const onCallError = vi.fn();
    const { result } = renderHook(
      () =>
        useMutation({
          mutationFn: async () => {
            throw new Error('refused');
          },
          onError,
        }),
      { wrapper: wrapper(client) },
    );
    await act(async () => result.current.mutate(undefined, { onError: onCallError }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onCallError).toHaveBeenCalledTimes(1);
    act(() => result.current.reset());
    expect(result.current.isIdle).toBe(true);
  });
});
