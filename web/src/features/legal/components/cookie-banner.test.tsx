import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import { json, mockFetch, renderPage } from '../../../test/render';
import { CookieBanner } from './cookie-banner';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

describe('cookie banner', () => {
  for (const path of ['/', '/login', '/register']) {
    it(`shows for visitors on ${path}`, () => {
      mockFetch(() => json(200, { ok: true }));
      renderPage(<CookieBanner />, { path });
      const banner = screen.getByRole('region', { name: 'Cookie notice' });
      expect(within(banner).getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/terms');
    });
  }

  it('is not shown on other pages', () => {
    renderPage(<CookieBanner />, { path: '/help' });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });

  it('is not shown to signed-in users', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    mockFetch(() => json(200, user));
    const { queryClient } = renderPage(<CookieBanner />, { path: '/' });
    await screen.findByTestId('location');
    await queryClient.getQueryCache().find({ queryKey: ['auth', 'me'] })?.promise;
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });

  it('goes away on Accept, remembers it and records one visit', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    renderPage(<CookieBanner />, { path: '/' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.cookiesAccepted)).toBe('true');
    // The measurement code loads on acceptance, then records.
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/auth/analytics']));
  });

  it('reserves its height over the bottom of the page while shown, and gives it back on Accept', async () => {
    mockFetch(() => json(200, { ok: true }));
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 88.4, width: 390, top: 756, bottom: 844.4, left: 0, right: 390, x: 0, y: 756 } as DOMRect);
    renderPage(<CookieBanner />, { path: '/' });
    const root = document.documentElement.style;
    const notice = screen.getByRole('region', { name: 'Cookie notice' });
    // Focus scrolls clear of it; the room at the end of the page is as tall; <html> carries no inherited variable.
    expect(root.scrollPaddingBottom).toBe('89px');
    expect((notice.previousElementSibling as HTMLElement).style.getPropertyValue('--bottom-inset')).toBe('89px');
    expect(root.getPropertyValue('--bottom-inset')).toBe('');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    expect(root.scrollPaddingBottom).toBe('');
  });

  it('is not shown once accepted', () => {
    window.localStorage.setItem(STORAGE_KEYS.cookiesAccepted, 'true');
    renderPage(<CookieBanner />, { path: '/' });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });
});
