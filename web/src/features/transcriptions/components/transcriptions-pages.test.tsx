import { FREE_AUTOMATIC_PER_MONTH, STORAGE_KEYS } from '@app/shared/constants';
import type { RouteName } from '@app/shared/routes';
import type { User } from '@app/shared/schemas/auth';
import type { AutomaticTranscriptionSummary, TranscriptionDetail } from '@app/shared/schemas/transcriptions';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import AutomaticTranscriptionsPage from './automatic-page';
import SavedTranscriptionsPage from './saved-page';

const user: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'pro', planExpiry: '2030-01-01T00:00:00.000Z', surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

const ID_A = '01JP0000000000000000000AAA';
const ID_B = '01JN0000000000000000000BBB';

// Saved transcriptions
const longText = `Reunião de planejamento: ${'discutimos o orçamento e os prazos do projeto. '.repeat(10)}`;
const detail = (id: string, title: string, text: string, duration: number, createdAt: string): TranscriptionDetail => ({
  _id: id, title, subject: '', createdAt, timestamp: createdAt, duration, language: 'pt-BR',
  preview: text.slice(0, 200), length: text.length, version: 0, fullTranscript: text,
  segments: [{ text, startMs: 0, endMs: duration * 1000 }],
});
const items = [
  detail(ID_A, 'Planejamento', longText, 125, '2025-03-10T12:00:00.000Z'),
  detail(ID_B, 'Aula de física', 'Energia cinética', 45, '2025-02-02T09:30:00.000Z'),
];
const summary = ({ fullTranscript: _f, segments: _s, ...rest }: TranscriptionDetail) => rest;

// Automatic transcriptions
interface AutoItem extends AutomaticTranscriptionSummary {
  fullTranscript: string;
}
const autoItem = (id: string, text: string, isCompleted: boolean, duration: number, createdAt: string): AutoItem => ({
  _id: id, sessionId: id, language: 'pt-BR', isCompleted, duration, createdAt, updatedAt: createdAt,
  preview: text.slice(0, 200), length: text.length, version: 0, fullTranscript: text,
});
const autoItems = [
  autoItem(ID_A, 'Sessão em andamento sobre o projeto', false, 65, '2025-03-15T12:00:00.000Z'),
  autoItem(ID_B, 'Aula terminada de química', true, 3725, '2025-02-15T12:00:00.000Z'),
];

const SERVER_ERROR = { error: 'Something went wrong on our side. Please try again.', code: 'server_error' };

/** A fake of /me and the routes of both kinds: saved (`pages` of them) and automatic (`auto`). */
function fakeServer({
  plan = 'pro' as User['plan'],
  pages = [items],
  auto = autoItems,
  keptThisMonth = 3,
  failDelete = false,
  failList = false,
} = {}) {
  const state = { items: [...items], auto: [...auto] };
  const calls = mockFetch((call: MockCall) => {
    const q = new URLSearchParams(call.query);
    if (call.route === 'getMe') return json(200, { ...user, plan });
    if (call.route === 'listTranscriptions') {
      if (failList) return json(500, SERVER_ERROR);
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
    if (call.route === 'getTranscription') return json(200, state.items.find((i) => i._id === call.params.id));
    if (call.route === 'deleteTranscription') {
      if (failDelete) return json(500, SERVER_ERROR);
      state.items = state.items.filter((i) => i._id !== call.params.id);
      return json(200, { ok: true });
    }
    if (call.route === 'listAutomaticTranscriptions') {
      if (failList) return json(500, SERVER_ERROR);
      const found = state.auto.filter(
        (i) =>
          (!q.get('search') || i.fullTranscript.toLowerCase().includes(q.get('search')!.toLowerCase())) &&
          (!q.get('month') || i.createdAt.startsWith(q.get('month')!)) &&
          (!q.get('completed') || String(i.isCompleted) === q.get('completed')),
      );
      return json(200, { transcriptions: found.map(({ fullTranscript: _, ...s }) => s), nextCursor: null, keptThisMonth });
    }
    if (call.route === 'getAutomaticTranscription') return json(200, { ...state.auto.find((i) => i._id === call.params.id), segments: [] });
    if (call.route === 'deleteAutomaticTranscription') {
      if (failDelete) return json(500, SERVER_ERROR);
      state.auto = state.auto.filter((i) => i._id !== call.params.id);
      return json(200, { ok: true });
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  const listsOf = (route: RouteName) => calls.filter((c) => c.route === route);
  return { calls, lists: () => listsOf('listTranscriptions'), autoLists: () => listsOf('listAutomaticTranscriptions'), state };
}

const signIn = () => window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
const dateOf = (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
const autoList = () => screen.getByRole('list', { name: 'My recordings' });

/** Each kind's page, and how its first transcription (ID_A) is named and deleted. */
const KINDS = [
  {
    kind: 'saved',
    Page: SavedTranscriptionsPage,
    path: '/transcricoes',
    list: 'Saved transcriptions',
    listRoute: 'listTranscriptions',
    empty: 'No saved transcriptions yet.',
    start: 'Transcribe',
    open: 'Planejamento',
    dialog: 'Planejamento',
    confirm: 'Delete this transcription?',
    deleteRoute: 'deleteTranscription',
  },
  {
    kind: 'automatic',
    Page: AutomaticTranscriptionsPage,
    path: '/transcricoes-automaticas',
    list: 'My recordings',
    listRoute: 'listAutomaticTranscriptions',
    empty: 'No recordings yet.',
    start: 'Start transcribing',
    open: `Open the transcription of ${dateOf(autoItems[0]!.createdAt)}`,
    dialog: `Transcription of ${dateOf(autoItems[0]!.createdAt)}`,
    confirm: 'Delete this recording?',
    deleteRoute: 'deleteAutomaticTranscription',
  },
] as const;

for (const { kind, Page, path, list, listRoute, empty, start, open, dialog: dialogName, confirm: confirmName, deleteRoute } of KINDS) {
  describe(`${kind} transcriptions page (${path}), what both kinds share`, () => {
    const lists = (calls: MockCall[]) => calls.filter((c) => c.route === listRoute);

    it('asks visitors to log in, with no request', async () => {
      const { calls } = fakeServer();
      renderPage(<Page />, { path });
      expect(await screen.findByRole('heading', { name: 'Login required' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
      expect(calls).toHaveLength(0);
    });

    it('shows the empty state with a way to start', async () => {
      signIn();
      fakeServer({ pages: [[]], auto: [] });
      renderPage(<Page />, { path });
      expect(await screen.findByText(empty)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: start })).toHaveAttribute('href', '/');
      expect(screen.getByRole('status')).toHaveTextContent('0 transcriptions');
    });

    it('shows the load error with a retry', async () => {
      signIn();
      fakeServer({ failList: true });
      renderPage(<Page />, { path });
      expect(await screen.findByText('Error fetching transcriptions')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    });

    it('opens a transcription and deletes it after a confirmation: the list drops it and is reloaded', async () => {
      signIn();
      const { calls } = fakeServer();
      renderPage(<Page />, { path });
      const ui = userEvent.setup();
      const [first] = within(await screen.findByRole('list', { name: list })).getAllByRole('listitem');
      await ui.click(within(first!).getByRole('button', { name: open }));
      const dialog = await screen.findByRole('dialog', { name: dialogName });
      expect(await within(dialog).findByRole('region', { name: 'Transcript' })).toBeInTheDocument();

      await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
      const confirm = await screen.findByRole('alertdialog', { name: confirmName });
      expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      const before = lists(calls).length;
      await ui.click(within(confirm).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText('Transcription deleted')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ route: deleteRoute, params: { id: ID_A } });
      await waitFor(() => expect(lists(calls).length).toBeGreaterThan(before));
      expect(screen.queryByRole('button', { name: open })).not.toBeInTheDocument();
      expect(within(screen.getByRole('list', { name: list })).getAllByRole('listitem')).toHaveLength(1);
    });
  });
}

describe('saved transcriptions page (/transcricoes)', () => {
  it('shows non-Pro users the restricted-access banner, opens the upgrade modal, and never asks for the list', async () => {
    signIn();
    const { calls } = fakeServer({ plan: 'free' });
    const opened = vi.fn();
    window.addEventListener('open-upgrade', opened);
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    expect(await screen.findByRole('heading', { name: 'Saved transcriptions are a Pro feature' })).toBeInTheDocument();
    expect(screen.getByText('Only Pro users can access saved transcriptions.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    expect(opened).toHaveBeenCalledTimes(1);
    window.removeEventListener('open-upgrade', opened);
    expect(calls.map((c) => c.route)).toEqual(['getMe']);
  });

  it('in Portuguese, the banner says only Pro users can access saved transcriptions', async () => {
    signIn();
    fakeServer({ plan: 'free' });
    await i18n.changeLanguage('pt');
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    expect(await screen.findByText('Apenas usuários Pro podem acessar as transcrições salvas.')).toBeInTheDocument();
  });

  it('lists saved transcriptions newest first: title, date, duration, 200-character preview, count', async () => {
    signIn();
    const { lists } = fakeServer();
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    const list = await screen.findByRole('list', { name: 'Saved transcriptions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('button', { name: 'Planejamento' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText(dateOf(items[0]!.createdAt))).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('2 min 5 s');
    expect(rows[1]).toHaveTextContent('45 s');
    expect(rows[0]).toHaveTextContent(`${longText.slice(0, 200)}…`);
    expect(screen.getByRole('status')).toHaveTextContent('2 transcriptions');
    expect(lists()[0]!.query.limit).toBe('20');
  });

  it('filters by search and month, and Clear brings back everything', async () => {
    signIn();
    const { lists } = fakeServer();
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    await screen.findByRole('list', { name: 'Saved transcriptions' });
    const ui = userEvent.setup();
    const form = screen.getByRole('search', { name: 'Filter transcriptions' });

    await ui.type(within(form).getByLabelText('Search'), 'Energia');
    await ui.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Saved transcriptions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Aula de física' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 transcription');

    await ui.clear(within(form).getByLabelText('Search'));
    // No month chosen: the field reads "Any month", not the browser's blank fields.
    expect(within(form).getByText('Any month')).toBeInTheDocument();
    await ui.type(within(form).getByLabelText('Month'), '2025-03');
    expect(within(form).queryByText('Any month')).not.toBeInTheDocument();
    await ui.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Planejamento' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Aula de física' })).not.toBeInTheDocument();
    const query = new URLSearchParams(lists().at(-1)!.query);
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
    expect(within(form).getByText('Any month')).toBeInTheDocument();
  });

  it('loads more pages through the cursor', async () => {
    signIn();
    const { lists } = fakeServer({ pages: [[items[0]!], [items[1]!]] });
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    await screen.findByRole('button', { name: 'Planejamento' });
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1 transcriptions; more are available');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('button', { name: 'Aula de física' })).toBeInTheDocument();
    expect(lists().at(-1)!.query.cursor).toBe('next');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('opens the detail with the full text, exports TXT/SRT/VTT/Word and prints', async () => {
    signIn();
    fakeServer();
    const downloads: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Planejamento' }));

    const dialog = await screen.findByRole('dialog', { name: 'Planejamento' });
    const text = await within(dialog).findByRole('region', { name: 'Transcript' });
    expect(text).toHaveTextContent(longText.trim());
    expect(text).toHaveAttribute('dir', 'ltr');
    for (const format of ['TXT', 'SRT', 'VTT', 'Word (.docx)']) await ui.click(within(dialog).getByRole('button', { name: `Download ${format}` }));
    await waitFor(() => expect(downloads).toEqual(['Planejamento.txt', 'Planejamento.srt', 'Planejamento.vtt', 'Planejamento.docx']));

    // Print: the browser's own print (the print stylesheet leaves the document alone on paper).
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await ui.click(within(dialog).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    expect(dialog).toHaveAttribute('data-print-document');
  });

  it('cancelling the confirmation keeps the transcription', async () => {
    signIn();
    const { calls } = fakeServer();
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Aula de física' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aula de física' });
    // A dialog renders outside the main region: the transcript in it is masked from session recording on its own.
    expect(dialog).toHaveAttribute('data-clarity-mask', 'true');
    await ui.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    await ui.click(within(await screen.findByRole('alertdialog', { name: 'Delete this transcription?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog', { name: 'Aula de física' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('tells when a delete fails (pt: "Erro ao deletar transcrição")', async () => {
    signIn();
    fakeServer({ failDelete: true });
    await i18n.changeLanguage('pt');
    renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Aula de física' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aula de física' });
    await ui.click(await within(dialog).findByRole('button', { name: 'Excluir' }));
    await ui.click(within(await screen.findByRole('alertdialog', { name: 'Excluir esta transcrição?' })).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao deletar transcrição')).toBeInTheDocument();
    // The transcription is still there, its dialog still open.
    expect(screen.getByRole('dialog', { name: 'Aula de física' })).toBeInTheDocument();
  });
});

describe('automatic transcriptions page (/transcricoes-automaticas)', () => {
  it('lists sessions with status, mm:ss durations and previews, and the free counter "n of 5"', async () => {
    signIn();
    fakeServer({ plan: 'free' });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'My recordings' });
    const [first, second] = within(autoList()).getAllByRole('listitem');
    expect(first).toHaveTextContent('In progress');
    expect(first).toHaveTextContent('01:05');
    expect(first).toHaveTextContent('Portuguese (Brazil)');
    expect(first).toHaveTextContent('Sessão em andamento sobre o projeto');
    expect(second).toHaveTextContent('Finished');
    expect(second).toHaveTextContent('62:05');
    expect(screen.getByText(`3 of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`)).toBeInTheDocument();
    expect(screen.queryByText(/not kept/)).not.toBeInTheDocument();
  });

  it("tells a free user whose month's recordings are all kept that new sessions are not", async () => {
    signIn();
    fakeServer({ plan: 'free', keptThisMonth: FREE_AUTOMATIC_PER_MONTH });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'My recordings' });
    expect(screen.getByText(`${FREE_AUTOMATIC_PER_MONTH} of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`)).toBeInTheDocument();
    expect(screen.getByText(/^New sessions still transcribe live but are not kept until next month\./)).toBeInTheDocument();
  });

  it('shows no counter to Pro users', async () => {
    signIn();
    fakeServer({ plan: 'pro' });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'My recordings' });
    expect(screen.queryByText(/recordings kept this month/)).not.toBeInTheDocument();
  });

  it('filters by completion, by a month from the loaded items, and by search', async () => {
    signIn();
    const { autoLists: lists } = fakeServer({ plan: 'free' });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'My recordings' });
    const ui = userEvent.setup();
    const status = screen.getByRole('group', { name: 'Status' });
    expect(within(status).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    await ui.click(within(status).getByRole('button', { name: 'Finished' }));
    await waitFor(() => expect(within(autoList()).getAllByRole('listitem')).toHaveLength(1));
    expect(autoList()).toHaveTextContent('Aula terminada de química');
    expect(lists().at(-1)!.query.completed).toBe('true');

    await ui.click(within(status).getByRole('button', { name: 'In progress' }));
    await waitFor(() => expect(autoList()).toHaveTextContent('Sessão em andamento'));
    expect(lists().at(-1)!.query.completed).toBe('false');
    await ui.click(within(status).getByRole('button', { name: 'All' }));
    await waitFor(() => expect(within(autoList()).getAllByRole('listitem')).toHaveLength(2));

    const month = screen.getByRole('combobox', { name: 'Month' });
    expect(within(month).getAllByRole('option').map((o) => o.textContent)).toEqual(['All months', 'March 2025', 'February 2025']);
    await ui.selectOptions(month, '2025-02');
    await waitFor(() => expect(within(autoList()).getAllByRole('listitem')).toHaveLength(1));
    expect(lists().at(-1)!.query.month).toBe('2025-02');
    // The months seen stay in the dropdown.
    expect(within(month).getAllByRole('option')).toHaveLength(3);
    await ui.selectOptions(month, '');

    await ui.type(screen.getByRole('searchbox', { name: 'Search' }), 'química');
    await ui.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(within(autoList()).getAllByRole('listitem')).toHaveLength(1));
    expect(lists().at(-1)!.query.search).toBe('química');

    await ui.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(within(autoList()).getAllByRole('listitem')).toHaveLength(2));
  });

  it('opens a session with its status and full text', async () => {
    signIn();
    fakeServer({ plan: 'free' });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    await screen.findByRole('list', { name: 'My recordings' });
    const ui = userEvent.setup();
    const [first] = within(autoList()).getAllByRole('listitem');
    await ui.click(within(first!).getByRole('button', { name: /^Open the transcription of/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Transcription of/ });
    expect(await within(dialog).findByRole('region', { name: 'Transcript' })).toHaveTextContent('Sessão em andamento sobre o projeto');
    expect(dialog).toHaveTextContent('In progress');
  });

  it('names every control in Portuguese (Todas / Finalizadas / Em andamento)', async () => {
    signIn();
    fakeServer({ plan: 'free' });
    await i18n.changeLanguage('pt');
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    const status = await screen.findByRole('group', { name: 'Status' });
    expect(within(status).getAllByRole('button').map((b) => b.textContent)).toEqual(['Todas', 'Finalizadas', 'Em andamento']);
    expect(screen.getByRole('combobox', { name: 'Mês' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toBeInTheDocument();
    expect(await screen.findByText(`3 de ${FREE_AUTOMATIC_PER_MONTH} gravações guardadas este mês`)).toBeInTheDocument();
  });
});
