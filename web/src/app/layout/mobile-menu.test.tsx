import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@app/shared/schemas/auth';
import { renderPage } from '../../test/render';
import { MobileMenu } from './mobile-menu';

const ana: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z', surveyShown: false,
};

const sheet = () => screen.queryByRole('dialog', { name: 'Menu' });

describe('mobile menu', () => {
  it('opens a sheet with the visitor links; Escape closes it and the focus goes back to the menu button', async () => {
    renderPage(<MobileMenu user={null} />, { pattern: '*' });
    const ui = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');

    await ui.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', dialog.id);
    const nav = within(dialog).getByRole('navigation', { name: 'Mobile menu' });
    expect(within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Pricing', '/pricing'],
      ['Log in', '/login'],
      ['Sign up', '/register'],
    ]);
    // The focus moved into the sheet and stays there.
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    for (let i = 0; i < 5; i++) await ui.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await ui.keyboard('{Escape}');
    await waitFor(() => expect(sheet()).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes with its Close button, and when a link changes the page', async () => {
    renderPage(<MobileMenu user={null} />, { pattern: '*' });
    const ui = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Menu' });

    await ui.click(button);
    await ui.click(within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(sheet()).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    await ui.click(button);
    await ui.click(within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Pricing' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/pricing');
    await waitFor(() => expect(sheet()).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  /** The links of the signed-in menu, opened at `path`, in their order. */
  async function signedInLinks(user: User, path: string) {
    renderPage(<MobileMenu user={user} />, { path, pattern: '*' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Menu' }));
    const nav = within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('navigation', { name: 'Mobile menu' });
    return { nav, links: within(nav).getAllByRole('link') };
  }

  it('gives a signed-in free user the app links, named by what is there, the Pro page tagged; the account and logging out', async () => {
    const { nav, links } = await signedInLinks(ana, '/transcricoes-automaticas');
    const named = ['Transcribe', 'My recordings', 'Saved (Pro)', 'Help', 'Account'].map((name) => within(nav).getByRole('link', { name }));
    expect(links).toEqual(named);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/', '/transcricoes-automaticas', '/transcricoes', '/help', '/profile']);
    expect(within(nav).getByRole('link', { name: 'My recordings' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Saved (Pro)' })).toHaveTextContent('SavedPRO');
    expect(within(nav).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('gives a Pro user the saved transcriptions without the Pro tag', async () => {
    const { nav, links } = await signedInLinks({ ...ana, plan: 'pro' }, '/transcricoes');
    expect(links).toEqual(['Transcribe', 'My recordings', 'Saved', 'Help', 'Account'].map((name) => within(nav).getByRole('link', { name })));
    expect(within(nav).getByRole('link', { name: 'Saved' })).toHaveTextContent(/^Saved$/);
    expect(within(nav).getByRole('link', { name: 'Saved' })).toHaveAttribute('aria-current', 'page');
  });

  it('closes when the screen grows to the width where the header shows its links', async () => {
    let wide = false;
    const listeners = new Set<() => void>();
    vi.stubGlobal('matchMedia', (media: string) => ({
      media,
      get matches() {
        return wide && media === '(min-width: 768px)';
      },
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    }));
    renderPage(<MobileMenu user={null} />, { pattern: '*' });
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Menu' }));
    await screen.findByRole('dialog', { name: 'Menu' });
    expect(listeners.size).toBe(1);

    wide = true;
    act(() => listeners.forEach((listener) => listener()));
    await waitFor(() => expect(sheet()).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(listeners.size).toBe(0);
  });
});
