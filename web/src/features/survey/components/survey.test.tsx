import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { json, mockFetch, renderPage } from '../../../test/render';
import { SURVEY_DELAY_MS } from '../lib/survey';
import { SurveyLauncher } from './survey-launcher';

const baseUser: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: false, createdAt: '2025-01-01T00:00:00.000Z',
};

function signedIn(user: User = baseUser) {
  window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
  return mockFetch((call) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'updateMe') return json(200, { ...user, ...(call.body as object) });
    return json(404, {});
  });
}

beforeEach(() => vi.stubEnv('VITE_SURVEY_URL', 'https://example.com/survey'));

describe('survey', () => {
  it('offers itself once after a while, records it on the account and the device, and the button reopens it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = signedIn();
    renderPage(<SurveyLauncher />, { path: '/profile' });
    const button = await screen.findByRole('button', { name: 'Feedback' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(SURVEY_DELAY_MS));
    const dialog = await screen.findByRole('dialog', { name: 'Help us improve Live Transcribe' });
    expect(dialog.querySelector('iframe')).toHaveAttribute('src', 'https://example.com/survey');
    expect(screen.getByTitle('Feedback survey form')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ surveyShown: true }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.surveyShown)).toBe('u1');

    vi.useRealTimers();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await ui.click(button);
    expect(await screen.findByRole('dialog', { name: 'Help us improve Live Transcribe' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('waits while the transcriber (home page) is on screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signedIn();
    renderPage(<SurveyLauncher />, { path: '/' });
    await screen.findByRole('button', { name: 'Feedback' });
    await act(() => vi.advanceTimersByTimeAsync(SURVEY_DELAY_MS * 2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is not offered again to a user who has seen it (account or device)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signedIn({ ...baseUser, surveyShown: true });
    renderPage(<SurveyLauncher />, { path: '/profile' });
    await screen.findByRole('button', { name: 'Feedback' });
    await act(() => vi.advanceTimersByTimeAsync(SURVEY_DELAY_MS * 2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows nothing to visitors, or without a survey URL', async () => {
    mockFetch(() => json(404, {}));
    renderPage(<SurveyLauncher />, { path: '/profile' });
    expect(screen.queryByRole('button', { name: 'Feedback' })).not.toBeInTheDocument();
  });

  it('shows nothing without a configured URL', async () => {
    vi.stubEnv('VITE_SURVEY_URL', '');
    signedIn();
    const { queryClient } = renderPage(<SurveyLauncher />, { path: '/profile' });
    await queryClient.getQueryCache().find({ queryKey: ['auth', 'me'] })?.promise;
    expect(screen.queryByRole('button', { name: 'Feedback' })).not.toBeInTheDocument();
  });
});
