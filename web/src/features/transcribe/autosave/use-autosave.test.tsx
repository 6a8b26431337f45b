import { STORAGE_KEYS } from '@app/shared/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { json, mockFetch } from '../../../test/render';
import { useAutosave } from './use-autosave';

const user = {
  id: 'hook-user', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

function server() {
  return mockFetch((call) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'autosaveSessionId' && call.query.key) return json(200, { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
    if (call.route === 'autosaveSave') {
      const body = call.body as { offset: number; text: string };
      return json(200, { length: body.offset + body.text.length });
    }
    return json(200, { ok: true });
  });
}

describe('useAutosave', () => {
  it('is a no-op for visitors (enabled: false), even with a token', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    const calls = server();
    const { result } = renderHook(() => useAutosave({ enabled: false }), { wrapper });
    result.current.start('en-US');
    result.current.update({ text: 'hello', segments: [], durationSec: 1, language: 'en-US' });
    result.current.saveNow();
    result.current.complete();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.filter((c) => c.url.includes('autosave'))).toHaveLength(0);
    expect(window.localStorage.getItem('autosave_queue')).toBeNull();
  });

  it('drives the engine for a signed-in user, and the returned object stays the same', async () => {
    // The session token of that user (its `sub` is the user id).
    window.localStorage.setItem(STORAGE_KEYS.token, `h.${btoa(JSON.stringify({ sub: user.id })).replace(/=+$/, '')}.s`);
    const calls = server();
    const { result, rerender } = renderHook(() => useAutosave({ enabled: true }), { wrapper });
    const visitor = result.current;
    // Once the user has loaded, the hook hands out the engine.
    await waitFor(() => expect(result.current).not.toBe(visitor));
    result.current.start('en-US');
    await waitFor(() => expect(calls.some((c) => c.route === 'autosaveSessionId' && c.query.key)).toBe(true));
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
    result.current.update({ text: 'hello world', segments: [{ text: 'hello world', startMs: 0, endMs: 900 }], durationSec: 1, language: 'en-US' });
    result.current.complete();
    await waitFor(() => expect(calls.some((c) => c.route === 'autosaveComplete')).toBe(true));
    expect(calls.find((c) => c.route === 'autosaveSave')?.body).toMatchObject({ offset: 0, text: 'hello world', language: 'en-US' });
  });
});
