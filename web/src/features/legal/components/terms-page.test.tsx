import { act, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { renderPage } from '../../../test/render';
import { termsContent } from '../content/terms-content';
import TermsPage from './terms-page';

const page = (
  <Suspense fallback={<p>loading</p>}>
    <TermsPage />
  </Suspense>
);

describe('terms page', () => {
  it('shows the terms and privacy text with its sections and contents', async () => {
    await termsContent.load('en');
    renderPage(page, { path: '/terms' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms and privacy' })).toBeInTheDocument();
    expect(screen.getByText('Last updated: November 22, 2026')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '11. Your rights (LGPD and GDPR)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '6. How your speech is processed' })).toHaveAttribute('href', '#speech');
    expect(screen.getByText(/within 7 days of that payment/)).toBeInTheDocument();
    expect(screen.getByText(/We reply within 24 hours/)).toBeInTheDocument();
  });

  it('follows the UI language', async () => {
    await act(() => i18n.changeLanguage('pt'));
    await termsContent.load('pt');
    renderPage(page, { path: '/terms' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Termos e privacidade' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '11. Seus direitos (LGPD e GDPR)' })).toBeInTheDocument();
  });
});
