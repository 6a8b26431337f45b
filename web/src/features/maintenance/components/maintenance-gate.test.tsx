import { QueryClientProvider } from '../../../lib/query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_BYPASS_HEADER, STORAGE_KEYS } from '@app/shared/constants';
import { api } from '../../../lib/api';
import { i18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { json, mockFetch, type MockCall } from '../../../test/render';
import { resetInitialMaintenanceCheck } from '../lib/maintenance-check';
import { DevModeBadge } from './dev-mode-badge';
import { MaintenanceGate } from './maintenance-gate';

type Handler = (call: MockCall) => Response | Promise<Response>;

/** The gate around a stand-in app that carries the header's DEV MODE badge. */
function renderGate(handler: Handler) {
  const calls = mockFetch(handler);
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <MaintenanceGate>
        <DevModeBadge />
        <h1>The app</h1>
      </MaintenanceGate>
    </QueryClientProvider>,
  );
  return calls;
}

const modeIs =
  (on: boolean, devPassword: (password: string) => Response = () => json(200, { success: false })): Handler =>
  (call) => {
    if (call.route === 'maintenanceMode') return json(200, { constructionMode: on });
    if (call.route === 'checkDevPassword') return devPassword((call.body as { password: string }).password);
    return json(404, { error: 'Not found' });
  };

beforeEach(() => resetInitialMaintenanceCheck());

describe('maintenance gate', () => {
  it('shows a loading screen, then the app when maintenance is off', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls = renderGate(async (call) => {
      await gate;
      return modeIs(false)(call);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByRole('heading', { name: 'The app' })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(calls.map((c) => c.route)).toEqual(['maintenanceMode']);
  });

  it('shows the maintenance page when maintenance is on', async () => {
    renderGate(modeIs(true));
    expect(await screen.findByRole('heading', { level: 1, name: "We'll be back soon" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dev Mode' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The app' })).not.toBeInTheDocument();
  });

  it('shows nothing on a live overlay (a transparent page over video) while maintenance is on', async () => {
    document.documentElement.classList.add('overlay');
    try {
      const calls = renderGate(modeIs(true));
      await waitFor(() => expect(calls.map((c) => c.route)).toEqual(['maintenanceMode']));
      await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
      expect(screen.queryByRole('heading')).not.toBeInTheDocument();
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
    } finally {
      document.documentElement.classList.remove('overlay');
    }
  });

  it('treats a failed check as not in maintenance', async () => {
    renderGate(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
  });

  it('treats an error answer as not in maintenance', async () => {
    renderGate(() => json(500, { error: 'Something went wrong' }));
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
  });

  it('Try again lets the visitor in once maintenance is over, or says it is still on', async () => {
    let on = true;
    renderGate((call) => modeIs(on)(call));
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The site is still under maintenance. Please try again in a few minutes.')).toBeInTheDocument();
    on = false;
    await ui.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
  });

  it('skips the check in developer mode and shows the DEV MODE badge; exit checks again', async () => {
    window.localStorage.setItem(STORAGE_KEYS.devMode, 'true');
    const calls = renderGate(modeIs(true));
    expect(screen.getByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(await screen.findByText('DEV MODE')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Exit dev mode' }));
    expect(window.localStorage.getItem(STORAGE_KEYS.devMode)).toBeNull();
    expect(await screen.findByRole('heading', { name: "We'll be back soon" })).toBeInTheDocument();
    expect(calls.map((c) => c.route)).toEqual(['maintenanceMode']);
  });
});

describe('dev mode dialog', () => {
  // The dialog's module loads when it is first opened; imported once here, a cold import's time
  // never counts against the finds that wait for the dialog.
  beforeAll(async () => {
    await import('./dev-mode-dialog');
  });

  async function openDialog(handler: Handler) {
    const calls = renderGate(handler);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Dev Mode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Developer access' });
    return { ui, dialog, calls };
  }

  it('asks for a password when it is empty, without calling the server', async () => {
    const { ui, calls } = await openDialog(modeIs(true));
    await ui.click(screen.getByRole('button', { name: 'Enter' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Please enter a password'));
    expect(calls.filter((c) => c.url.includes('check-dev-password'))).toHaveLength(0);
  });

  it('says the password is wrong, then lets the developer in with the right one', async () => {
    const { ui, calls } = await openDialog(modeIs(true, (p) => json(200, { success: p === 'open sesame' })));
    await ui.type(screen.getByLabelText('Password'), 'guess');
    await ui.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();

    await ui.clear(screen.getByLabelText('Password'));
    await ui.type(screen.getByLabelText('Password'), 'open sesame');
    await ui.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.devMode)).toBe('true');
    expect(await screen.findByText('DEV MODE')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('check-dev-password')).map((c) => c.body)).toEqual([
      { password: 'guess' },
      { password: 'open sesame' },
    ]);
  });

  it('keeps the bypass token of a right password for the API client, and exit drops it', async () => {
    const { ui, calls } = await openDialog(modeIs(true, () => json(200, { success: true, bypassToken: 'bypass.jwt' })));
    await ui.type(screen.getByLabelText('Password'), 'open sesame');
    await ui.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.devBypass)).toBe('bypass.jwt');
    await api('contact', { body: { name: 'A', email: 'a@b.co', subject: 's', message: 'm' } }).catch(() => undefined);
    expect(calls.at(-1)).toMatchObject({ route: 'contact', headers: { [DEV_BYPASS_HEADER]: 'bypass.jwt' } });

    await ui.click(screen.getByRole('button', { name: 'Exit dev mode' }));
    expect(window.localStorage.getItem(STORAGE_KEYS.devMode)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.devBypass)).toBeNull();
    await api('contact', { body: { name: 'A', email: 'a@b.co', subject: 's', message: 'm' } }).catch(() => undefined);
    expect(calls.at(-1)?.headers[DEV_BYPASS_HEADER]).toBeUndefined();
  });

  it('asks to wait when the checks are rate-limited', async () => {
    const { ui } = await openDialog(
      modeIs(true, () => json(429, { error: 'Too many password attempts.', code: 'dev_password_rate_limited', secondsLeft: 125 })),
    );
    await ui.type(screen.getByLabelText('Password'), 'guess');
    await ui.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait 02:05 and try again.');
  });

  it('speaks Portuguese: "Por favor, digite uma senha" and "Senha incorreta"', async () => {
    await act(() => i18n.changeLanguage('pt'));
    renderGate(modeIs(true));
    const ui = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Tentar novamente' })).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Dev Mode' }));
    await ui.click(await screen.findByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription('Por favor, digite uma senha'));
    await ui.type(screen.getByLabelText('Senha'), 'errada');
    await ui.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription('Senha incorreta'));
  });
});
