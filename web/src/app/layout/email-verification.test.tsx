import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useUser } from '../../lib/auth';
import { json, mockFetch, renderPage } from '../../test/render';
import { EmailVerification } from './email-verification';

/** The banner beside the signed-in user's name, so a test knows when the session is known. */
function WithUser() {
  const user = useUser();
  return (
    <>
      <EmailVerification />
      <p>{user ? `signed in as ${user.name}` : 'visitor'}</p>
    </>
  );
}

const user = (emailVerified?: boolean) => ({
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z', ...(emailVerified === undefined ? {} : { emailVerified }),
});

describe('the email verification banner', () => {
  it('shows until verified; Send the link again asks the server and says so, or shows its refusal', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    let resent = 0;
    const calls = mockFetch((call) => {
      if (call.route === 'getMe') return json(200, user(false));
      if (call.route === 'resendVerification') {
        resent++;
        return resent === 1 ? json(200, { ok: true }) : json(429, { error: 'Too many', code: 'verify_rate_limited', secondsLeft: 3000 });
      }
      return json(404, { error: 'Not found' });
    });
    renderPage(<EmailVerification />);
    const banner = await screen.findByRole('region', { name: 'Confirm your email address: we sent a link to ana@example.com.' });
    const ui = userEvent.setup();
    await ui.click(within(banner).getByRole('button', { name: 'Send the link again' }));
    expect(await within(banner).findByText('A new link is on its way to ana@example.com.')).toBeInTheDocument();
    await ui.click(within(banner).getByRole('button', { name: 'Send the link again' }));
    expect(await within(banner).findByText('Too many requests. Wait a moment and try again.')).toBeInTheDocument();
    expect(calls.filter((c) => c.route === 'resendVerification')).toHaveLength(2);
  });

  it('is not shown to a verified user, nor to a visitor', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    mockFetch(() => json(200, user(true)));
    const { unmount } = renderPage(<WithUser />);
    await screen.findByText('signed in as Ana');
    // The banner's code was loaded by the test before: had it been wanted, it would be here.
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('region', { name: /Confirm your email/ })).toBeNull();
    unmount();
    window.localStorage.removeItem(STORAGE_KEYS.sessionUser);
    renderPage(<WithUser />);
    await screen.findByText('visitor');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('region', { name: /Confirm your email/ })).toBeNull();
  });
});
