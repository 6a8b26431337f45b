import { STORAGE_KEYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import type { AutomaticTranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import AutomaticPage from './automatic-page';

const user: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

interface Item extends AutomaticTranscriptionSummary {
  fullTranscript: string;
}
const item = (id: string, text: string, isCompleted: boolean, duration: number, createdAt: string): Item => ({
  _id: id, sessionId: id, language: 'pt-BR', isCompleted, duration, createdAt, updatedAt: createdAt,
  preview: text.slice(0, 200), length: text.length, fullTranscript: text,
});
const ID_A = '01JP0000000000000000000AAA';
const ID_B = '01JN0000000000000000000BBB';
const items = [
  item(ID_A, 'Sessão em andamento sobre o projeto', false, 65, '2025-03-15T12:00:00.000Z'),
  item(ID_B, 'Aula terminada de química', true, 3725, '2025-02-15T12:00:00.000Z'),
];

function fakeServer({ plan = 'free' as User['plan'], startedThisMonth = 3 } = {}) {
  const state = { items: [...items] };
  const calls = mockFetch((call: MockCall) => {
    const url = new URL(call.url, 'http://localhost');
    const q = url.searchParams;
    if (url.pathname === '/api/auth/me') return json(200, { ...user, plan });
    if (url.pathname === '/api/transcriptions-autosave' && call.method === 'GET') {
      const found = state.items.filter(
        (i) =>
          (!q.get('search') || i.fullTranscript.toLowerCase().includes(q.get('search')!.toLowerCase())) &&
          (!q.get('month') || i.createdAt.startsWith(q.get('month')!)) &&
          (!q.get('completed') || String(i.isCompleted) === q.get('completed')),
      );
      return json(200, { transcriptions: found.map(({ fullTranscript: _, ...s }) => s), nextCursor: null, startedThisMonth });
    }
    const one = /^\/api\/transcriptions-autosave\/(\w+)$/.exec(url.pathname);
    if (one && call.method === 'GET') return json(200, { ...state.items.find((i) => i._id === one[1]), segments: [] });
    if (one && call.method === 'DELETE') {
      state.items = state.items.filter((i) => i._id !== one[1]);
      return json(200, { ok: true });
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  const lists = () => calls.filter((c) => c.url.startsWith('/api/transcriptions-autosave?') || c.url === '/api/transcriptions-autosave');
  return { calls, lists, state };
}

const signIn = () => window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
const listOf = () => screen.getByRole('list', { name: 'Automatic transcriptions' });

describe('automatic transcriptions page (/transcricoes-automaticas)', () => {
  it('asks visitors to log in, with no request', async () => {
    const { calls } = fakeServer();
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    expect(await screen.findByRole('heading', { name: 'Login required' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('lists sessions with status, mm:ss durations and previews, and the free counter "n of 5"', async () => {
    signIn();
    fakeServer();
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'Automatic transcriptions' });
    const [first, second] = within(listOf()).getAllByRole('listitem');
    expect(first).toHaveTextContent('In progress');
    expect(first).toHaveTextContent('01:05');
    expect(first).toHaveTextContent('Portuguese (Brazil)');
    expect(first).toHaveTextContent('Sessão em andamento sobre o projeto');
    expect(second).toHaveTextContent('Finished');
    expect(second).toHaveTextContent('62:05');
    expect(screen.getByText('3 of 5 automatic transcriptions started this month')).toBeInTheDocument();
  });

  it('shows no counter to Pro users', async () => {
    signIn();
    fakeServer({ plan: 'pro' });
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'Automatic transcriptions' });
    expect(screen.queryByText(/of 5 automatic transcriptions/)).not.toBeInTheDocument();
  });

  it('filters by completion, by a month from the loaded items, and by search', async () => {
    signIn();
    const { lists } = fakeServer();
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'Automatic transcriptions' });
    const ui = userEvent.setup();
    const status = screen.getByRole('group', { name: 'Status' });
    expect(within(status).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    await ui.click(within(status).getByRole('button', { name: 'Finished' }));
    await waitFor(() => expect(within(listOf()).getAllByRole('listitem')).toHaveLength(1));
    expect(listOf()).toHaveTextContent('Aula terminada de química');
    expect(new URL(lists().at(-1)!.url, 'http://x').searchParams.get('completed')).toBe('true');

    await ui.click(within(status).getByRole('button', { name: 'In progress' }));
    await waitFor(() => expect(listOf()).toHaveTextContent('Sessão em andamento'));
    expect(new URL(lists().at(-1)!.url, 'http://x').searchParams.get('completed')).toBe('false');
    await ui.click(within(status).getByRole('button', { name: 'All' }));
    await waitFor(() => expect(within(listOf()).getAllByRole('listitem')).toHaveLength(2));

    const month = screen.getByRole('combobox', { name: 'Month' });
    expect(within(month).getAllByRole('option').map((o) => o.textContent)).toEqual(['All months', 'March 2025', 'February 2025']);
    await ui.selectOptions(month, '2025-02');
    await waitFor(() => expect(within(listOf()).getAllByRole('listitem')).toHaveLength(1));
    expect(new URL(lists().at(-1)!.url, 'http://x').searchParams.get('month')).toBe('2025-02');
    // The months seen stay in the dropdown.
    expect(within(month).getAllByRole('option')).toHaveLength(3);
    await ui.selectOptions(month, '');

    await ui.type(screen.getByRole('searchbox', { name: 'Search' }), 'química');
    await ui.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(within(listOf()).getAllByRole('listitem')).toHaveLength(1));
    expect(new URL(lists().at(-1)!.url, 'http://x').searchParams.get('search')).toBe('química');

    await ui.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(within(listOf()).getAllByRole('listitem')).toHaveLength(2));
  });

  it('opens a session and deletes it after a confirmation', async () => {
    signIn();
    const { calls } = fakeServer();
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'Automatic transcriptions' });
    const ui = userEvent.setup();
    const [first] = within(listOf()).getAllByRole('listitem');
    await ui.click(within(first!).getByRole('button', { name: /^Open the transcription of/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Transcription of/ });
    expect(await within(dialog).findByRole('region', { name: 'Transcript' })).toHaveTextContent('Sessão em andamento sobre o projeto');

    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this automatic transcription?' });
    await ui.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Transcription deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`/api/transcriptions-autosave/${ID_A}`);
    expect(within(listOf()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('names every control in Portuguese (Todas / Finalizadas / Em andamento)', async () => {
    signIn();
    fakeServer();
    await i18n.changeLanguage('pt');
    renderPage(<AutomaticPage />, { path: '/transcricoes-automaticas' });
    const status = await screen.findByRole('group', { name: 'Status' });
    expect(within(status).getAllByRole('button').map((b) => b.textContent)).toEqual(['Todas', 'Finalizadas', 'Em andamento']);
    expect(screen.getByRole('combobox', { name: 'Mês' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toBeInTheDocument();
    expect(await screen.findByText('3 de 5 transcrições automáticas iniciadas este mês')).toBeInTheDocument();
  });
});
