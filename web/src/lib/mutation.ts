import { useCallback, useRef, useState } from 'react';
import { useQueryClient, type MutateCallbacks, type MutationOptions, type MutationResult } from './query';

/**
 * A call that changes data (TanStack Query's `useMutation`), in a module of its own: the forms
 * that call it load with their pages, so it stays out of the first load (lib/query.ts).
 */
const IDLE = { status: 'idle', data: undefined, error: null, variables: undefined } as const;

export function useMutation<TData, TVariables = void, TContext = unknown>(
  options: MutationOptions<TData, TVariables, TContext>,
): MutationResult<TData, TVariables> {
  const client = useQueryClient();
  const latest = useRef(options);
  latest.current = options;
  const calls = useRef(0);
  const [state, setState] = useState<Pick<MutationResult<TData, TVariables>, 'status' | 'data' | 'error' | 'variables'>>(IDLE);

  const mutateAsync = useCallback(
    async (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables>) => {
      const call = ++calls.current;
      setState({ status: 'pending', data: undefined, error: null, variables });
      try {
        const data = await client.mutate(latest.current, variables);
        if (call === calls.current) {
          setState({ status: 'success', data, error: null, variables });
          callbacks?.onSuccess?.(data, variables);
          callbacks?.onSettled?.(data, null, variables);
        }
        return data;
      } catch (error) {
        if (call === calls.current) {
          setState({ status: 'error', data: undefined, error, variables });
          callbacks?.onError?.(error, variables);
          callbacks?.onSettled?.(undefined, error, variables);
        }
        throw error;
      }
    },
    [client],
  );
  const mutate = useCallback(
    (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables>) => void mutateAsync(variables, callbacks).catch(() => undefined),
    [mutateAsync],
  );
  const reset = useCallback(() => {
    calls.current++;
    setState(IDLE);
  }, []);
  const { status } = state;
  return { ...state, isIdle: status === 'idle', isPending: status === 'pending', isSuccess: status === 'success', isError: status === 'error', mutate, mutateAsync, reset };
}
