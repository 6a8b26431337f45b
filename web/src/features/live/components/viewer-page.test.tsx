import { CAPTION_STORAGE_KEYS, DEFAULT_CAPTION_STYLE, type CaptionStyle } from '@app/shared/caption-style';
import { LIVE_POLL_MS, LIVE_VIEWER_PING_MS, STORAGE_KEYS } from '@app/shared/constants';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import { RETRY_MAX_MS } from '../lib/follow-live';
import LiveViewerPage from './viewer-page';

const CODE = 'AbCdEfGh_-12';

/**
 * The live view route over a transcript the test grows: answers from `after` as the server does,
 * or, with `chunkStarts`, from the last chunk start at or before `after` (`from`).
 */
function fakeLive(language = 'pt-BR', mask?: 'off' | 'mask' | 'hide', style?: CaptionStyle) {
  const state = { text: '', status: 'live' as 'live' | 'ended', offline: false, missing: false, chunkStarts: undefined as number[] | undefined };
  const calls = mockFetch((call) => {
    if (state.offline) throw new TypeError('Failed to fetch');
    if (call.route === 'recordLiveViewer' && call.params.code === CODE) return json(200, { ok: true });
    if (call.route !== 'viewLiveShare' || call.params.code !== CODE) return json(404, { error: 'Not found' });
    if (state.missing) return json(404, { error: 'Live share not found', code: 'not_found' });
    const after = Math.min(Number(call.query.after ?? 0), state.text.length);
    const from = state.chunkStarts ? Math.max(0, ...state.chunkStarts.filter((start) => start <= after)) : after;
    return json(200, { status: state.status, from, text: state.text.slice(from), next: state.text.length, language, updatedAt: new Date().toISOString(), ...(mask ? { mask } : {}), ...(style ? { style } : {}) });
  });
  const views = () => calls.filter((c) => c.route === 'viewLiveShare' && c.params.code === CODE);
  return { state, calls, views, afters: () => views().map((c) => Number(c.query.after ?? 0)) };
}

/** The word list's first load (a module of its own) may take a while in a busy test run. */
const WORDS_LOAD = { timeout: 10_000 };
const captions = () => screen.getByRole('region', { name: 'Captions' });
/** The transcript as shown (the captions region without its status lines). */
const shown = () => captions().querySelector('p:last-child')!.textContent;
const tick = (ms = LIVE_POLL_MS) => act(() => vi.advanceTimersByTimeAsync(ms));
const open = () => renderPage(<LiveViewerPage />, { path: `/live/${CODE}`, pattern: '/live/:code' });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  window.sessionStorage.clear();
  window.localStorage.removeItem(CAPTION_STORAGE_KEYS.liveViewer);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('live captions page', () => {
  it('shows the text so far, then appends only the new text of each poll, in order and once', async () => {
    const live = fakeLive();
    live.state.text = 'Bom dia a vocês.';
    open();
    expect(screen.getByRole('status')).toHaveTextContent('Loading captions…');
    await tick(0);
    expect(shown()).toBe('Bom dia a vocês.');
    expect(captions()).toHaveAttribute('lang', 'pt-BR');
    expect(captions()).toHaveAttribute('dir', 'ltr');
    const paragraph = captions().querySelector('p:last-child')!;
    const firstNode = paragraph.firstChild;

    live.state.text += ' Hoje falamos de legendas.';
    await tick();
    live.state.text += ' E de acessibilidade.';
    await tick();
    await tick(); // nothing new: nothing added
    expect(shown()).toBe('Bom dia a vocês. Hoje falamos de legendas. E de acessibilidade.');
    // Appended, not re-rendered: the first piece is the same node; a node per piece, and one for
    // the last word (a piece may end inside a word, which the profanity mask must see whole).
    expect(paragraph.firstChild).toBe(firstNode);
    expect(paragraph.childNodes).toHaveLength(4);
    // Each request asks from where the text it has ends.
    const afters = [...new Set(live.afters())];
    expect(afters.slice(0, 3)).toEqual([0, 'Bom dia a vocês.'.length, 'Bom dia a vocês. Hoje falamos de legendas.'.length]);
    // The live region says only the newest piece.
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent(/^E de acessibilidade\.$/);
    expect(document.title).toBe('Live captions');
  });

  it('asks again at once after an answer with text (the server holds a request until there is more), and no sooner than LIVE_POLL_MS after one without', async () => {
    const live = fakeLive();
    live.state.text = 'Um.';
    open();
    await tick(0);
    // The first answer brought text: the next request went at once, and brought none.
    expect(live.afters()).toEqual([0, 3]);
    await tick(LIVE_POLL_MS / 2);
    expect(live.afters()).toEqual([0, 3]);
    await tick(LIVE_POLL_MS / 2);
    expect(live.afters()).toEqual([0, 3, 3]);
    live.state.text += ' Dois.';
    await tick(LIVE_POLL_MS);
    expect(live.afters().slice(-3)).toEqual([3, 3, 'Um. Dois.'.length]);
    expect(shown()).toBe('Um. Dois.');
  });

  it('appends only the text after what it has when an answer starts earlier, at the start of a chunk (from)', async () => {
    const live = fakeLive();
    live.state.chunkStarts = [0, 'Primeiro pedaço. '.length];
    live.state.text = 'Primeiro';
    open();
    await tick(0);
    expect(shown()).toBe('Primeiro');
    // The viewer asks from inside the first chunk: the answer repeats its start, which is not shown again.
    live.state.text = 'Primeiro pedaço. ';
    await tick();
    expect(live.afters()).toContain('Primeiro'.length);
    expect(shown()).toBe('Primeiro pedaço. ');
    live.state.text += 'Segundo.';
    await tick();
    await tick();
    expect(shown()).toBe('Primeiro pedaço. Segundo.');
    // The words up to the last space in one node, the last word in its own (rewritten until complete).
    expect(captions().querySelector('p:last-child')!.childNodes).toHaveLength(2);
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent(/^Segundo\.$/);
  });

  it("masks profanity with the share's mode, a word cut between two polls included; hide leaves no double space", async () => {
    const live = fakeLive('en-US', 'mask');
    live.state.text = 'what the fu';
    open();
    await vi.waitFor(() => expect(shown()).toBe('what the fu'), WORDS_LOAD);
    live.state.text += 'ck is this shit.';
    await tick();
    await vi.waitFor(() => expect(shown()).toBe('what the f*** is this s***.'), WORDS_LOAD);
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent(/^ck is this s\*\*\*\.$/);
  });

  it('hides profanity in hide mode', async () => {
    const live = fakeLive('en-US', 'hide');
    live.state.text = 'oh shit it works';
    open();
    await vi.waitFor(() => expect(shown()).toBe('oh it works'), WORDS_LOAD);
  });

  it('sets the direction from the share language (Arabic reads right to left)', async () => {
    const live = fakeLive('ar-SA');
    live.state.text = 'مرحبا بكم';
    open();
    await tick(0);
    expect(captions()).toHaveAttribute('dir', 'rtl');
    expect(captions()).toHaveAttribute('lang', 'ar-SA');
  });

  it('keeps the text and stops polling once the speaker stopped sharing', async () => {
    const live = fakeLive();
    live.state.text = 'Primeira parte.';
    open();
    await tick(0);
    live.state.text += ' Última frase.';
    live.state.status = 'ended';
    await tick();
    expect(screen.getByText('The speaker stopped sharing.')).toBeInTheDocument();
    expect(shown()).toBe('Primeira parte. Última frase.');
    const polls = live.views().length;
    await tick(LIVE_POLL_MS * 10);
    expect(live.views()).toHaveLength(polls);
  });

  it('says the link is wrong or expired on a 404, and stops', async () => {
    const live = fakeLive();
    live.state.missing = true;
    open();
    await tick(0);
    expect(screen.getByRole('heading', { name: 'Live captions not found' })).toBeInTheDocument();
    expect(screen.getByText(/wrong or has expired/)).toBeInTheDocument();
    const polls = live.views().length;
    await tick(LIVE_POLL_MS * 10);
    expect(live.views()).toHaveLength(polls);
    expect(live.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keeps the text while the network is down, says it is reconnecting, and continues from where it was: no gap, no repeat', async () => {
    const live = fakeLive();
    live.state.text = 'Antes da queda.';
    open();
    await tick(0);
    live.state.offline = true;
    await tick();
    expect(screen.getByText('Connection lost. Reconnecting…')).toBeInTheDocument();
    expect(shown()).toBe('Antes da queda.');
    // Text spoken meanwhile; tries keep going (with a growing wait).
    live.state.text += ' Durante a queda.';
    await tick(RETRY_MAX_MS);
    live.state.text += ' Ainda sem rede.';
    live.state.offline = false;
    await tick(RETRY_MAX_MS);
    expect(screen.queryByText('Connection lost. Reconnecting…')).not.toBeInTheDocument();
    expect(shown()).toBe('Antes da queda. Durante a queda. Ainda sem rede.');
    live.state.text += ' De volta.';
    await tick();
    expect(shown()).toBe('Antes da queda. Durante a queda. Ainda sem rede. De volta.');
  });

  it('tells the viewer count with one random id per tab while following, every LIVE_VIEWER_PING_MS', async () => {
    const live = fakeLive();
    open();
    await tick(0);
    const pings = () => live.calls.filter((c) => c.route === 'recordLiveViewer' && c.params.code === CODE);
    expect(pings()).toHaveLength(1);
    const id = (pings()[0]!.body as { viewerId: string }).viewerId;
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.liveViewerId)).toBe(id);
    await tick(LIVE_VIEWER_PING_MS);
    expect(pings().map((c) => (c.body as { viewerId: string }).viewerId)).toEqual([id, id]);
    // Ended: no more pings.
    live.state.status = 'ended';
    await tick();
    await tick(LIVE_VIEWER_PING_MS);
    expect(pings()).toHaveLength(2);
  });

  it("shows the speaker's caption style; the viewer's own size and colours stay on the device until Speaker's style", async () => {
    const speaker: CaptionStyle = { ...DEFAULT_CAPTION_STYLE, font: 'opendyslexic', size: 44, color: '#000000', background: '#fde047', uppercase: true };
    fakeLive('pt-BR', undefined, speaker);
    const view = open();
    await tick(0);
    const css = () => captions().style;
    expect(css().fontFamily).toMatch(/^OpenDyslexic/);
    expect(css().fontSize).toBe('44px');
    expect(css().color).toBe('rgb(0, 0, 0)');
    expect(css().backgroundColor).toBe('rgb(253, 224, 71)');
    expect(css().textTransform).toBe('uppercase');
    const reset = screen.getByRole('button', { name: "Speaker's style" });
    expect(reset).toBeDisabled();

    act(() => screen.getByRole('button', { name: 'Larger text' }).click());
    expect(css().fontSize).toBe('52px');
    const colours = screen.getByRole('combobox', { name: 'Colours' });
    expect(colours).toHaveDisplayValue("Speaker's colours");
    await act(async () => {
      colours.focus();
      (colours as HTMLSelectElement).value = 'whiteOnBlue';
      colours.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(css().color).toBe('rgb(255, 255, 255)');
    expect(css().backgroundColor).toBe('rgb(30, 58, 138)');
    // The font and case stay the speaker's.
    expect(css().fontFamily).toMatch(/^OpenDyslexic/);
    expect(JSON.parse(window.localStorage.getItem(CAPTION_STORAGE_KEYS.liveViewer)!)).toEqual({ size: 52, colors: 'whiteOnBlue' });

    // Another visit on this device keeps the viewer's choice.
    view.unmount();
    open();
    await tick(0);
    expect(css().fontSize).toBe('52px');
    act(() => screen.getByRole('button', { name: 'Smaller text' }).click());
    act(() => screen.getByRole('button', { name: 'Smaller text' }).click());
    expect(css().fontSize).toBe('36px');

    act(() => screen.getByRole('button', { name: "Speaker's style" }).click());
    expect(css().fontSize).toBe('44px');
    expect(css().backgroundColor).toBe('rgb(253, 224, 71)');
    expect(window.localStorage.getItem(CAPTION_STORAGE_KEYS.liveViewer)).toBeNull();
  });

  it('without a style of the speaker, shows light text on black and still steps the size', async () => {
    fakeLive();
    open();
    await tick(0);
    expect(captions().style.fontSize).toBe('30px');
    expect(captions().style.color).toBe('rgb(255, 255, 255)');
    act(() => screen.getByRole('button', { name: 'Larger text' }).click());
    expect(captions().style.fontSize).toBe('36px');
  });
});
