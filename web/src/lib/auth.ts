import { queryOptions, useQuery, useQueryClient, type QueryClient } from './query';
import { useCallback } from 'react';
import type { AuthResponse, User } from '@app/shared/schemas/auth';
import { api, ApiError } from './api';
import { clearToken, getToken, setToken } from './auth-token';

/** Query keys of the session, by factory. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => ['auth', 'me'] as const,
};

/** The signed-in user, or null for a visitor. A refused token (401) means a visitor. */
async function fetchMe(): Promise<User | null> {
  if (!getToken()) return null;
  try {
    return await api('getMe');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export const meQuery = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: fetchMe,
    staleTime: 5 * 60_000,
    // Without a token the answer is known at once: no loading state, no request.
    initialData: () => (getToken() ? undefined : null),
  });

export interface Session {
  /** The user, null for a visitor, undefined while the stored token is being checked. */
  user: User | null | undefined;
  isLoading: boolean;
}

export function useSession(): Session {
  const query = useQuery(meQuery());
  // A failed check (network, server) leaves the token for the next try but shows a visitor.
  const user = query.isError ? null : query.data;
  return { user, isLoading: query.isPending };
}

/** The signed-in user, or null (while loading too). */
export function useUser(): User | null {
  return useSession().user ?? null;
}

/** Drops every cached answer except the session itself, which becomes "visitor". */
export function resetToVisitor(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  queryClient.setQueryData(authKeys.me(), null);
  queryClient.removeQueries({ predicate: (q) => !(q.queryKey[0] === 'auth' && q.queryKey[1] === 'me') });
}

export function useSessionActions() {
  const queryClient = useQueryClient();
  const startSession = useCallback(
    ({ user, token }: AuthResponse) => {
      setToken(token);
      queryClient.setQueryData(authKeys.me(), user);
    },
    [queryClient],
  );
  /**
   * Logs out: the server is asked to end every session of the user (best effort: offline or
   * refused, the device forgets the session all the same), then the token and cached data go.
   */
  const endSession = useCallback(() => {
    // api() reads the token when called, before it is cleared just below.
    if (getToken()) void api('logout').catch(() => undefined);
    clearToken();
    resetToVisitor(queryClient);
  }, [queryClient]);
  return { startSession, endSession };
}
