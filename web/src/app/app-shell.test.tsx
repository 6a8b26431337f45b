import { STORAGE_KEYS } from '@app/shared/constants';
import { QueryClientProvider } from '../lib/query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { json, mockFetch } from '../test/render';
import { AppRoutes } from './routes';
import { SessionSync } from './session-sync';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'pt', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

function renderApp(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={queryClient}>
      <SessionSync />
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('app shell', () => {
  it('shows visitors the headline, login and sign-up links and the footer links', async () => {
    const calls = mockFetch(() => json(404, {}));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Speech to text, live in your browser' })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Live Transcribe home' })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(header).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(within(header).queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Terms and privacy' })).toHaveAttribute('href', '/terms');
    expect(within(footer).getByRole('link', { name: 'Help center' })).toHaveAttribute('href', '/help');
    expect(calls).toHaveLength(0); // no token, no /me call
    // Session recording blanks the text of the main region (transcripts, titles, account details): the header and footer stay readable.
    expect(screen.getByRole('main')).toHaveAttribute('data-clarity-mask', 'true');
    expect(header.closest('[data-clarity-mask]')).toBeNull();
  });

  it('shows the 404 page with a link home on an unknown path', async () => {
    mockFetch(() => json(404, {}));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('logs out on start when the stored token is refused', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'expired');
    mockFetch(() => json(401, { error: 'Your session has expired. Sign in again.', code: 'session_expired' }));
    renderApp('/');
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
  });

  it('a stored token the server refuses is deleted and the page shows a visitor; with no answer it waits for the next load', async () => {
    window.localStorage.setItem(STORAGE_KEYS.legacyToken, 'old.stored.token');
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const offline = renderApp('/');
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.legacyToken)).toBe('old.stored.token');
    offline.unmount();

    mockFetch(() => json(401, { error: 'Your session has expired. Sign in again.', code: 'session_expired' }));
    renderApp('/');
    await waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.legacyToken)).toBeNull());
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
  });

  it('moves a session token an earlier version stored into the cookie once, then keeps only whose session it is', async () => {
    window.localStorage.setItem(STORAGE_KEYS.legacyToken, 'old.stored.token');
    // Who the user is; what the profile's sections ask for, a 404 (not the user, which they would misread).
    const calls = mockFetch((call) =>
      call.route === 'exchangeSession' ? json(200, { user }) : call.route === 'getMe' ? json(200, user) : json(404, { error: 'Not found' }),
    );
    renderApp('/profile');
    expect(await screen.findByRole('button', { name: 'Menu da conta' })).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ route: 'exchangeSession', headers: { authorization: 'Bearer old.stored.token' }, credentials: 'same-origin' });
    expect(calls.filter((c) => c.headers.authorization !== undefined)).toHaveLength(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.legacyToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe(user.id);
  });

  it('applies the signed-in user saved language, shows the nav and user menu, and logs out', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    // Who the user is; what the profile's sections ask for, a 404 (not the user, which they would misread).
    mockFetch((call) => (call.route === 'getMe' ? json(200, user) : json(404, { error: 'Not found' })));
    renderApp('/profile');

    // The user saved 'pt': the UI follows it.
    const nav = await screen.findByRole('navigation', { name: 'Principal' });
    expect(document.documentElement.lang).toBe('pt');
    // Named by what is there; the saved transcriptions are tagged Pro for this free user.
    const links = ['Transcrever', 'Minhas gravações', 'Salvas (Pro)', 'Ajuda'].map((name) => within(nav).getByRole('link', { name }));
    expect(within(nav).getAllByRole('link')).toEqual(links);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/', '/transcricoes-automaticas', '/transcricoes', '/help']);

    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Menu da conta' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Conta' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Ajuda' })).toHaveAttribute('href', '/help');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Sair' }));

    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Entrar' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Fala em texto, ao vivo no seu navegador' })).toBeInTheDocument();
  });

  it('the mobile menu button reports its state and reveals the links', async () => {
    mockFetch(() => json(404, {}));
    renderApp('/');
    const button = await screen.findByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile menu' })).not.toBeInTheDocument();
    await userEvent.setup().click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const mobile = await screen.findByRole('navigation', { name: 'Mobile menu' });
    expect(within(mobile).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('redirects /history to /transcricoes', async () => {
    mockFetch(() => json(404, {}));
    renderApp('/history');
    // The saved transcriptions page of /transcricoes (a visitor is asked to log in).
    expect(await screen.findByRole('heading', { level: 1, name: 'Login required' })).toBeInTheDocument();
    expect(screen.getByText('Log in to see your saved transcriptions.')).toBeInTheDocument();
  });
});
