import { DEFAULT_RECOGNITION_LANGUAGES, STORAGE_KEYS, type UiLanguage } from '@app/shared/constants';
import { RECOGNITION_LANGUAGES } from '@app/shared/recognition-languages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';

const baseUser = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

/** A tiny fake of GET/PATCH /api/auth/me. */
function fakeServer(initial = baseUser, failPatch = false) {
  let user = { ...initial };
  return mockFetch((call: MockCall) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'updateMe') {
      if (failPatch) return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' });
      user = { ...user, ...(call.body as object) };
      return json(200, user);
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
}

describe('profile page', () => {
  it('asks visitors to log in', async () => {
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    expect(await screen.findByRole('heading', { name: 'Login required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(0);
  });

  it('saves the name with a real PATCH and toasts "Profile updated"', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Ana');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');

    const ui = userEvent.setup();
    await ui.clear(name);
    await ui.type(name, 'Ana Maria');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Ana Maria' });
  });

  it('toasts the save error when the server refuses', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer(baseUser, true);
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Name'), '!');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error saving')).toBeInTheDocument();
    expect(screen.getByText('Could not update your profile.')).toBeInTheDocument();
  });

  it('switches the interface language at once and saves it to the profile', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const group = await screen.findByRole('group', { name: 'Interface language' });
    expect(within(group).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.setup().click(within(group).getByRole('button', { name: 'Português' }));
    expect(await screen.findByRole('heading', { name: 'Sua conta' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Português' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.lang).toBe('pt');
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ language: 'pt' }));
    expect(i18n.language).toBe('pt');
  });

  it('saves quick interface language switches one after another, so the last one is kept', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    let user = { ...baseUser };
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const calls = mockFetch(async (call: MockCall) => {
      if (call.route === 'getMe') return json(200, user);
      if (call.route !== 'updateMe') return json(404, { error: 'Not found', code: 'not_found' });
      if ((call.body as { language?: string }).language === 'pt') await firstHeld;
      user = { ...user, ...(call.body as object) };
      return json(200, user);
    });
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('group', { name: 'Interface language' })).getByRole('button', { name: 'Português' }));
    await ui.click(within(await screen.findByRole('group', { name: 'Idioma da interface' })).getByRole('button', { name: 'Español' }));
    const patches = () => calls.filter((c) => c.method === 'PATCH').map((c) => c.body);
    // The second save waits for the first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(patches()).toEqual([{ language: 'pt' }]);
    releaseFirst();
    await waitFor(() => expect(patches()).toEqual([{ language: 'pt' }, { language: 'es' }]));
    await waitFor(() => expect(user.language).toBe('es'));
    await waitFor(() => expect(i18n.language).toBe('es'));
  });

  it('tells when the interface language could not be saved, and keeps it switched', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer(baseUser, true);
    renderPage(<ProfilePage />, { path: '/profile' });
    const group = await screen.findByRole('group', { name: 'Interface language' });
    await userEvent.setup().click(within(group).getByRole('button', { name: 'Español' }));
    expect(await screen.findByText('Error al guardar')).toBeInTheDocument();
    expect(i18n.language).toBe('es');
  });

  it('saves the default transcription language and keeps it on the device (Pro)', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer({ ...baseUser, plan: 'pro' });
    renderPage(<ProfilePage />, { path: '/profile' });
    const select = await screen.findByRole('combobox', { name: 'Default transcription language' });
    expect(select).toHaveValue('pt-BR');
    expect(within(select).getByRole('option', { name: 'Portuguese (Brazil)' })).toBeInTheDocument();

    // Every recognition language: the featured ones, then all the others by name.
    const groups = within(select).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('label'))).toEqual(['Featured', 'All languages']);
    expect(select.querySelectorAll('option')).toHaveLength(RECOGNITION_LANGUAGES.length);
    expect(within(groups[1]!).getAllByRole('option').slice(0, 2).map((o) => o.textContent)).toEqual(['Afrikaans (South Africa)', 'Amharic (Ethiopia)']);

    await userEvent.setup().selectOptions(select, 'ja-JP');
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ transcriptionLang: 'ja-JP' });
    expect(window.localStorage.getItem(STORAGE_KEYS.transcriptionLang)).toBe('ja-JP');
  });

  it("Pro, with no transcription language chosen: it follows the interface language, as the server answers it", async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    let user = { ...baseUser, plan: 'pro', transcriptionLang: 'en-US' };
    mockFetch((call: MockCall) => {
      if (call.route === 'getMe') return json(200, user);
      if (call.route !== 'updateMe') return json(404, { error: 'Not found' });
      const { language } = call.body as { language: UiLanguage };
      user = { ...user, language, transcriptionLang: DEFAULT_RECOGNITION_LANGUAGES[language] };
      return json(200, user);
    });
    renderPage(<ProfilePage />, { path: '/profile' });
    expect(await screen.findByRole('combobox', { name: 'Default transcription language' })).toHaveValue('en-US');
    await userEvent.setup().click(within(screen.getByRole('group', { name: 'Interface language' })).getByRole('button', { name: 'Español' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Idioma de transcripción predeterminado' })).toHaveValue('es-ES'));
    // Nothing was chosen on this device either.
    expect(window.localStorage.getItem(STORAGE_KEYS.transcriptionLang)).toBeNull();
  });

  it('free users: the Pro-only recognition languages are disabled with the Pro hint and an upgrade', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const select = await screen.findByRole('combobox', { name: 'Default transcription language' });
    expect(select).toHaveValue('en-US');
    expect(within(select).getByRole('option', { name: 'English (United States)' })).toBeEnabled();
    expect(within(select).getByRole('option', { name: 'Portuguese (Brazil) (Pro)' })).toBeDisabled();
    expect(within(select).getByRole('option', { name: 'Russian (Russia) (Pro)' })).toBeDisabled();
    expect(select).toHaveAccessibleDescription(/Other languages are available with Pro\./);
    let opened = false;
    window.addEventListener('open-upgrade', () => (opened = true), { once: true });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Unlock every language' }));
    expect(opened).toBe(true);
  });

  it('shows the free plan with the Pro price and a working upgrade (the plan card has its own tests)', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(plan).getByText('Free')).toBeInTheDocument();
    expect(within(plan).getByText('Pro costs $6.00/month (or R$35.00/month).')).toBeInTheDocument();
    expect(within(plan).getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
  });
});
