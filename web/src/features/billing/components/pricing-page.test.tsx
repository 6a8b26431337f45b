import { FREE_AUTOMATIC_PER_MONTH, STORAGE_KEYS, VISITOR_LIMIT_SECONDS } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { renderPage } from '../../../test/render';
import { fakeBillingServer, freeUser, PRO_BENEFITS_EN, proUser } from '../test/fake-server';
import PricingPage from './pricing-page';

const location = () => screen.getByTestId('location').textContent;

describe('pricing page', () => {
  it('shows free and Pro with the prices checkout charges, in both currencies', async () => {
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    expect(within(pro).getByText('$6.00')).toBeInTheDocument();
    expect(within(pro).getByText('or R$35.00/month')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Free' })).getByText('$0')).toBeInTheDocument();
    // Never the R$ 19,90 reading.
    expect(document.body.textContent).not.toMatch(/19[.,]90/);
  });

  it('lists the free plan and what Pro adds, with the numbers of the shared constants', async () => {
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    const free = screen.getByRole('region', { name: 'Free' });
    expect(within(free).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Live speech-to-text in your browser',
      'No time limit on sessions',
      'English recognition',
      `${FREE_AUTOMATIC_PER_MONTH} recordings kept each month`,
    ]);
    expect(within(free).getByText(`Without an account, each session stops after ${VISITOR_LIMIT_SECONDS} seconds.`)).toBeInTheDocument();
    expect(within(pro).getAllByRole('listitem').map((li) => li.textContent)).toEqual(PRO_BENEFITS_EN);
  });

  it('says the plans in Spanish with the same numbers', async () => {
    await i18n.changeLanguage('es');
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    const free = screen.getByRole('region', { name: 'Gratis' });
    expect(within(free).getByText(`${FREE_AUTOMATIC_PER_MONTH} grabaciones conservadas al mes`)).toBeInTheDocument();
    expect(within(free).getByText(`Sin cuenta, cada sesión se detiene a los ${VISITOR_LIMIT_SECONDS} segundos.`)).toBeInTheDocument();
    expect(within(pro).getByText('Grabaciones sin límite mensual')).toBeInTheDocument();
  });

  it('leads with BRL in Portuguese', async () => {
    await i18n.changeLanguage('pt');
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    expect(within(pro).getByText('R$ 35,00')).toBeInTheDocument();
    expect(within(pro).getByText('ou US$ 6,00/mês')).toBeInTheDocument();
  });

  it('sends an anonymous visitor who subscribes to /register', async () => {
    const { calls } = fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    await userEvent.setup().click(within(pro).getByRole('link', { name: 'Subscribe' }));
    expect(location()).toBe('/register');
    expect(calls).toHaveLength(0);
  });

  it('takes a free user through the currency dialog', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const pro = await screen.findByRole('region', { name: /^Pro/ });
    await waitFor(() => expect(within(pro).getByRole('button', { name: 'Subscribe' })).toBeEnabled());
    await userEvent.setup().click(within(pro).getByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose your currency' });
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('tells a Pro user they are Pro', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeBillingServer(proUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    expect(await screen.findByText("You're Pro")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it('has an FAQ where one answer is open at a time', async () => {
    fakeBillingServer(freeUser);
    renderPage(<PricingPage />, { path: '/pricing' });
    const ui = userEvent.setup();
    const cancel = await screen.findByRole('button', { name: 'Can I cancel anytime?' });
    const currencies = screen.getByRole('button', { name: 'Which currencies can I pay in?' });
    expect(cancel).toHaveAttribute('aria-expanded', 'false');

    await ui.click(cancel);
    expect(cancel).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'Can I cancel anytime?' })).toBeVisible();

    await ui.click(currencies);
    expect(cancel).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('region', { name: 'Which currencies can I pay in?' })).toHaveTextContent(
      'US dollars ($6.00/month) or Brazilian reais (R$35.00/month).',
    );
    await ui.click(currencies);
    expect(currencies).toHaveAttribute('aria-expanded', 'false');
  });
});
