import { STORAGE_KEYS } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { browser } from '../lib/browser';
import { fakeBillingServer, freeUser } from '../test/fake-server';
import { CurrencyDialog } from './currency-dialog';

function renderDialog(errorTitle?: string) {
  window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
  return renderPage(<CurrencyDialog open onOpenChange={() => undefined} userId={freeUser.id} errorTitle={errorTitle} />);
}

describe('currency dialog', () => {
  it('keeps Continue disabled until a currency is chosen, then goes to the checkout URL', async () => {
    const { calls } = fakeBillingServer(freeUser);
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderDialog();

    const dialog = await screen.findByRole('dialog', { name: 'Choose your currency' });
    const usd = within(dialog).getByRole('radio', { name: /US dollar \(USD\)/ });
    const brl = within(dialog).getByRole('radio', { name: /Brazilian real \(BRL\)/ });
    // The prices of the one price table, as the UI language writes them.
    expect(within(dialog).getByText('$6.00/month')).toBeInTheDocument();
    expect(within(dialog).getByText('R$35.00/month')).toBeInTheDocument();
    expect(usd).not.toBeChecked();
    expect(brl).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();

    const ui = userEvent.setup();
    await ui.click(brl);
    expect(brl).toBeChecked();
    const next = within(dialog).getByRole('button', { name: 'Continue' });
    expect(next).toBeEnabled();
    await ui.click(next);

    // Processing until the browser leaves: the button is busy, the choice locked.
    expect(await within(dialog).findByRole('button', { name: 'Redirecting to checkout…' })).toBeDisabled();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/c/cs_test_123'));
    expect(calls.find((c) => c.route === 'checkout')).toMatchObject({ method: 'POST', body: { currency: 'BRL' } });
    expect(within(dialog).getByRole('group', { name: 'Currency' })).toBeDisabled();
  });

  it('shows the destructive upgrade error toast when checkout fails, and lets the user retry', async () => {
    fakeBillingServer(freeUser, { checkout: true });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderDialog();

    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('radio', { name: /USD/ }));
    await ui.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Upgrade error')).toBeInTheDocument();
    expect(screen.getByText('We could not start the checkout. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Upgrade error').closest('[data-type]')).toHaveAttribute('data-type', 'error');
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('uses the title it is given for the failure toast (the pricing page: "Payment error")', async () => {
    fakeBillingServer(freeUser, { checkout: true });
    renderDialog('Payment error');
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('radio', { name: /BRL/ }));
    await ui.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Payment error')).toBeInTheDocument();
  });

  it('explains a checkout already open in another currency instead of a generic error', async () => {
    fakeBillingServer(freeUser, { checkoutOpen: true });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderDialog();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('radio', { name: /BRL/ }));
    await ui.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('A checkout is already open')).toBeInTheDocument();
    expect(screen.getByText(/cancel it there to choose again/)).toBeInTheDocument();
    expect(screen.queryByText('Upgrade error')).not.toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });
});
