import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';
import { SignOutEverywhere } from './sign-out-everywhere';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

function fakeServer(answer: (call: MockCall) => Response | Promise<Response>) {
  return mockFetch((call) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'logoutEverywhere') return answer(call);
    return json(404, { error: 'Not found', code: 'not_found' });
  });
}

const section = () => screen.findByRole('region', { name: 'Sign out everywhere' });

describe('sign out everywhere on the profile', () => {
  afterEach(() => window.localStorage.clear());

  it('asks the server to end every session, then this device is a visitor and goes home', async () => {
    await i18n.changeLanguage('en');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const calls = fakeServer(() => json(200, { ok: true }));
    renderPage(<SignOutEverywhere userId="u1" />, { path: '/profile' });
    await userEvent.setup().click(within(await section()).getByRole('button', { name: 'Sign out everywhere' }));

    expect(await screen.findByText('Signed out everywhere')).toBeInTheDocument();
    expect(calls.filter((c) => c.route === 'logoutEverywhere')).toEqual([expect.objectContaining({ method: 'POST', signedInAs: 'u1', credentials: 'same-origin' })]);
    // The server ended the session (and cleared its cookie): no logout call follows.
    expect(calls.filter((c) => c.route === 'logout')).toEqual([]);
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    // The toast and the navigation home are two updates: on a busy machine the toast can paint first.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('refused or offline: stays signed in, says so', async () => {
    await i18n.changeLanguage('en');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    fakeServer(() => Promise.reject(new TypeError('Failed to fetch')));
    renderPage(<SignOutEverywhere userId="u1" />, { path: '/profile' });
    await userEvent.setup().click(within(await section()).getByRole('button', { name: 'Sign out everywhere' }));

    expect(await screen.findByText('Could not sign out everywhere')).toBeInTheDocument();
    expect(screen.getByText('Connection error')).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('u1');
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
  });

  it('is a section of the profile, named in English, Portuguese and Spanish', async () => {
    await i18n.changeLanguage('en');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    fakeServer(() => json(200, { ok: true }));
    const profile = renderPage(<ProfilePage />, { path: '/profile' });
    expect(await section()).toBeInTheDocument();
    profile.unmount();
    for (const [lang, name] of [['pt', 'Sair de todos os dispositivos'], ['es', 'Cerrar sesión en todas partes']] as const) {
      await i18n.changeLanguage(lang);
      const view = renderPage(<SignOutEverywhere userId="u1" />, { path: '/profile' });
      expect(within(await screen.findByRole('region', { name })).getByRole('button', { name })).toBeInTheDocument();
      view.unmount();
    }
    await i18n.changeLanguage('en');
  });
});
