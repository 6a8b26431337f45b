import { TEST_CAPTCHA_TOKEN } from '@app/shared/constants';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import RegisterPage from './register-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

async function fill(ui: ReturnType<typeof userEvent.setup>, password = 'a-good-passphrase') {
  await ui.type(screen.getByLabelText('Name'), 'Ana');
  await ui.type(screen.getByLabelText('Email'), 'ana@example.com');
  await ui.type(screen.getByLabelText('Password'), password);
}

describe('register page', () => {
  it('refuses to send without the terms: toast "Terms required" and nothing sent', async () => {
    const calls = mockFetch(() => json(200, { user }));
    renderPage(<RegisterPage />, { path: '/register' });
    const ui = userEvent.setup();
    await fill(ui);
    await ui.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Terms required')).toBeInTheDocument();
    expect(screen.getAllByText('You must accept the terms to continue.').length).toBeGreaterThan(0);
    const terms = screen.getByRole('checkbox', { name: 'I accept the terms of use and privacy policy' });
    expect(terms).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('sends name, email, password, the bot-check token and the UI language once the terms are accepted', async () => {
    const calls = mockFetch(() => json(200, { user }));
    renderPage(<RegisterPage />, { path: '/register' });
    const ui = userEvent.setup();
    await fill(ui);
    await ui.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await ui.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      route: 'register',
      body: { name: 'Ana', email: 'ana@example.com', password: 'a-good-passphrase', recaptchaToken: TEST_CAPTCHA_TOKEN, language: 'en' },
    });
    // The toast and the navigation home are two updates: on a busy machine the toast can paint first.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('applies the shared password rules before sending', async () => {
    const calls = mockFetch(() => json(200, { user }));
    renderPage(<RegisterPage />, { path: '/register' });
    const ui = userEvent.setup();
    await fill(ui, 'abcdefg');
    await ui.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await ui.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/at least 8 characters/));

    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusal of a weak password on the password field", async () => {
    mockFetch(() => json(400, { error: 'server text', code: 'password_weak' }));
    renderPage(<RegisterPage />, { path: '/register' });
    const ui = userEvent.setup();
    await fill(ui, 'password123');
    await ui.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await ui.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/too easy to guess/));
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the server error and the sign-up toast when the email is taken', async () => {
    mockFetch(() => json(409, { error: 'An account with this email already exists.', code: 'email_taken' }));
    renderPage(<RegisterPage />, { path: '/register' });
    const ui = userEvent.setup();
    await fill(ui);
    await ui.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await ui.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists.');
    expect(await screen.findByText('Sign-up failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('links the terms from the checkbox label', () => {
    renderPage(<RegisterPage />, { path: '/register' });
    expect(screen.getByRole('link', { name: 'terms of use and privacy policy' })).toHaveAttribute('href', '/terms');
  });
});
