import { STORAGE_KEYS } from '@app/shared/constants';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { fakeBillingServer, freeUser, proUser } from '../test/fake-server';
import BillingCancelledPage from './billing-cancelled-page';
import BillingSuccessPage, { SUCCESS_POLL_CAP_MS, SUCCESS_POLL_MS } from './billing-success-page';

const SESSION = 'cs_local_0123456789abcdef';

describe('billing success page', () => {
  it('shows the first 8 characters of the session, "processing" until the webhook lands, then "Pro active"', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { state } = fakeBillingServer(freeUser);
    renderPage(<BillingSuccessPage />, { path: `/billing/success?session_id=${SESSION}`, pattern: '/billing/success' });

    expect(await screen.findByRole('heading', { name: 'Thank you for subscribing!' })).toBeInTheDocument();
    expect(screen.getByText('cs_local')).toBeInTheDocument();
    expect(screen.queryByText(SESSION)).not.toBeInTheDocument();
    expect(await screen.findByText('Processing your subscription…')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View saved transcriptions' })).not.toBeInTheDocument();

    state.user = { ...proUser };
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_POLL_MS));
    expect(await screen.findByText('Pro active')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View saved transcriptions' })).toHaveAttribute('href', '/transcricoes');
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });

  it('stops checking after about a minute and says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { calls } = fakeBillingServer(freeUser);
    renderPage(<BillingSuccessPage />, { path: `/billing/success?session_id=${SESSION}`, pattern: '/billing/success' });
    await screen.findByText('Processing your subscription…');
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_POLL_CAP_MS + SUCCESS_POLL_MS));
    expect(await screen.findByText(/taking longer than usual/)).toBeInTheDocument();
    const polls = calls.filter((c) => c.route === 'planStatus').length;
    await act(() => vi.advanceTimersByTimeAsync(10 * SUCCESS_POLL_MS));
    expect(calls.filter((c) => c.route === 'planStatus')).toHaveLength(polls);
  });
});

describe('billing cancelled page', () => {
  it('says no payment was made, with back and home', async () => {
    renderPage(<BillingCancelledPage />, { path: '/billing/cancelled' });
    expect(await screen.findByRole('heading', { name: 'Checkout cancelled' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    // No earlier entry in this (test) history: back lands on the pricing page.
    expect(screen.getByTestId('location')).toHaveTextContent('/pricing');
  });

  it('back returns to where the checkout started, never to the checkout page', async () => {
    window.sessionStorage.setItem('billing.checkoutFrom', '/profile');
    renderPage(<BillingCancelledPage />, { path: '/billing/cancelled' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
  });

  it('ends the signed-in user\'s abandoned checkout, so a new one can start at once', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { calls } = fakeBillingServer(freeUser);
    renderPage(<BillingCancelledPage />, { path: '/billing/cancelled' });
    await screen.findByRole('heading', { name: 'Checkout cancelled' });
    await vi.waitFor(() => expect(calls.filter((c) => c.route === 'cancelCheckout')).toHaveLength(1));
  });

  it('a visitor has no checkout to end', async () => {
    const { calls } = fakeBillingServer(freeUser);
    renderPage(<BillingCancelledPage />, { path: '/billing/cancelled' });
    await screen.findByRole('heading', { name: 'Checkout cancelled' });
    expect(calls.some((c) => c.route === 'cancelCheckout')).toBe(false);
  });
});
