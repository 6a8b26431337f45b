import { QueryClientProvider } from './query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import { json, mockFetch } from '../test/render';
import { api } from './api';
import { authKeys, useSessionActions } from './auth';
import { createQueryClient } from './query-client';

function renderActions() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKeys.me(), { id: 'u1' });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { ...renderHook(() => useSessionActions(), { wrapper }), queryClient };
}

describe('logout (endSession)', () => {
  afterEach(() => window.localStorage.clear());

  it('asks the server to end the session (its cookie), and forgets it at once', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const calls = mockFetch(async () => {
      await answered;
      return json(200, { ok: true });
    });
    const { result, queryClient } = renderActions();
    act(() => result.current.endSession());
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    expect(queryClient.getQueryData(authKeys.me())).toBeNull();
    await act(async () => answer());
    await expect.poll(() => calls.length).toBe(1);
    expect(calls[0]).toMatchObject({ route: 'logout', credentials: 'same-origin' });
  });

  it('still logs out locally when offline or refused, without an unhandled rejection', async () => {
    for (const fail of [() => Promise.reject(new TypeError('Failed to fetch')), () => Promise.resolve(json(503, { error: 'Maintenance', code: 'maintenance' }))]) {
      window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
      const calls = mockFetch(fail);
      const { result, queryClient } = renderActions();
      act(() => result.current.endSession());
      expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
      expect(queryClient.getQueryData(authKeys.me())).toBeNull();
      await expect.poll(() => calls.length).toBe(1);
    }
  });

  it('calls nothing when no session is stored', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    const { result } = renderActions();
    act(() => result.current.endSession());
    // A call started after the logout lands after any call the logout made.
    await api('maintenanceMode');
    expect(calls.map((c) => c.route)).toEqual(['maintenanceMode']);
  });
});
