import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FREE_AUTOMATIC_PER_MONTH, LIVE_SAVE_INTERVAL_MS, RECOGNITION_LANGUAGE_COUNT, STORAGE_KEYS, VISITOR_LIMIT_SECONDS } from '@app/shared/constants';
import HomePage from '../../../app/routes/home/home-page';
import { SessionSync } from '../../../app/session-sync';
import { endSessionFromServer } from '../../../lib/auth-token';
import { json, mockFetch, renderPage } from '../../../test/render';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import { createRecoveryStore } from '../lib/recovery';

const proUser = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'es-ES', plan: 'pro', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

beforeEach(() => {
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
});

const card = () => screen.getByRole('region', { name: 'Live transcription' });
const transcript = () => within(card()).getByRole('region', { name: 'Transcript' });
const rec = () => FakeRecognition.current;

describe('transcription card', () => {
  it('records, shows interim and final text, pauses, stops, confirms a new transcription and clears', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    expect(within(card()).getByRole('status')).toHaveTextContent('Ready');
    // Visitors: the limit's progress bar and the call to action.
    expect(within(card()).getByRole('progressbar', { name: 'Visitor time limit' })).toHaveAttribute('aria-valuemax', '60');
    expect(screen.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/register');
    // The call to action says the plans as the pricing page does, with the shared numbers.
    const cta = screen.getByRole('region', { name: 'Get more with an account' });
    expect(within(cta).getByText(`Without an account, each session stops after ${VISITOR_LIMIT_SECONDS} seconds.`)).toBeInTheDocument();
    expect(within(cta).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'No time limit on sessions',
      `${FREE_AUTOMATIC_PER_MONTH} recordings kept each month`,
      `All ${RECOGNITION_LANGUAGE_COUNT} recognition languagesPRO`,
      'Saved transcriptions with historyPRO',
    ]);

    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    expect(within(card()).getByRole('status')).toHaveTextContent('Recording');
    expect(rec()).toMatchObject({ lang: 'en-US', continuous: true, interimResults: true });

    act(() => rec().interim('hello wor'));
    expect(transcript()).toHaveTextContent('hello wor');
    act(() => rec().final('hello world'));
    expect(transcript()).toHaveTextContent(/^hello world$/);
    // The live region says the new final text only.
    expect(card().querySelector('[aria-live="polite"]')).toHaveTextContent(/^hello world$/);
    act(() => rec().final('and more'));
    expect(card().querySelector('[aria-live="polite"]')).toHaveTextContent(/^and more$/);

    await ui.click(within(card()).getByRole('button', { name: 'Pause' }));
    expect(within(card()).getByRole('status')).toHaveTextContent('Paused');
    await ui.click(within(card()).getByRole('button', { name: 'Stop' }));
    expect(within(card()).getByRole('status')).toHaveTextContent('Stopped');

    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a new transcription?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(transcript()).toHaveTextContent('hello world and more');
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear and start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(2));
    expect(transcript()).toHaveTextContent('Listening… start speaking.');

    await ui.click(within(card()).getByRole('button', { name: 'Stop' }));
    await ui.click(within(card()).getByRole('button', { name: 'Clear' }));
    expect(within(card()).getByRole('status')).toHaveTextContent('Ready');
  }, 20_000); // the whole journey loads its chunks on demand: slow on a busy machine

  it('Start comes before the transcript, and starting brings the card to the top of the screen on any screen', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderPage(<HomePage />);
    const start = within(card()).getByRole('button', { name: 'Start' });
    // In reading and focus order too, not only on screen.
    expect(start.compareDocumentPosition(transcript()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(scrolled).not.toHaveBeenCalled();

    // No phone here (jsdom matches no media query): a laptop's card moves up as well.
    await userEvent.setup().click(start);
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    await waitFor(() => expect(scrolled).toHaveBeenCalledWith({ block: 'start' }));
    expect(scrolled.mock.contexts).toEqual([card()]);
  });

  it('visitors: only English; other languages carry a Pro hint and ask for the upgrade; save is Pro only', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    const upgrade = vi.fn();
    window.addEventListener('open-upgrade', upgrade);
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    const group = within(card()).getByRole('group', { name: 'Recognition language' });
    expect(within(group).getByRole('button', { name: 'English (United States)' })).toHaveAttribute('aria-pressed', 'true');
    const spanish = within(group).getByRole('button', { name: 'Spanish (Spain)' });
    expect(spanish).toHaveAttribute('aria-disabled', 'true');
    expect(spanish).toHaveAccessibleDescription('Other languages are available with Pro.');
    await ui.click(spanish);
    expect(upgrade).toHaveBeenCalledTimes(1);
    expect(spanish).toHaveAttribute('aria-pressed', 'false');

    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    act(() => rec().final('visitor words'));
    await ui.click(within(card()).getByRole('button', { name: 'Stop' }));
    expect(await within(card()).findByRole('button', { name: 'Download SRT' })).toHaveAttribute('aria-disabled', 'true');
    await ui.click(within(card()).getByRole('button', { name: /^Save/ }));
    expect(await screen.findByText('Only Pro users can save transcriptions')).toBeInTheDocument();
    expect(upgrade).toHaveBeenCalledTimes(2);
    window.removeEventListener('open-upgrade', upgrade);
  });

  it('Pro users start in their profile language and may pick any; the choice stays on the device', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    mockFetch(({ route }) => (route === 'getMe' ? json(200, proUser) : json(404, {})));
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    const group = await within(card()).findByRole('group', { name: 'Recognition language' });
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Spanish (Spain)' })).toHaveAttribute('aria-pressed', 'true'), { timeout: 5_000 });
    expect(within(card()).queryByRole('progressbar')).not.toBeInTheDocument();
    await ui.click(within(group).getByRole('button', { name: 'Hebrew (Israel)' }));
    expect(window.localStorage.getItem(STORAGE_KEYS.transcriptionLang)).toBe('he-IL');
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    expect(rec().lang).toBe('he-IL');
    expect(within(group).getByRole('button', { name: 'English (United States)' })).toBeDisabled();
    expect(transcript()).toHaveAttribute('dir', 'rtl');
    expect(transcript()).toHaveAttribute('lang', 'he-IL');
  });

  it('Pro users find any language by search: the recognizer gets its tag, the transcript its words and direction', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    mockFetch(({ route }) => (route === 'getMe' ? json(200, proUser) : json(404, {})));
    const { unmount } = renderPage(<HomePage />);
    const ui = userEvent.setup();
    const group = await within(card()).findByRole('group', { name: 'Recognition language' });
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Spanish (Spain)' })).toHaveAttribute('aria-pressed', 'true'), { timeout: 5_000 });
    await ui.click(within(card()).getByRole('button', { name: 'More languages' }));
    await ui.type(await within(card()).findByRole('combobox', { name: 'Search languages' }), '日本');
    await ui.keyboard('{Enter}');
    expect(within(group).getByRole('button', { name: 'Japanese (Japan)' })).toHaveAttribute('aria-pressed', 'true');
    expect(window.localStorage.getItem(STORAGE_KEYS.transcriptionLang)).toBe('ja-JP');

    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    expect(rec().lang).toBe('ja-JP');
    expect(within(card()).getByRole('button', { name: 'More languages' })).toBeDisabled();
    act(() => rec().final('今日は良い天気ですね。'));
    act(() => rec().final('明日も晴れるでしょう。'));
    expect(transcript()).toHaveTextContent(/^今日は良い天気ですね。明日も晴れるでしょう。$/);
    expect(transcript()).toHaveAttribute('dir', 'ltr');
    await ui.click(within(card()).getByRole('button', { name: 'Stop' }));
    // 今日 は 良い 天気 です ね, 明日 も 晴れる で しょう: words, though no space separates them.
    expect(await within(card()).findByText('11 words')).toBeInTheDocument();
    unmount();

    // The pick stays on the device: the next visit starts in Japanese once the list confirms it.
    renderPage(<HomePage />);
    const again = await within(card()).findByRole('group', { name: 'Recognition language' });
    await waitFor(() => expect(within(again).getByRole('button', { name: 'Japanese (Japan)' })).toHaveAttribute('aria-pressed', 'true'), { timeout: 5_000 });
  }, 20_000);

  it('free users see how many recordings this month keeps', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    mockFetch(({ route }) => {
      if (route === 'getMe') return json(200, { ...proUser, plan: 'free' });
      if (route === 'listAutomaticTranscriptions') return json(200, { transcriptions: [], nextCursor: null, keptThisMonth: 2 });
      return json(404, {});
    });
    renderPage(<HomePage />);
    expect(await within(card()).findByText(`2 of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`)).toBeInTheDocument();
    expect(within(card()).queryByText(/not kept/)).not.toBeInTheDocument();
    // Free users: English only, no visitor limit.
    expect(within(card()).getByRole('button', { name: 'Spanish (Spain)' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(card()).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("a free user whose month's recordings are all kept is told before Start that a new session is not kept", async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    mockFetch(({ route }) => {
      if (route === 'getMe') return json(200, { ...proUser, plan: 'free' });
      if (route === 'listAutomaticTranscriptions') return json(200, { transcriptions: [], nextCursor: null, keptThisMonth: FREE_AUTOMATIC_PER_MONTH });
      return json(404, {});
    });
    renderPage(<HomePage />);
    const counter = `${FREE_AUTOMATIC_PER_MONTH} of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`;
    expect(await within(card()).findByText(counter)).toBeInTheDocument();
    expect(within(card()).getByText(/^New sessions still transcribe live but are not kept until next month\./)).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Start' })).toBeEnabled();
  });

  it('Pro users: Share live comes once the session has its server id; while shared, a final result is saved within a second or so', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'share-user');
    const calls = mockFetch(({ route, query, body }) => {
      if (route === 'getMe') return json(200, { ...proUser, id: 'share-user' });
      if (route === 'autosaveSessionId' && query.key) return json(200, { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
      if (route === 'autosaveSave') {
        const delta = body as { offset: number; text: string };
        return json(200, { length: delta.offset + delta.text.length });
      }
      if (route === 'startLiveShare') return json(200, { code: 'AbCdEfGh_-12', expiresAt: '2030-01-01T12:00:00.000Z' });
      if (route === 'countLiveViewers') return json(200, { viewers: 0 });
      return json(404, {});
    });
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    await within(card()).findByRole('button', { name: 'Spanish (Spain)', pressed: true }, { timeout: 5_000 });
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await ui.click(await within(card()).findByRole('button', { name: 'Share live' }, { timeout: 5_000 }));
    await within(card()).findByRole('region', { name: 'Live captions link' });
    expect(calls.find((c) => c.route === 'startLiveShare')?.body).toEqual({ sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA', includeEarlier: false });
    const saves = () => calls.filter((c) => c.route === 'autosaveSave');
    const before = saves().length;
    act(() => rec().final('shared words'));
    // The usual cadence would wait 10 to 30 s; a live share's is LIVE_SAVE_INTERVAL_MS.
    await waitFor(() => expect(saves().length).toBeGreaterThan(before), { timeout: LIVE_SAVE_INTERVAL_MS * 3 });
    expect(saves().at(-1)?.body).toMatchObject({ text: expect.stringContaining('shared words') });
  }, 20_000);

  it('explains an unsupported browser in place of Start, with a toast recommending Chrome', async () => {
    vi.stubGlobal('webkitSpeechRecognition', undefined);
    vi.stubGlobal('SpeechRecognition', undefined);
    renderPage(<HomePage />);
    expect(await within(card()).findByText('Live transcription is not available in this browser')).toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: 'Start' })).not.toBeInTheDocument();
    expect(await screen.findByText('Use Google Chrome for live transcription.')).toBeInTheDocument();
  });

  it('names the problem of a recognition error in a toast; not-allowed says how to allow the microphone', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
    act(() => rec().error('not-allowed'));
    expect(await screen.findByText(/Microphone access is blocked \(not-allowed\)\. Click the microphone or lock icon/)).toBeInTheDocument();
    expect(within(card()).getByRole('status')).toHaveTextContent('Ready');
  });
});

describe('transcription card: device data belongs to its user', () => {
  /** The device signed in as `id` (null: a visitor); /me answers that user. */
  const signInAs = (id: string | null) => {
    if (id) window.localStorage.setItem(STORAGE_KEYS.sessionUser, id);
    else window.localStorage.removeItem(STORAGE_KEYS.sessionUser);
    mockFetch(({ route }) => (route === 'getMe' && id ? json(200, { ...proUser, id }) : json(404, {})));
  };
  /** A transcript an earlier page of `userId` left in device storage. */
  const leftBy = (userId: string | null, text: string) => {
    const store = createRecoveryStore();
    store.begin({ id: `r-${text}`, userId, language: 'en-US', startedAt: '2025-05-01T10:00:00.000Z' });
    store.append({ text, startMs: 0, endMs: 1500 });
    store.flushSync('');
  };
  /** Renders the home page for the signed-in device and waits for the card to know who is there. */
  const renderHome = async (signedIn: boolean) => {
    const view = renderPage(
      <>
        <SessionSync />
        <HomePage />
      </>,
    );
    // Pro users start in Spanish (their profile); visitors in English.
    const expected = signedIn ? 'Spanish (Spain)' : 'English (United States)';
    await waitFor(() => expect(within(card()).getByRole('button', { name: expected })).toHaveAttribute('aria-pressed', 'true'), { timeout: 5_000 });
    // The recovery code and the prompt (both loaded on demand) are there, and the card's lookup is applied.
    await Promise.all([import('../lib/runtime'), import('./restore-prompt')]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    return view;
  };

  it('offers a transcript left on this device to the user who recorded it, never to another user or a visitor', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    leftBy('user-a', 'words of A');

    signInAs('user-b');
    const b = await renderHome(true);
    expect(screen.queryByText('Unsaved transcript found')).not.toBeInTheDocument();
    b.unmount();

    signInAs(null);
    const visitor = await renderHome(false);
    expect(screen.queryByText('Unsaved transcript found')).not.toBeInTheDocument();
    visitor.unmount();

    signInAs('user-a');
    await renderHome(true);
    expect(await screen.findByText('Unsaved transcript found')).toBeInTheDocument();
    await userEvent.setup().click(within(card()).getByRole('button', { name: 'Restore' }));
    expect(transcript()).toHaveTextContent('words of A');
  }, 20_000);

  it('a visitor’s transcript is offered to the next visitor, not to a user who signs in', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    leftBy(null, 'visitor words');
    signInAs('user-a');
    const a = await renderHome(true);
    expect(screen.queryByText('Unsaved transcript found')).not.toBeInTheDocument();
    a.unmount();
    signInAs(null);
    await renderHome(false);
    expect(await screen.findByText('Unsaved transcript found')).toBeInTheDocument();
  }, 20_000);

  for (const [how, end] of [
    ['the server refuses the token (401)', () => endSessionFromServer()],
    [
      'another tab logs out',
      () => {
        window.localStorage.removeItem(STORAGE_KEYS.sessionUser);
        window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.sessionUser, oldValue: 'x', newValue: null }));
      },
    ],
  ] as const) {
    it(`when ${how}, the transcript leaves the card and is not offered to the next person; its user gets it back`, async () => {
      vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
      signInAs('user-a');
      const view = await renderHome(true);
      const ui = userEvent.setup();
      await ui.click(within(card()).getByRole('button', { name: 'Start' }));
      await waitFor(() => expect(FakeRecognition.instances).toHaveLength(1));
      act(() => rec().final('private words of A'));
      expect(transcript()).toHaveTextContent('private words of A');

      act(() => end());
      await waitFor(() => expect(within(card()).getByRole('status')).toHaveTextContent('Ready'));
      expect(transcript()).not.toHaveTextContent('private words of A');
      expect(within(card()).getByRole('progressbar', { name: 'Visitor time limit' })).toBeInTheDocument();
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(screen.queryByText('Unsaved transcript found')).not.toBeInTheDocument();
      view.unmount();

      // A signs in again on this device: the transcript is offered back.
      signInAs('user-a');
      await renderHome(true);
      expect(await screen.findByText('Unsaved transcript found')).toBeInTheDocument();
      await ui.click(within(card()).getByRole('button', { name: 'Restore' }));
      expect(transcript()).toHaveTextContent('private words of A');
    }, 20_000);
  }
});
