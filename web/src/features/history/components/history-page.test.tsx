import { STORAGE_KEYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import type { TranscriptionDetail } from '@app/shared/schemas/transcriptions';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import HistoryPage from './history-page';

const user: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'pro', planExpiry: '2030-01-01T00:00:00.000Z', surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

const ID_A = '01JP0000000000000000000AAA';
const ID_B = '01JN0000000000000000000BBB';
const longText = `Reunião de planejamento: ${'discutimos o orçamento e os prazos do projeto. '.repeat(10)}`;
const detail = (id: string, title: string, text: string, duration: number, createdAt: string): TranscriptionDetail => ({
  _id: id, title, subject: '', createdAt, timestamp: createdAt, duration, language: 'pt-BR',
  preview: text.slice(0, 200), length: text.length, fullTranscript: text,
  segments: [{ text, startMs: 0, endMs: duration * 1000 }],
});
const items = [
  detail(ID_A, 'Planejamento', longText, 125, '2025-03-10T12:00:00.000Z'),
  detail(ID_B, 'Aula de física', 'Energia cinética', 45, '2025-02-02T09:30:00.000Z'),
];
const summary = ({ fullTranscript: _f, segments: _s, ...rest }: TranscriptionDetail) => rest;

/** A fake of /me and the saved-transcription routes. */
function fakeServer({ plan = 'pro' as User['plan'], pages = [items], failDelete = false, failList = false } = {}) {
  const state = { items: [...items] };
  const calls = mockFetch((call: MockCall) => {
    const url = new URL(call.url, 'http://localhost');
    if (url.pathname === '/api/auth/me') return json(200, { ...user, plan });
    if (url.pathname === '/api/transcriptions' && call.method === 'GET') {
      if (failList) return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' });
      const q = url.searchParams;
      if (q.get('search') || q.get('month')) {
        const found = state.items.filter(
          (i) => (!q.get('search') || i.fullTranscript.includes(q.get('search')!)) && (!q.get('month') || i.createdAt.startsWith(q.get('month')!)),
        );
        return json(200, { transcriptions: found.map(summary), nextCursor: null });
      }
      const page = q.get('cursor') ? 1 : 0;
      const list = (pages[page] ?? []).filter((i) => state.items.some((s) => s._id === i._id));
      return json(200, { transcriptions: list.map(summary), nextCursor: page + 1 < pages.length ? 'next' : null });
    }
    const one = /^\/api\/transcriptions\/(\w+)$/.exec(url.pathname);
    if (one) return json(200, state.items.find((i) => i._id === one[1]));
    const del = /^\/transcriptions\/(\w+)$/.exec(url.pathname);
    if (del && call.method === 'DELETE') {
      if (failDelete) return json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' });
      state.items = state.items.filter((i) => i._id !== del[1]);
      return json(200, { ok: true });
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  const lists = () => calls.filter((c) => c.url.startsWith('/api/transcriptions?') || c.url === '/api/transcriptions');
  return { calls, lists, state };
}

const signIn = () => window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
const dateOf = (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

describe('history page (/transcricoes)', () => {
  it('asks visitors to log in, with no request', async () => {
    const { calls } = fakeServer();
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    expect(await screen.findByRole('heading', { name: 'Login required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(0);
  });

  it('shows non-Pro users the restricted-access banner, opens the upgrade modal, and never asks for the list', async () => {
    signIn();
    const { calls } = fakeServer({ plan: 'free' });
    const opened = vi.fn();
    window.addEventListener('open-upgrade', opened);
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    expect(await screen.findByRole('heading', { name: 'History is a Pro feature' })).toBeInTheDocument();
    expect(screen.getByText('Only Pro users can access the transcription history.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    expect(opened).toHaveBeenCalledTimes(1);
    window.removeEventListener('open-upgrade', opened);
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/me']);
  });

  it('in Portuguese, the banner says only Pro users can access the history', async () => {
    signIn();
    fakeServer({ plan: 'free' });
    await i18n.changeLanguage('pt');
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    expect(await screen.findByText('Apenas usuários Pro podem acessar o histórico de transcrições.')).toBeInTheDocument();
  });

  it('lists saved transcriptions newest first: title, date, duration, 200-character preview, count', async () => {
    signIn();
    const { lists } = fakeServer();
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    const list = await screen.findByRole('list', { name: 'Saved transcriptions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('button', { name: 'Planejamento' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText(dateOf(items[0]!.createdAt))).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('2 min 5 s');
    expect(rows[1]).toHaveTextContent('45 s');
    expect(rows[0]).toHaveTextContent(`${longText.slice(0, 200)}…`);
    expect(screen.getByRole('status')).toHaveTextContent('2 transcriptions');
    expect(new URL(lists()[0]!.url, 'http://x').searchParams.get('limit')).toBe('20');
  });

  it('filters by search and month, and Clear brings back everything', async () => {
    signIn();
    const { lists } = fakeServer();
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    await screen.findByRole('list', { name: 'Saved transcriptions' });
    const ui = userEvent.setup();
    const form = screen.getByRole('search', { name: 'Filter transcriptions' });

    await ui.type(within(form).getByLabelText('Search'), 'Energia');
    await ui.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Saved transcriptions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Aula de física' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 transcription');

    await ui.clear(within(form).getByLabelText('Search'));
    await ui.type(within(form).getByLabelText('Month'), '2025-03');
    await ui.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Planejamento' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Aula de física' })).not.toBeInTheDocument();
    const query = new URL(lists().at(-1)!.url, 'http://x').searchParams;
    expect(query.get('month')).toBe('2025-03');
    expect(query.get('tzOffset')).toBe(String(-new Date().getTimezoneOffset()));
    expect(query.get('search')).toBeNull();

    await ui.type(within(form).getByLabelText('Search'), 'nada disso');
    await ui.click(within(form).getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No transcriptions match these filters.')).toBeInTheDocument();

    await ui.click(within(form).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Saved transcriptions' })).getAllByRole('listitem')).toHaveLength(2));
    expect(within(form).getByLabelText('Search')).toHaveValue('');
    expect(within(form).getByLabelText('Month')).toHaveValue('');
  });

  it('shows the empty state with a way to start', async () => {
    signIn();
    fakeServer({ pages: [[]] });
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    expect(await screen.findByText('No saved transcriptions yet.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('0 transcriptions');
  });

  it('shows the load error with a retry', async () => {
    signIn();
    fakeServer({ failList: true });
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    expect(await screen.findByText('Error fetching transcriptions')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('loads more pages through the cursor', async () => {
    signIn();
    const { lists } = fakeServer({ pages: [[items[0]!], [items[1]!]] });
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    await screen.findByRole('button', { name: 'Planejamento' });
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1 transcriptions; more are available');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('button', { name: 'Aula de física' })).toBeInTheDocument();
    expect(new URL(lists().at(-1)!.url, 'http://x').searchParams.get('cursor')).toBe('next');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('opens the detail with the full text, exports TXT/SRT/VTT, and deletes after a confirmation', async () => {
    signIn();
    const { calls, lists } = fakeServer();
    const downloads: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Planejamento' }));

    const dialog = await screen.findByRole('dialog', { name: 'Planejamento' });
    const text = await within(dialog).findByRole('region', { name: 'Transcript' });
    expect(text).toHaveTextContent(longText.trim());
    expect(text).toHaveAttribute('dir', 'ltr');
    for (const format of ['TXT', 'SRT', 'VTT']) await ui.click(within(dialog).getByRole('button', { name: `Download ${format}` }));
    expect(downloads).toEqual(['Planejamento.txt', 'Planejamento.srt', 'Planejamento.vtt']);

    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this transcription?' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    const before = lists().length;
    await ui.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Transcription deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`/transcriptions/${ID_A}`);
    await waitFor(() => expect(lists().length).toBeGreaterThan(before));
    expect(screen.queryByRole('button', { name: 'Planejamento' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Saved transcriptions' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('cancelling the confirmation keeps the transcription', async () => {
    signIn();
    const { calls } = fakeServer();
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Aula de física' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aula de física' });
    await ui.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    await ui.click(within(await screen.findByRole('dialog', { name: 'Delete this transcription?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog', { name: 'Aula de física' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('tells when a delete fails (pt: "Erro ao deletar transcrição")', async () => {
    signIn();
    fakeServer({ failDelete: true });
    await i18n.changeLanguage('pt');
    renderPage(<HistoryPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Aula de física' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aula de física' });
    await ui.click(await within(dialog).findByRole('button', { name: 'Excluir' }));
    await ui.click(within(await screen.findByRole('dialog', { name: 'Excluir esta transcrição?' })).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao deletar transcrição')).toBeInTheDocument();
    // The transcription is still there, its dialog still open.
    expect(screen.getByRole('dialog', { name: 'Aula de física' })).toBeInTheDocument();
  });
});
