import { PLAN_POLL_MS, STORAGE_KEYS, UPGRADE_TOAST_MS } from '@app/shared/constants';
import { QueryClientProvider } from '../../../lib/query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes';
import { announcePlanStatus } from '../../../lib/plan-status';
import { createQueryClient } from '../../../lib/query-client';
import { markTranscriptionStarted, resetVisit } from '../../../lib/visit';
import { fakeBillingServer, freeUser, PRO_BENEFITS_EN, proUser } from '../test/fake-server';

function renderApp(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const header = () => screen.getByRole('banner');
/**
 * The first render loads lazy chunks (pages, billing), transformed on first import in the test VM:
 * about 2 s on a quiet machine, past 5 s with both cores busy, so the wait is bounded well above it.
 */
const slow = { timeout: 15_000 };
// A test waits for lazy chunks more than once, so it may take longer than vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  resetVisit();
  window.sessionStorage.clear();
  document.documentElement.classList.remove('dark');
});

describe('upgrade modal', () => {
  it('opens by itself once per visit for a free user on home, and the header Upgrade button reopens it', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(freeUser);
    const { unmount } = renderApp('/');

    const modal = await screen.findByRole('dialog', { name: 'Upgrade to Pro' }, slow);
    expect(within(modal).getByText('Get everything Live Transcribe can do for $6.00/month.')).toBeInTheDocument();
    // The Pro benefits of the pricing page, word for word; no session-length claim (a free account has no time limit).
    expect(within(modal).getAllByRole('listitem').map((li) => li.textContent)).toEqual(PRO_BENEFITS_EN);
    expect(within(modal).getByText('7-day refund guarantee. Cancel anytime.')).toBeInTheDocument();

    const ui = userEvent.setup();
    await ui.click(within(modal).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Same visit (session storage kept): home again does not reopen it.
    unmount();
    renderApp('/');
    const upgrade = await within(header()).findByRole('button', { name: 'Upgrade' }, slow);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await ui.click(upgrade);
    const again = await screen.findByRole('dialog', { name: 'Upgrade to Pro' });
    await ui.click(within(again).getByRole('button', { name: 'Upgrade now' }));
    const currency = await screen.findByRole('dialog', { name: 'Choose your currency' });
    expect(within(currency).getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('never opens by itself once a transcription has started in this visit; the Upgrade button still opens it', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(freeUser);
    markTranscriptionStarted();
    renderApp('/');
    const upgrade = await within(header()).findByRole('button', { name: 'Upgrade' }, slow);
    // The billing code has loaded (the header's slot is lazy too): had it been allowed, the modal would be open now.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem('billing.upgradeShown')).toBeNull(); // the visit's automatic turn is not spent either
    await userEvent.setup().click(upgrade);
    expect(await screen.findByRole('dialog', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('an automatic opening decided before Start but shown after it (its code loads late) stays closed', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(freeUser);
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' }, slow);
    markTranscriptionStarted();
    act(() => void window.dispatchEvent(new CustomEvent('open-upgrade', { detail: { automatic: true } })));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // A request from the user still opens it.
    act(() => void window.dispatchEvent(new CustomEvent('open-upgrade')));
    expect(await screen.findByRole('dialog', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('opens from any feature through the window event "open-upgrade"; a visitor is offered an account', async () => {
    fakeBillingServer(freeUser);
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' }, slow);
    expect(within(header()).queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument();

    act(() => void window.dispatchEvent(new CustomEvent('open-upgrade')));
    const modal = await screen.findByRole('dialog', { name: 'Upgrade to Pro' });
    expect(within(modal).getByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/register');
    expect(within(modal).queryByRole('button', { name: 'Upgrade now' })).not.toBeInTheDocument();
  });
});

describe('plan polling', () => {
  /** A free user on the profile (fake timers), once the first plan request has been made. */
  async function freeUserOnProfile() {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const server = fakeBillingServer(freeUser);
    renderApp('/profile');
    expect(await within(header()).findByRole('button', { name: 'Upgrade' }, slow)).toBeInTheDocument();
    await waitFor(() => expect(server.calls.filter((c) => c.route === 'planStatus')).toHaveLength(1));
    return server;
  }

  it('polls every 30 s; free -> Pro shows the success toast for 5 s and unlocks Pro in the header', async () => {
    const { state, calls } = await freeUserOnProfile();

    // The webhook lands: the next poll sees Pro.
    state.user = { ...proUser };
    await act(() => vi.advanceTimersByTimeAsync(PLAN_POLL_MS - 1_000));
    expect(calls.filter((c) => c.route === 'planStatus')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));

    expect(await screen.findByText('Welcome to Pro!')).toBeInTheDocument();
    expect(screen.getByText('Every Pro feature is now unlocked.')).toBeInTheDocument();
    expect(await within(header()).findByText('Pro')).toBeInTheDocument();
    expect(within(header()).getByRole('button', { name: 'Manage subscription' })).toBeInTheDocument();
    expect(within(header()).queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument();
    // The profile's plan card follows the same cached user.
    expect(await within(await screen.findByRole('region', { name: 'Your plan' })).findByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(UPGRADE_TOAST_MS + 1_000));
    await waitFor(() => expect(screen.queryByText('Welcome to Pro!')).not.toBeInTheDocument());
  });

  it('takes the plan a save answered with (the webhook landed) and asks again only when no answer came for 30 s', async () => {
    const { state, calls } = await freeUserOnProfile();

    await act(() => vi.advanceTimersByTimeAsync(PLAN_POLL_MS / 2));
    state.user = { ...proUser };
    act(() => announcePlanStatus({ plan: 'pro', isPro: true, planExpiry: proUser.planExpiry, planRenews: true }));
    expect(await screen.findByText('Welcome to Pro!')).toBeInTheDocument();
    expect(await within(header()).findByText('Pro')).toBeInTheDocument();

    // 30 s after the first answer, the save's answer is 15 s old: no request.
    await act(() => vi.advanceTimersByTimeAsync(PLAN_POLL_MS / 2 + 1_000));
    expect(calls.filter((c) => c.route === 'planStatus')).toHaveLength(1);
    // 30 s after the save's answer, the plan is asked for.
    await act(() => vi.advanceTimersByTimeAsync(PLAN_POLL_MS / 2));
    await waitFor(() => expect(calls.filter((c) => c.route === 'planStatus')).toHaveLength(2));
    // Anything not shaped as a plan status is ignored.
    act(() => announcePlanStatus({ plan: 'enterprise' }));
    expect(within(header()).getByText('Pro')).toBeInTheDocument();
  });

  it('Pro -> free (cancelled in the portal) locks Pro again without a toast', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { state } = fakeBillingServer(proUser);
    renderApp('/profile');
    expect(await within(header()).findByText('Pro', {}, slow)).toBeInTheDocument();

    state.user = { ...freeUser };
    await act(() => vi.advanceTimersByTimeAsync(PLAN_POLL_MS));
    expect(await within(header()).findByRole('button', { name: 'Upgrade' }, slow)).toBeInTheDocument();
    expect(within(header()).queryByText('Pro')).not.toBeInTheDocument();
    expect(screen.queryByText('Welcome to Pro!')).not.toBeInTheDocument();
  });

  it('greets a user who comes back Pro from checkout (the last plan seen in this tab was free)', async () => {
    window.sessionStorage.setItem(`billing.lastPlan.${freeUser.id}`, 'free');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(proUser);
    renderApp('/profile');
    expect(await screen.findByText('Welcome to Pro!', {}, slow)).toBeInTheDocument();
  });
});

describe('theme toggle', () => {
  it('is never shown to free users, and a stored dark theme is ignored for them', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    window.localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    document.documentElement.classList.add('dark'); // as index.html would have done
    fakeBillingServer({ ...freeUser, theme: 'dark' });
    renderApp('/profile');
    expect(await within(header()).findByRole('button', { name: 'Upgrade' }, slow)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dark theme' })).not.toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('is a pressed/unpressed button for Pro users, applied at once and saved to the device and the profile', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { calls } = fakeBillingServer(proUser);
    renderApp('/profile');
    const toggle = await within(header()).findByRole('button', { name: 'Dark theme' }, slow);
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(document.documentElement).not.toHaveClass('dark');

    await userEvent.setup().click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ theme: 'dark' }));
  });

  /** A Pro user clicks the theme toggle and its save fails as `fail` says: the toggle, once the failure shows. */
  async function toggleFailing(fail: 'patch' | 'patchCutOff') {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(proUser, { [fail]: true });
    renderApp('/profile');
    const toggle = await within(header()).findByRole('button', { name: 'Dark theme' }, slow);
    await userEvent.setup().click(toggle);
    expect(await screen.findByText('Error saving')).toBeInTheDocument();
    return toggle;
  }

  it('a refused save puts the previous theme back on the page and the device', async () => {
    const toggle = await toggleFailing('patch');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(document.documentElement).not.toHaveClass('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('light');
  });

  it('a save cut off on the network keeps the choice on the page and the device', async () => {
    // As when the page reloads right after the click: Chrome cuts the leaving page's call off (the
    // keepalive call still reaches the server), and the next page is painted in the chosen theme.
    const toggle = await toggleFailing('patchCutOff');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
  });

  it('applies a Pro user saved dark theme on load', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer({ ...proUser, theme: 'dark' });
    renderApp('/profile');
    expect(await within(header()).findByRole('button', { name: 'Dark theme' }, slow)).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
  });
});
