import { FREE_AUTOMATIC_PER_MONTH, STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { browser } from '../../../features/billing/lib/browser';
import { fakeBillingServer, freeUser, proUser } from '../../../features/billing/test/fake-server';
import ProfilePage from './profile-page';

async function renderPlanCard() {
  window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
  renderPage(<ProfilePage />, { path: '/profile' });
  return screen.findByRole('region', { name: 'Your plan' });
}

describe('plan card', () => {
  it('Pro: shows the renewal date; manage and cancel both open the portal in a new tab', async () => {
    const { calls } = fakeBillingServer(proUser);
    const tab = { closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(browser, 'openBlankTab').mockReturnValue(tab as unknown as Window);
    const plan = await renderPlanCard();

    expect(within(plan).getByText('Renews on February 1, 2030')).toBeInTheDocument();
    const ui = userEvent.setup();
    await ui.click(within(plan).getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => expect(tab.location.href).toBe('https://billing.example/p/cus_1'));
    expect(tab.opener).toBeNull();

    tab.location.href = '';
    await ui.click(within(plan).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(tab.location.href).toBe('https://billing.example/p/cus_1'));
    expect(open).toHaveBeenCalledTimes(2);
    expect(calls.filter((c) => c.route === 'portal')).toHaveLength(2);
  });

  it('Pro, cancelled at the period end: says until when Pro lasts, and offers Renew instead of Cancel; Renew renews at once', async () => {
    const { calls } = fakeBillingServer({ ...proUser, planRenews: false });
    const plan = await renderPlanCard();
    expect(within(plan).getByText('Pro until February 1, 2030. It will not renew.')).toBeInTheDocument();
    expect(within(plan).queryByText(/Renews on/)).not.toBeInTheDocument();
    expect(within(plan).queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(within(plan).getByRole('button', { name: 'Manage subscription' })).toBeInTheDocument();
    expect(within(plan).getByText('Manage opens the secure billing portal in a new tab.')).toBeInTheDocument();

    await userEvent.setup().click(within(plan).getByRole('button', { name: 'Renew subscription' }));
    expect(await within(plan).findByText('Renews on February 1, 2030')).toBeInTheDocument();
    expect(await screen.findByText('Your subscription will renew')).toBeInTheDocument();
    expect(screen.getByText('Pro renews on February 1, 2030.')).toBeInTheDocument();
    expect(within(plan).queryByRole('button', { name: 'Renew subscription' })).not.toBeInTheDocument();
    expect(within(plan).getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
    expect(calls.filter((c) => c.route === 'resumeSubscription' && c.method === 'POST')).toHaveLength(1);
  });

  it('Pro, cancelled: a subscription that can no longer be renewed says so and stays as it was', async () => {
    fakeBillingServer({ ...proUser, planRenews: false }, { resume: true });
    const plan = await renderPlanCard();
    await userEvent.setup().click(within(plan).getByRole('button', { name: 'Renew subscription' }));
    expect(await screen.findByText('Could not renew your subscription')).toBeInTheDocument();
    expect(screen.getByText('This subscription has already ended. Subscribe again to get Pro back.')).toBeInTheDocument();
    expect(within(plan).getByText('Pro until February 1, 2030. It will not renew.')).toBeInTheDocument();
  });

  it('Pro: a portal failure closes the blank tab and toasts', async () => {
    fakeBillingServer(proUser, { portal: true });
    const tab = { closed: false, opener: null, location: { href: '' }, close: vi.fn() };
    vi.spyOn(browser, 'openBlankTab').mockReturnValue(tab as unknown as Window);
    const plan = await renderPlanCard();
    await userEvent.setup().click(within(plan).getByRole('button', { name: 'Manage subscription' }));
    expect(await screen.findByText('Could not open subscription management')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
  });

  it('free: the price, an upgrade that opens the upgrade modal, the Pro features and the desktop app note', async () => {
    fakeBillingServer(freeUser);
    const plan = await renderPlanCard();
    expect(within(plan).getByText('Pro costs $6.00/month (or R$35.00/month).')).toBeInTheDocument();
    expect(within(plan).getByText('Manage: available with Pro')).toBeInTheDocument();
    expect(await within(plan).findByText(`2 of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`)).toBeInTheDocument();
    expect(
      within(plan).getByText(`No time limit on sessions, English recognition and ${FREE_AUTOMATIC_PER_MONTH} recordings kept each month.`),
    ).toBeInTheDocument();
    expect(within(plan).queryByRole('button', { name: 'Manage subscription' })).not.toBeInTheDocument();
    expect(within(plan).getByText('Export as TXT, SRT or VTT')).toBeInTheDocument();
    expect(within(plan).getByText('Desktop app coming soon.')).toBeInTheDocument();

    const opened = vi.fn();
    window.addEventListener('open-upgrade', opened);
    await userEvent.setup().click(within(plan).getByRole('button', { name: 'Upgrade to Pro' }));
    window.removeEventListener('open-upgrade', opened);
    expect(opened).toHaveBeenCalledOnce();
  });
});
