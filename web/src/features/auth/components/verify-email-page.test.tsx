import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import VerifyEmailPage from './verify-email-page';

const TOKEN = 'B'.repeat(43);
const pattern = '/verify-email';

describe('verify-email page', () => {
  it('sends the token of the link once, takes it out of the address, and says the address is confirmed', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<VerifyEmailPage />, { path: `/verify-email#${TOKEN}`, pattern });
    expect(await screen.findByText('Your email address is confirmed.')).toBeInTheDocument();
    const sent = calls.filter((c) => c.route === 'verifyEmail');
    expect(sent.map((c) => c.body)).toEqual([{ token: TOKEN }]);
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it("shows the server's refusal and how to get a new link", async () => {
    mockFetch(() => json(400, { error: 'This verification link is invalid or has expired.', code: 'verify_link_invalid' }));
    renderPage(<VerifyEmailPage />, { path: `/verify-email#${TOKEN}`, pattern });
    expect(await screen.findByText('This link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByText(/use the banner at the top of the page/)).toBeInTheDocument();
  });

  it('without a well-formed token sends nothing', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<VerifyEmailPage />, { path: '/verify-email#nope', pattern });
    expect(await screen.findByText('This page needs the link from the email we sent you.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.route === 'verifyEmail')).toHaveLength(0));
  });
});
