import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

function fakeServer(change: (call: MockCall) => Response) {
  return mockFetch((call) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'changePassword') return change(call);
    return json(404, { error: 'Not found', code: 'not_found' });
  });
}

async function submit(current: string, next: string) {
  const ui = userEvent.setup();
  const currentField = await screen.findByLabelText('Current password');
  const newField = screen.getByLabelText('New password');
  await ui.clear(currentField);
  await ui.type(currentField, current);
  await ui.clear(newField);
  await ui.type(newField, next);
  await ui.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('change password on the profile', () => {
  it('sends both passwords, keeps this device signed in (the server sets the fresh cookie) and clears the form', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const calls = fakeServer(() => json(200, { ok: true }));
    renderPage(<ProfilePage />, { path: '/profile' });
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeInTheDocument();
    await submit('my-old-password', 'violet-harbor-lantern-42');

    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(screen.getByText('You were signed out on your other devices.')).toBeInTheDocument();
    const sent = calls.find((c) => c.route === 'changePassword')!;
    expect(sent.body).toEqual({ currentPassword: 'my-old-password', newPassword: 'violet-harbor-lantern-42' });
    expect(sent.headers).not.toHaveProperty('authorization');
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('u1');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('');
  });

  it('checks the length before sending', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer(() => json(200, { ok: true }));
    renderPage(<ProfilePage />, { path: '/profile' });
    await submit('my-old-password', 'short');
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/at least 8 characters/));
    expect(calls.filter((c) => c.route === 'changePassword')).toHaveLength(0);
  });

  it('shows a wrong current password on its field', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer(() => json(400, { error: 'The current password is not correct.', code: 'wrong_current_password' }));
    renderPage(<ProfilePage />, { path: '/profile' });
    await submit('not-it-at-all', 'violet-harbor-lantern-42');
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('The current password is not correct.'));
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's refusal of a weak or breached password on the new password, in the UI language", async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    let code = 'password_weak';
    fakeServer(() => json(400, { error: 'server text', code }));
    await i18n.changeLanguage('es');
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Contraseña actual'), 'my-old-password');
    await ui.type(screen.getByLabelText('Nueva contraseña'), 'password123');
    await ui.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    await waitFor(() => expect(screen.getByLabelText('Nueva contraseña')).toHaveAccessibleDescription(/demasiado fácil de adivinar/));

    code = 'password_breached';
    await ui.type(screen.getByLabelText('Nueva contraseña'), '4');
    await ui.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    await waitFor(() => expect(screen.getByLabelText('Nueva contraseña')).toHaveAccessibleDescription(/filtración de datos/));
  });
});
