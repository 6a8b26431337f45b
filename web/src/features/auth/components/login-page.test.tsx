import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import LoginPage from './login-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

async function fillAndSubmit(email = 'ana@example.com', password = 'wrong-password') {
  const ui = userEvent.setup();
  await ui.type(screen.getByLabelText('Email'), email);
  await ui.type(screen.getByLabelText('Password'), password);
  await ui.keyboard('{Enter}');
  return ui;
}

describe('login page', () => {
  it('shows the server error inline and the login toast', async () => {
    mockFetch(() => json(401, { error: 'Invalid email or password.', code: 'invalid_credentials' }));
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email or password.');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
  });

  it('shows a server message without a known code as sent', async () => {
    mockFetch(() => json(429, { error: 'Slow down, friend.' }));
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Slow down, friend.');
  });

  it('falls back to "Error logging in" and the credentials hint without a server message', async () => {
    mockFetch(() => new Response('oops', { status: 500 }));
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error logging in');
    expect(await screen.findByText('Check your credentials and try again.')).toBeInTheDocument();
  });

  it('validates before sending: empty fields are marked invalid and nothing is sent', async () => {
    const calls = mockFetch(() => json(200, {}));
    renderPage(<LoginPage />, { path: '/login' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log in' }));

    const email = screen.getByLabelText('Email');
    // The form validates asynchronously (react-hook-form): the errors render a moment after the click.
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('Enter your email.');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password.');
    expect(calls).toHaveLength(0);
  });

  it('clears a field\'s error as it is edited and checks it again only on the next submit', async () => {
    const calls = mockFetch(() => json(200, {}));
    renderPage(<LoginPage />, { path: '/login' });
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('Enter your email.'));

    await ui.type(email, 'ana');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password.');

    await ui.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription('Enter a valid email address.'));
    expect(email).toHaveFocus();
    expect(calls).toHaveLength(0);
  });

  it('toggles password visibility with a button whose name says what it does', async () => {
    renderPage(<LoginPage />, { path: '/login' });
    const ui = userEvent.setup();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await ui.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await ui.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('notes whose session the server set, toasts and goes home on success', async () => {
    const calls = mockFetch(() => json(200, { user }));
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit('  ana@example.com ', 'right-password');

    expect(await screen.findByText('Welcome back, Ana!')).toBeInTheDocument();
    // The toast and the navigation home are two updates: on a busy machine the toast can paint first.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe(user.id);
    expect(calls[0]?.body).toEqual({ email: 'ana@example.com', password: 'right-password' });
  });

  it('past repeated attempts, passes the bot check and sends the same sign-in again', async () => {
    const calls = mockFetch((call) =>
      (call.body as { recaptchaToken?: string }).recaptchaToken
        ? json(200, { user })
        : json(400, { error: 'Complete the bot check to sign in.', code: 'captcha_required' }),
    );
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit('ana@example.com', 'right-password');

    expect(await screen.findByText('Welcome back, Ana!')).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([
      { email: 'ana@example.com', password: 'right-password' },
      { email: 'ana@example.com', password: 'right-password', recaptchaToken: 'test-pass' },
    ]);
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe(user.id);
  });

  it('shows why when the retry with the bot check is refused too, and sends nothing more', async () => {
    const calls = mockFetch((call) =>
      (call.body as { recaptchaToken?: string }).recaptchaToken
        ? json(400, { error: 'The bot check failed.', code: 'captcha_failed' })
        : json(400, { error: 'Complete the bot check to sign in.', code: 'captcha_required' }),
    );
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('The bot check failed. Reload the page and try again.');
    expect(calls).toHaveLength(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('explains a per-address wait in the UI language', async () => {
    mockFetch(() => json(429, { error: 'Too many sign-in attempts.', code: 'login_rate_limited', secondsLeft: 600 }));
    renderPage(<LoginPage />, { path: '/login' });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many sign-in attempts from here. Wait a moment and try again');
    expect(alert).toHaveTextContent('You can try again in 10:00.');
  });

  it('links to sign-up and password recovery', () => {
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
    const footer = screen.getByText("Don't have an account?").parentElement as HTMLElement;
    expect(within(footer).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
  });
});
