import { STORAGE_KEYS } from '@app/shared/constants';
import { CAPTION_STORAGE_KEYS } from '@app/shared/caption-style';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'pt-BR', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

const account = {
  exportedAt: '2026-11-26T10:00:00.000Z',
  profile: { ...user, planRenews: false, surveyShown: false },
  billing: { plan: 'free', isPro: false, planExpiry: null, planRenews: false, hasStripeCustomer: false, subscriptions: [] },
  liveLinks: [],
  corrections: { replacements: [], profanity: 'off', shareProfanity: 'off', voiceCommands: true, paragraphSilence: 2 },
  captionStyle: null,
};
const saved = (id: string, title: string) => ({
  _id: id, title, subject: '', createdAt: '2026-01-02T03:04:05.000Z', timestamp: '2026-01-02T03:04:05.000Z',
  duration: 10, language: 'pt-BR', preview: 'x', length: 10, version: 0,
});
const automatic = { _id: '01JAUTO0000000000000000000', sessionId: '01JAUTO0000000000000000000', language: 'en-US', isCompleted: true, duration: 2, createdAt: '2026-03-01T00:00:00.000Z', updatedAt: '2026-03-01T00:00:00.000Z', preview: 'y', length: 5, version: 0 };
const ID_A = '01JSAVED000000000000000000';
const ID_B = '01JSAVED000000000000000001';

function fakeServer(extra: (call: MockCall) => Response | undefined = () => undefined) {
  let conflicts = 1;
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'exportAccount') return json(200, account);
    if (call.route === 'exportTranscriptions') {
      if (call.query.kind === 'automatic') return json(200, { kind: 'automatic', items: [automatic], cursor: null });
      return call.query.cursor === ID_A
        ? json(200, { kind: 'saved', items: [saved(ID_B, 'Aula: 2/3')], cursor: null })
        : json(200, { kind: 'saved', items: [saved(ID_A, 'Reunião')], cursor: ID_A });
    }
    if (call.route === 'exportTranscriptionText') {
      const { id } = call.params;
      if (id === ID_A) {
        // Two pages; the second answers a conflict once (an edit came in), so the text is read again.
        if (call.query.from === '0') return json(200, { version: 0, from: 0, text: 'Olá ', segments: [[0, 500, 0, 3]], next: 4 });
        if (conflicts-- > 0) return json(409, { error: 'changed', code: 'version_conflict', version: 1 });
        return json(200, { version: 0, from: 4, text: 'mundo', segments: [[600, 900, 4, 5]], next: null });
      }
      if (id === ID_B) return json(200, { version: 2, from: 0, text: 'segunda', segments: [], next: null });
      return json(200, { version: 0, from: 0, text: 'hello', segments: [[0, 100, 0, 5]], next: null });
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
}

afterEach(() => vi.restoreAllMocks());

describe("the profile's Your data", () => {
  it('Download my data reads every page and hands over one ZIP holding exactly what the server answered', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const section = await screen.findByRole('region', { name: 'Your data' });
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Download my data' }));
    expect(await within(section).findByText('Your data is ready: live-transcribe-data-2026-11-26.zip')).toBeInTheDocument();

    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await blobs[0]!.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).toEqual([
      'account.json',
      `automatic-transcriptions/2026-03-01 ${automatic._id}.json`,
      `automatic-transcriptions/2026-03-01 ${automatic._id}.txt`,
      `saved-transcriptions/2026-01-02 Aula 2 3 ${ID_B}.json`,
      `saved-transcriptions/2026-01-02 Aula 2 3 ${ID_B}.txt`,
      `saved-transcriptions/2026-01-02 Reunião ${ID_A}.json`,
      `saved-transcriptions/2026-01-02 Reunião ${ID_A}.txt`,
    ]);
    const text = (name: string) => strFromU8(files[name]!);
    expect(JSON.parse(text('account.json'))).toMatchObject({ ...account, transcriptions: expect.any(Array) });
    expect(text(`saved-transcriptions/2026-01-02 Reunião ${ID_A}.txt`)).toBe('Olá mundo');
    const a = JSON.parse(text(`saved-transcriptions/2026-01-02 Reunião ${ID_A}.json`));
    expect(a).toMatchObject({ kind: 'saved', _id: ID_A, title: 'Reunião', version: 0, text: 'Olá mundo' });
    expect(a.segments).toEqual([{ startMs: 0, endMs: 500, text: 'Olá' }, { startMs: 600, endMs: 900, text: 'mundo' }]);
    expect(a).not.toHaveProperty('preview');
    expect(text(`automatic-transcriptions/2026-03-01 ${automatic._id}.txt`)).toBe('hello');
    // The conflict made the text start again from 0 (with no version), then continue on that version.
    const textCalls = calls.filter((c) => c.route === 'exportTranscriptionText' && c.params.id === ID_A).map((c) => c.query);
    expect(textCalls).toEqual([{ from: '0' }, { from: '4', version: '0' }, { from: '0' }, { from: '4', version: '0' }]);
  });

  it('Delete my account: a wrong password shows on the field; the right one deletes, forgets this browser and goes home', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    window.localStorage.setItem(STORAGE_KEYS.transcriptionLang, 'pt-BR');
    window.localStorage.setItem(STORAGE_KEYS.corrections, '{}');
    window.localStorage.setItem(CAPTION_STORAGE_KEYS.style, '{}');
    window.localStorage.setItem(STORAGE_KEYS.cookiesAccepted, 'true');
    const calls = fakeServer((call) => {
      if (call.route !== 'deleteAccount') return undefined;
      return (call.body as { password: string }).password === 'right-one-42'
        ? json(200, { ok: true })
        : json(400, { error: 'The password is not correct.', code: 'wrong_current_password' });
    });
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Your data' });
    await ui.click(within(section).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    // Empty: nothing sent.
    await ui.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(/password/i);
    expect(calls.filter((c) => c.route === 'deleteAccount')).toHaveLength(0);

    await ui.type(within(dialog).getByLabelText('Password'), 'wrong-one-1');
    await ui.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(/not correct/i));
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('u1');

    await ui.clear(within(dialog).getByLabelText('Password'));
    await ui.type(within(dialog).getByLabelText('Password'), 'right-one-42');
    await ui.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls.filter((c) => c.route === 'deleteAccount').map((c) => c.body)).toEqual([{ password: 'wrong-one-1' }, { password: 'right-one-42' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.transcriptionLang)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.corrections)).toBeNull();
    expect(window.localStorage.getItem(CAPTION_STORAGE_KEYS.style)).toBeNull();
    // The device's own choices stay.
    expect(window.localStorage.getItem(STORAGE_KEYS.cookiesAccepted)).toBe('true');
  });
});
