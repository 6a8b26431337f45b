import { STORAGE_KEYS } from '@app/shared/constants';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import LoginPage from './login-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};
const ceremony = { flow: 'f'.repeat(43), options: { challenge: 'abc', rpId: 'localhost' } };

/** jsdom has no WebAuthn: the page is a browser without passkeys. */
describe('sign-in page, passkeys', () => {
  it('explains, in place of the passkey button, that this browser cannot use passkeys', () => {
    mockFetch(() => json(404, { error: 'Not found' }));
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByText('This browser cannot use passkeys. Sign in with your email and password.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it('a password sign-in that needs a passkey asks for the second step; a recovery code finishes it', async () => {
    const calls = mockFetch((call: MockCall) => {
      if (call.route === 'login') return json(200, { secondFactor: ceremony });
      if (call.route === 'recoveryCodeSignIn') {
        const { code } = call.body as { code: string };
        return code === 'GOOD-CODE' ? json(200, { user }) : json(400, { error: 'nope', code: 'recovery_code_invalid' });
      }
      return json(404, { error: 'Not found' });
    });
    renderPage(<LoginPage />, { path: '/login' });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com');
    await ui.type(screen.getByLabelText('Password'), 'right-password');
    await ui.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { name: 'Confirm it is you' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    // Without passkeys in this browser the recovery code is the way on.
    const code = screen.getByRole('textbox', { name: 'Recovery code' });
    await ui.type(code, 'WRONG');
    await ui.click(screen.getByRole('button', { name: 'Sign in with the recovery code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This recovery code is not right, or was already used.');
    await ui.clear(code);
    await ui.type(code, 'GOOD-CODE');
    await ui.click(screen.getByRole('button', { name: 'Sign in with the recovery code' }));
    expect(await screen.findByText('Welcome back, Ana!')).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('u1');
    expect(calls.filter((c) => c.route === 'recoveryCodeSignIn').map((c) => c.body)).toEqual([
      { flow: ceremony.flow, code: 'WRONG' },
      { flow: ceremony.flow, code: 'GOOD-CODE' },
    ]);
  });

  it('Back to sign-in returns to the password form', async () => {
    mockFetch((call: MockCall) => (call.route === 'login' ? json(200, { secondFactor: ceremony }) : json(404, { error: 'Not found' })));
    renderPage(<LoginPage />, { path: '/login' });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com');
    await ui.type(screen.getByLabelText('Password'), 'right-password');
    await ui.keyboard('{Enter}');
    await ui.click(await screen.findByRole('button', { name: 'Back to sign-in' }));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});
