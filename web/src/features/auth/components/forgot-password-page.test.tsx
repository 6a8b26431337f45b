import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import ForgotPasswordPage from './forgot-password-page';

const LIMIT = 'You can only request a password reset once per hour.';

describe('forgot-password page', () => {
  beforeEach(() => {
    // Fake clock that still moves with real time, so Testing Library's polling works.
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
  const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it('sends the email with the bot-check token and shows the success message', async () => {
    const calls = mockFetch(() => json(200, { ok: true, message: 'Check your email for the password reset link.' }));
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const ui = setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com{Enter}');

    expect(await screen.findByRole('status')).toHaveTextContent('Check your email for the password reset link.');
    expect(calls[0]).toMatchObject({
      route: 'forgotPassword',
      body: { email: 'ana@example.com', recaptchaToken: 'test-pass', language: 'en' },
    });
  });

  it('on 429 shows the hourly limit and a MM:SS countdown that ticks each second and disables the button', async () => {
    mockFetch(() => json(429, { error: LIMIT, code: 'reset_rate_limited', secondsLeft: 62 }));
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const ui = setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com');
    await ui.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(LIMIT);
    expect(screen.getByText('Please wait 01:02 before requesting again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeDisabled();

    await tick(1000);
    expect(screen.getByText('Please wait 01:01 before requesting again.')).toBeInTheDocument();
    await tick(1000);
    expect(screen.getByText('Please wait 01:00 before requesting again.')).toBeInTheDocument();
    await tick(59_000);
    expect(screen.getByText('Please wait 00:01 before requesting again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeDisabled();

    await tick(1000);
    expect(screen.queryByText(LIMIT)).not.toBeInTheDocument();
    expect(screen.queryByText(/Please wait/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });

  it('clears the limit message when the email is edited', async () => {
    mockFetch(() => json(429, { error: LIMIT, code: 'reset_rate_limited', secondsLeft: 3600 }));
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const ui = setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com{Enter}');
    expect(await screen.findByText('Please wait 60:00 before requesting again.')).toBeInTheDocument();

    await ui.type(screen.getByLabelText('Email'), 'x');
    expect(screen.queryByText(LIMIT)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });

  it('shows the request error with "Could not send reset email." when the server gives no message', async () => {
    mockFetch(() => new Response('', { status: 503 }));
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const ui = setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error requesting password reset');
    expect(alert).toHaveTextContent('Could not send reset email.');
  });

  it('shows the sending state while the request is in flight', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const ui = setup();
    await ui.type(screen.getByLabelText('Email'), 'ana@example.com{Enter}');

    const busy = await screen.findByRole('button', { name: 'Sending…' });
    expect(busy).toBeDisabled();
    answer(json(200, { ok: true, message: 'ok' }));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });
});
