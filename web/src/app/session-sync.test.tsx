import { STORAGE_KEYS } from '@app/shared/constants';
import { QueryClientProvider } from '../lib/query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTOSAVE_QUEUE_KEY } from '../features/transcribe/autosave/queue-key';
import { createQueryClient } from '../lib/query-client';
import { json, mockFetch } from '../test/render';
import { SessionSync } from './session-sync';

// The autosave code (loaded on demand) cannot be fetched: offline, or a new deploy removed the old chunk.
vi.mock('../features/transcribe/autosave/autosave-engine', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

describe('SessionSync', () => {
  it('an autosave queue it cannot resume (code not loadable) is logged and kept, never an unhandled rejection', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, '[]');
    mockFetch(({ route }) => (route === 'getMe' ? json(200, user) : json(404, {})));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SessionSync />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('[autosave] could not load the autosave code'), expect.any(Error)));
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBe('[]');
  });
});
