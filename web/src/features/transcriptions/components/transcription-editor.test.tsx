import { STORAGE_KEYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import type { AutomaticTranscriptionSummary, TranscriptionDetail } from '@app/shared/schemas/transcriptions';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import AutomaticTranscriptionsPage from './automatic-page';
import SavedTranscriptionsPage from './saved-page';

const user: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'pro', planExpiry: '2030-01-01T00:00:00.000Z', surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};
const ID = '01JP0000000000000000000AAA';
const TEXT = 'We discussed the budget and the deadlines.';

/** A server holding one saved transcription (and one automatic one, `completed` or not) with edit versions. */
function fakeServer({ completed = true, conflictOnce = false, replacements = [] as { phrase: string; replacement: string }[] } = {}) {
  const saved: TranscriptionDetail = {
    _id: ID, title: 'Planning', subject: '', createdAt: '2025-03-10T12:00:00.000Z', timestamp: '2025-03-10T12:00:00.000Z',
    duration: 60, language: 'en-US', preview: TEXT, length: TEXT.length, version: 0, fullTranscript: TEXT, segments: [],
  };
  const auto: AutomaticTranscriptionSummary & { fullTranscript: string } = {
    _id: ID, sessionId: ID, language: 'en-US', isCompleted: completed, duration: 60, createdAt: '2025-03-10T12:00:00.000Z',
    updatedAt: '2025-03-10T12:00:00.000Z', preview: TEXT, length: TEXT.length, version: 0, fullTranscript: TEXT,
  };
  const state = { saved, auto, conflictOnce };
  const calls = mockFetch((call: MockCall) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'getCorrections') return json(200, { replacements, profanity: 'off', shareProfanity: 'mask', voiceCommands: false, paragraphSilence: 2 });
    if (call.route === 'listTranscriptions') return json(200, { transcriptions: [{ ...state.saved, fullTranscript: undefined, segments: undefined }], nextCursor: null });
    if (call.route === 'getTranscription') return json(200, state.saved);
    if (call.route === 'listAutomaticTranscriptions') return json(200, { transcriptions: [{ ...state.auto, fullTranscript: undefined }], nextCursor: null, keptThisMonth: 1 });
    if (call.route === 'getAutomaticTranscription') return json(200, { ...state.auto, segments: [] });
    if (call.route === 'updateTranscription' || call.route === 'updateAutomaticTranscription') {
      const body = call.body as { version: number; fullTranscript?: string; title?: string };
      const item = call.route === 'updateTranscription' ? state.saved : state.auto;
      if (state.conflictOnce) {
        // Another tab saved first.
        state.conflictOnce = false;
        Object.assign(item, { version: item.version + 1, fullTranscript: 'Changed in another tab.' });
      }
      if (body.version !== item.version) return json(409, { error: 'changed elsewhere', code: 'version_conflict', version: item.version });
      Object.assign(item, { version: item.version + 1 }, body.fullTranscript !== undefined && { fullTranscript: body.fullTranscript, length: body.fullTranscript.length }, body.title && { title: body.title });
      const { fullTranscript: _f, ...summary } = item as typeof item & { segments?: unknown };
      delete summary.segments;
      return json(200, summary);
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  return { calls, state, updates: () => calls.filter((c) => c.route === 'updateTranscription' || c.route === 'updateAutomaticTranscription') };
}

async function openSavedEditor() {
  window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
  renderPage(<SavedTranscriptionsPage />, { path: '/transcricoes' });
  const ui = userEvent.setup();
  await ui.click(await screen.findByRole('button', { name: 'Planning' }));
  const dialog = await screen.findByRole('dialog', { name: 'Planning' });
  await ui.click(await within(dialog).findByRole('button', { name: 'Edit' }));
  const text = within(dialog).getByRole('textbox', { name: 'Transcript text' });
  return { ui, dialog, text: text as HTMLTextAreaElement };
}

describe('editing a transcription', () => {
  it("Apply replacements puts the user's list into the text being edited; Undo brings it back; Save sends it", async () => {
    const { updates } = fakeServer({ replacements: [{ phrase: 'the budget', replacement: 'the Budget 2025' }, { phrase: 'deadlines', replacement: 'due dates' }] });
    const { ui, dialog, text } = await openSavedEditor();
    await ui.click(await within(dialog).findByRole('button', { name: 'Apply replacements' }));
    expect(text).toHaveValue('We discussed the Budget 2025 and the due dates.');
    expect(within(dialog).getByText(/Unsaved changes/)).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(/^Replacements applied/);
    await ui.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(text).toHaveValue(TEXT);
    await ui.click(within(dialog).getByRole('button', { name: 'Apply replacements' }));
    expect(updates()).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]!.body).toEqual({ version: 0, fullTranscript: 'We discussed the Budget 2025 and the due dates.' });
  });

  it('offers no Apply replacements without a list', async () => {
    fakeServer();
    const { dialog } = await openSavedEditor();
    await within(dialog).findByRole('button', { name: 'Cancel' });
    expect(within(dialog).queryByRole('button', { name: 'Apply replacements' })).toBeNull();
  });

  it('saves with Ctrl+S the version it was read at, then shows the new text', async () => {
    const { updates } = fakeServer();
    const { ui, dialog, text } = await openSavedEditor();
    expect(text).toHaveValue(TEXT);
    expect(within(dialog).getByText(/Ctrl\+S/)).not.toHaveTextContent('Unsaved');
    await ui.click(text);
    await ui.keyboard('{Control>}{End}{/Control} Next steps.');
    expect(within(dialog).getByText(/Unsaved changes/)).toBeInTheDocument();
    await ui.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]!.body).toEqual({ version: 0, fullTranscript: `${TEXT} Next steps.` });
    expect(await within(dialog).findByRole('region', { name: 'Transcript' })).toHaveTextContent(`${TEXT} Next steps.`);
  });

  it('leaves Ctrl+Z to the browser: the key is not prevented', async () => {
    fakeServer();
    const { text } = await openSavedEditor();
    const undo = fireEvent.keyDown(text, { key: 'z', ctrlKey: true });
    expect(undo).toBe(true);
    const save = fireEvent.keyDown(text, { key: 's', ctrlKey: true });
    expect(save).toBe(false);
  });

  it('renames alone with the Save button', async () => {
    const { updates } = fakeServer();
    const { ui, dialog } = await openSavedEditor();
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await ui.clear(title);
    await ui.type(title, 'Budget meeting');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]!.body).toEqual({ version: 0, title: 'Budget meeting' });
    expect(await screen.findByRole('dialog', { name: 'Budget meeting' })).toBeInTheDocument();
  });

  it('asks before dropping unsaved changes, on Cancel and on closing the dialog', async () => {
    const { updates } = fakeServer();
    const { ui, dialog, text } = await openSavedEditor();
    await ui.type(text, ' more');
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await ui.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(text).toHaveValue(`${TEXT} more`);

    await ui.click(within(dialog).getByRole('button', { name: 'Close' }));
    const again = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await ui.click(within(again).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Planning' })).not.toBeInTheDocument());
    expect(updates()).toHaveLength(0);
  });

  it('warns before the page unloads only while there are unsaved changes', async () => {
    fakeServer();
    const { ui, text } = await openSavedEditor();
    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);
    await ui.type(text, '!');
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(true);
  });

  it('on a conflict offers Overwrite, which saves again on the current version', async () => {
    const { updates, state } = fakeServer({ conflictOnce: true });
    const { ui, dialog, text } = await openSavedEditor();
    await ui.type(text, ' Mine.');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alertdialog', { name: 'Changed elsewhere' });
    await ui.click(within(conflict).getByRole('button', { name: 'Overwrite' }));
    await waitFor(() => expect(updates()).toHaveLength(2));
    expect(updates()[1]!.body).toEqual({ version: 1, fullTranscript: `${TEXT} Mine.` });
    expect(state.saved.fullTranscript).toBe(`${TEXT} Mine.`);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('on a conflict offers Reload, which drops the edit and shows the other version', async () => {
    const { updates } = fakeServer({ conflictOnce: true });
    const { ui, dialog, text } = await openSavedEditor();
    await ui.type(text, ' Mine.');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alertdialog', { name: 'Changed elsewhere' });
    await ui.click(within(conflict).getByRole('button', { name: 'Reload' }));
    expect(await within(dialog).findByText('Changed in another tab.')).toBeInTheDocument();
    expect(updates()).toHaveLength(1);
  });

  it('shows a failed save as an error and stays in edit mode', async () => {
    fakeServer();
    const { ui, dialog, text } = await openSavedEditor();
    // From now on the server fails.
    mockFetch(() => json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' }));
    await ui.type(text, ' x');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Something went wrong on our side');
    expect(text).toHaveValue(`${TEXT} x`);
  });

  it('offers Edit on an automatic transcription only once it is completed', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    fakeServer({ completed: false });
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Open the transcription of/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('region', { name: 'Transcript' });
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('edits a completed automatic transcription (no title to rename)', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const { updates } = fakeServer();
    renderPage(<AutomaticTranscriptionsPage />, { path: '/transcricoes-automaticas' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Open the transcription of/ }));
    const dialog = await screen.findByRole('dialog');
    await ui.click(await within(dialog).findByRole('button', { name: 'Edit' }));
    expect(within(dialog).queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument();
    await ui.type(within(dialog).getByRole('textbox', { name: 'Transcript text' }), ' Done.');
    await ui.keyboard('{Meta>}s{/Meta}');
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]).toMatchObject({ route: 'updateAutomaticTranscription', body: { version: 0, fullTranscript: `${TEXT} Done.` } });
  });
});
