import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createAutosaveEngine } from '../../features/transcribe/autosave/autosave-engine';
import { readQueue } from '../../features/transcribe/autosave/queue-storage';
import { createRecoveryStore } from '../../features/transcribe/lib/recovery';
import { hasRecoveryMarker } from '../../features/transcribe/lib/recovery-marker';
import { useUser } from '../../lib/auth';
import { json, mockFetch, renderPage } from '../../test/render';
import { useLogout } from './use-logout';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'pro', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

function LogoutButton() {
  const logout = useLogout();
  const signedIn = useUser();
  return (
    <button type="button" onClick={logout} disabled={!signedIn}>
      Log out
    </button>
  );
}

describe('useLogout', () => {
  it('sends the user’s unsent autosave text, then ends the session, wipes the user’s transcripts from the device and goes home', async () => {
    // What this user left on the device: an autosave session the server has not got, and the recovery copy.
    const engine = createAutosaveEngine({ userId: 'u1', sessionUser: () => null });
    engine.start('pt-BR', 'r1');
    engine.update({ transcript: 'r1', text: 'não enviado', segments: [], durationSec: 2, language: 'pt-BR' });
    engine.dispose();
    const recovery = createRecoveryStore();
    recovery.begin({ id: 'r1', userId: 'u1', language: 'pt-BR', startedAt: '2025-05-01T10:00:00.000Z' });
    recovery.append({ text: 'não enviado', startMs: 0, endMs: 2000 });
    recovery.flushSync('');

    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const calls = mockFetch((call) => {
      if (call.route === 'getMe') return json(200, user);
      if (call.route === 'autosaveSessionId' && call.query.key) return json(200, { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
      if (call.route === 'autosaveSave') return json(200, { length: 'não enviado'.length });
      return json(200, { ok: true });
    });
    renderPage(<LogoutButton />, { path: '/profile' });
    const button = screen.getByRole('button', { name: 'Log out' });
    await waitFor(() => expect(button).toBeEnabled());

    await userEvent.setup().click(button);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls.map((c) => c.route)).toEqual([
      'getMe',
      'autosaveSessionId',
      'autosaveSave',
      'autosaveComplete',
      'logout',
    ]);
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    expect(readQueue()).toEqual([]);
    expect(hasRecoveryMarker()).toBe(false);
    expect(await createRecoveryStore().load('u1')).toBeNull();
  });
});
