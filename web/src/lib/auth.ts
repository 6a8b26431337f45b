import { queryOptions, useQuery, useQueryClient, type QueryClient } from './query';
import { useCallback } from 'react';
import type { AuthResponse, User } from '@app/shared/schemas/auth';
import { api, ApiError, request } from './api';
import { clearLegacyToken, clearSessionUser, getLegacyToken, getSessionUser, setSessionUser } from './auth-token';

/** Query keys of the session, by factory. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => ['auth', 'me'] as const,
};

/** The signed-in user, or null for a visitor. A refused session (401) means a visitor. */
async function fetchMe(): Promise<User | null> {
  const legacy = getLegacyToken();
  if (legacy) return moveLegacySession(legacy);
  if (!getSessionUser()) return null;
  try {
    return await api('getMe');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/**
 * A session token an earlier version kept in device storage goes to the server once, which sets
 * the session cookie for it; the stored copy is deleted as soon as the server has answered, the
 * user signed in (cookie set) or not (token refused). With no answer (offline) it waits for the
 * next try.
 */
async function moveLegacySession(token: string): Promise<User | null> {
  const { status, data } = await request('exchangeSession', { bearer: token });
  if (status === 0) throw new ApiError({ status: 0, code: 'network', message: 'network' });
  clearLegacyToken();
  if (status < 200 || status > 299) {
    clearSessionUser();
    return null;
  }
  const { user } = data as AuthResponse;
  setSessionUser(user.id);
  return user;
}

export const meQuery = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: fetchMe,
    staleTime: 5 * 60_000,
    // Signed in as no one, the answer is known at once: no loading state, no request.
    initialData: () => (getSessionUser() || getLegacyToken() ? undefined : null),
  });

export interface Session {
  /** The user, null for a visitor, undefined while the session is being checked. */
  user: User | null | undefined;
  isLoading: boolean;
}

export function useSession(): Session {
  const query = useQuery(meQuery());
  // A failed check (network, server) keeps the session for the next try but shows a visitor.
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
    ({ user }: AuthResponse) => {
      // The server has set the session cookie; the page notes whose it is.
      setSessionUser(user.id);
      queryClient.setQueryData(authKeys.me(), user);
    },
    [queryClient],
  );
  /**
   * Logs out: the server is asked to end this session and clear its cookie (best effort: offline
   * or refused, the device forgets the session all the same), then the cached data goes.
   */
  const endSession = useCallback(() => {
    // api() reads the session's user when called, before it is forgotten just below.
    if (getSessionUser()) void api('logout').catch(() => undefined);
    clearSessionUser();
    resetToVisitor(queryClient);
  }, [queryClient]);
  return { startSession, endSession };
}
