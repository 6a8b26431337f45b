import { RESET_REDIRECT_MS } from '@app/shared/constants';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import { forgetResetToken, heldResetToken, moveResetTokenOutOfUrl } from '../lib/reset-link';
import ResetPasswordPage from './reset-password-page';

const TOKEN = 'A'.repeat(43);
const pattern = '/reset-password';
const link = `/reset-password#${TOKEN}`;

beforeEach(() => forgetResetToken());

describe('reset-password page', () => {
  it('requires matching passwords of the minimum length before sending', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<ResetPasswordPage />, { path: link, pattern });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('New password'), 'abc');
    await ui.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/at least 8 characters/));

    await ui.clear(screen.getByLabelText('New password'));
    await ui.type(screen.getByLabelText('New password'), 'new-secret-1');
    await ui.type(screen.getByLabelText('Confirm password'), 'new-secret-2{Enter}');
    await waitFor(() => expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('The passwords do not match.'));
    expect(calls).toHaveLength(0);
  });

  it('one toggle shows both fields', async () => {
    renderPage(<ResetPasswordPage />, { path: link, pattern });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('New password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'text');
  });

  it('on success shows the message, then goes to /login after the redirect delay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<ResetPasswordPage />, { path: link, pattern });
    const ui = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    await ui.type(screen.getByLabelText('New password'), 'new-secret-1');
    await ui.type(screen.getByLabelText('Confirm password'), 'new-secret-1{Enter}');

    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ route: 'resetPassword', body: { token: TOKEN, newPassword: 'new-secret-1' } });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password$/);
    expect(heldResetToken()).toBeUndefined();
    act(() => vi.advanceTimersByTime(RESET_REDIRECT_MS - 100));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password$/);
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('an expired token shows the server error and a link to ask for a new one', async () => {
    mockFetch(() => json(400, { error: 'This reset link is invalid or has expired. Request a new one.', code: 'reset_invalid' }));
    renderPage(<ResetPasswordPage />, { path: link, pattern });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('New password'), 'new-secret-1');
    await ui.type(screen.getByLabelText('Confirm password'), 'new-secret-1{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error resetting password');
    expect(alert).toHaveTextContent('This reset link is invalid or has expired. Request a new one.');
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('a malformed link says so at once, without a form', () => {
    renderPage(<ResetPasswordPage />, { path: '/reset-password#nope', pattern });
    expect(screen.getByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toBeInTheDocument();
  });

  it('a link of the old shape (token in the path) still works: the token moves out of the address', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<ResetPasswordPage />, { path: `/reset-password/${TOKEN}`, pattern: '/reset-password/:token' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password$/);
    expect(heldResetToken()).toBe(TOKEN);
    expect(calls).toHaveLength(0);
  });

  it('takes the token from memory once the address no longer has it, and asks for no referrer', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    window.history.replaceState(null, '', link);
    moveResetTokenOutOfUrl();
    renderPage(<ResetPasswordPage />, { path: '/reset-password', pattern });
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('New password'), 'new-secret-1');
    await ui.type(screen.getByLabelText('Confirm password'), 'new-secret-1{Enter}');
    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ body: { token: TOKEN, newPassword: 'new-secret-1' } });
  });
});

describe('reset link at start-up', () => {
  it.each([link, `/reset-password/${TOKEN}`])('moves the token of %s out of the address before the app starts', (url) => {
    window.history.replaceState({ keep: 1 }, '', url);
    moveResetTokenOutOfUrl();
    expect(window.location.pathname).toBe('/reset-password');
    expect(window.location.hash).toBe('');
    expect(window.location.href).not.toContain(TOKEN);
    expect(window.history.state).toEqual({ keep: 1 });
    expect(heldResetToken()).toBe(TOKEN);
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  });

  it('leaves other addresses alone', () => {
    window.history.replaceState(null, '', '/help#faq');
    moveResetTokenOutOfUrl();
    expect(window.location.pathname + window.location.hash).toBe('/help#faq');
    expect(heldResetToken()).toBeUndefined();
  });
});
