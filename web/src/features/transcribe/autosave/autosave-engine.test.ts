import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS, LIVE_SAVE_INTERVAL_MS } from '@app/shared/constants';
import { DELTA_MAX_CHARS, type Segment } from '@app/shared/schemas/transcriptions';
import { describe, expect, it, vi } from 'vitest';
import { advance, engine, fakeServer, leavePage, nextPageLoad, recording, sayAndSave, settle, transcript, setUpAutosaveTests } from './autosave-test-kit';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';
import { DELTA_CHUNK_CHARS, KEEPALIVE_MAX_BYTES } from './delta';
import { TranscriptStore } from '../lib/transcript-store';
import { readQueue } from './queue-storage';

setUpAutosaveTests();

describe('autosave engine', () => {
  it('saves on a text change only when more than 10 s passed since the last save, and every 30 s', async () => {
    const { server, a, t } = await recording();

    a.update(t.say('olá'));
    await advance(5_000);
    a.update(t.say('tudo bem'));
    await settle();
    expect(server.saves()).toHaveLength(0); // 5 s after start: too soon

    await advance(AUTOSAVE_MIN_GAP_MS - 5_000); // exactly 10 s: still not "more than"
    a.update(t.say('com você'));
    await settle();
    expect(server.saves()).toHaveLength(0);

    await advance(1);
    a.update(t.say('hoje'));
    await settle();
    expect(server.saves()).toHaveLength(1);
    expect(server.soleSession().text).toBe('olá tudo bem com você hoje');

    // A change 3 s later waits; the 30-second save picks it up.
    await advance(3_000);
    a.update(t.say('sim'));
    await settle();
    expect(server.saves()).toHaveLength(1);
    await advance(AUTOSAVE_INTERVAL_MS - 3_000 - 1);
    await settle();
    expect(server.saves()).toHaveLength(1);
    await advance(1);
    await settle();
    expect(server.saves()).toHaveLength(2);
    expect(server.soleSession().text).toBe(t.text);

    // Nothing new: the 30-second tick sends nothing (duration unchanged).
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.saves()).toHaveLength(2);
  });

  it('sends only the delta from the confirmed length, with the segments inside it', async () => {
    const { server, a, t } = await recording();
    for (const words of ['um', 'dois', 'três']) a.update(t.say(words));
    a.saveNow();
    await settle();
    for (const words of ['quatro', 'cinco']) a.update(t.say(words));
    a.saveNow();
    await settle();

    const [first, second] = server.saves().map((c) => c.body!);
    expect(first).toMatchObject({ offset: 0, text: 'um dois três', language: 'pt-BR', duration: 3 });
    expect((first!.segments as Segment[]).map((s) => s.text)).toEqual(['um', 'dois', 'três']);
    expect(second).toMatchObject({ offset: 'um dois três'.length, text: ' quatro cinco', duration: 5 });
    expect(second!.segments).toEqual([
      { text: 'quatro', startMs: 3000, endMs: 4000, at: 13 },
      { text: 'cinco', startMs: 4000, endMs: 5000, at: 20 },
    ]);
    expect(server.soleSession().text).toBe('um dois três quatro cinco');
  });

  it('resends from the length a 409 gives', async () => {
    const { server, a, t } = await recording();
    await sayAndSave(a, t, 'primeira parte');
    // The server lost the last characters (say, a replaced text): the next delta is a gap.
    server.soleSession().text = 'primeira';
    await sayAndSave(a, t, 'segunda parte');

    const [, gap, resend] = server.saves().map((c) => c.body!);
    expect(gap).toMatchObject({ offset: 'primeira parte'.length, text: ' segunda parte' });
    expect(resend).toMatchObject({ offset: 'primeira'.length, text: ' parte segunda parte' });
    expect(server.soleSession().text).toBe('primeira parte segunda parte');
  });

  it('an entry the previous version left with its text inline, when the server lacks text before it: the text goes at the server’s length rather than be lost', async () => {
    const server = fakeServer();
    const sessionId = '01JAAAAAAAAAAAAAAAAAAAAA90';
    server.sessions.set(sessionId, { text: 'início', segments: [], completed: false, duration: 2, language: 'pt-BR' });
    const previous = {
      id: 'previous-1', userId: 'u1', sessionId, language: 'pt-BR', durationSec: 4, base: 'início do texto'.length, text: ' e o fim',
      segments: [{ text: 'e o fim', startMs: 2_000, endMs: 4_000, at: 'início do texto '.length }], edge: 'do texto e o fim',
      sentDurationSec: 2, sentLanguage: 'pt-BR', stopped: true, owner: null, touchedAt: 0, changedAt: Date.now(),
    };
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify([previous]));

    await nextPageLoad();
    const [gap, moved] = server.saves().map((c) => c.body!);
    expect(gap).toMatchObject({ offset: 'início do texto'.length, text: ' e o fim' });
    expect(moved).toEqual({ sessionId, offset: 'início'.length, text: ' e o fim', segments: [{ text: 'e o fim', startMs: 2_000, endMs: 4_000, at: 'início '.length }], duration: 4, language: 'pt-BR' });
    expect(server.soleSession()).toMatchObject({ text: 'início e o fim', completed: true });
    expect(readQueue()).toEqual([]);
  });

  it('completes on stop after a final save, and a late final result still lands in that session', async () => {
    const { server, a, t } = await recording();
    a.update(t.say('fim da reunião'));
    a.complete();
    await settle();
    const session = server.soleSession();
    expect(session).toMatchObject({ text: 'fim da reunião', completed: true, duration: 1 });
    expect(server.calls.at(-1)?.route).toBe('autosaveComplete');
    expect(readQueue()).toEqual([]);

    // Chrome delivers a last result after stop().
    a.update(t.say('obrigado'));
    await settle();
    expect(server.sessions.size).toBe(1);
    expect(session.text).toBe('fim da reunião obrigado');
    expect(readQueue()).toEqual([]);
  });

  it('saveNow sends a duration or language change without new text, and the server records it', async () => {
    const { server, a, t } = await recording();
    const said = t.say('bom dia');
    a.update(said);
    a.saveNow();
    await settle();
    expect(server.soleSession()).toMatchObject({ text: 'bom dia', duration: 1, language: 'pt-BR' });
    a.update({ ...said, durationSec: 42, language: 'es-ES' });
    a.saveNow();
    await settle();
    expect(server.saves().at(-1)!.body).toMatchObject({ offset: 'bom dia'.length, text: '', duration: 42, language: 'es-ES' });
    expect(server.soleSession()).toMatchObject({ text: 'bom dia', duration: 42, language: 'es-ES' });
  });

  it('splits a long backlog into deltas the server accepts', async () => {
    const server = fakeServer();
    expect(DELTA_CHUNK_CHARS).toBeLessThanOrEqual(DELTA_MAX_CHARS);
    const a = engine();
    a.start('en-US', 'long');
    await settle();
    const words = Array.from({ length: 40_000 }, (_, i) => `word${i}`);
    const segments = words.map((w, i) => ({ text: w, startMs: i * 100, endMs: i * 100 + 90 }));
    a.update({ transcript: 'long', text: words.join(' '), segments, durationSec: 4000, language: 'en-US' });
    a.saveNow();
    await settle();
    const saves = server.saves();
    expect(saves.length).toBeGreaterThan(1);
    for (const s of saves) expect((s.body!.text as string).length).toBeLessThanOrEqual(DELTA_CHUNK_CHARS);
    expect(server.soleSession().text).toBe(words.join(' '));
    // Cut between segments: every segment reached the server.
    expect(server.soleSession().segments).toHaveLength(words.length);
  });

  it('text said while a save is on its way waits for the next save (results faster than the network never make a request each); a final result said while Stop completes the session still lands', async () => {
    const { server, a, t } = await recording();
    const answerNow = globalThis.fetch;
    // Each answer takes 400 ms.
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return answerNow(...args);
    });
    await advance(AUTOSAVE_MIN_GAP_MS + 1);
    a.update(t.say('first words'));
    const firstText = t.text;
    // Five results a second for three seconds.
    for (let i = 0; i < 15; i++) {
      await advance(200);
      a.update(t.say(`word${i}`));
    }
    await settle();
    expect(server.saves()).toHaveLength(1);
    expect(server.soleSession().text).toBe(firstText);
    // The next save takes the rest, in one request.
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.saves()).toHaveLength(2);
    expect(server.soleSession().text).toBe(t.text);

    // Stop sends everything, then completes; a final result said meanwhile is sent after.
    a.update(t.say('last words'));
    a.complete();
    await advance(400);
    a.update(t.say('a late final result'));
    await advance(2_000);
    await settle();
    expect(server.soleSession()).toMatchObject({ text: t.text, completed: true });
  });

  it("a session the plan does not keep (the month's automatic transcriptions are kept already) is asked for once, then nothing is sent or queued", async () => {
    const server = fakeServer();
    server.state.monthFull = true;
    const a = engine();
    const t = transcript();
    a.start('pt-BR', t.id);
    await settle();
    expect(readQueue()).toEqual([]);
    await sayAndSave(a, t, 'ao vivo, sem guardar');
    a.update(t.say('e mais'));
    await advance(AUTOSAVE_INTERVAL_MS * 3);
    await settle();
    expect(server.sessionIdCalls()).toHaveLength(1);
    expect(server.saves()).toEqual([]);
    expect(server.sessions.size).toBe(0);
    expect(readQueue()).toEqual([]);
    expect(a.sessionId()).toBeNull();

    // The next session asks again (a deletion or a new month may have made room).
    server.state.monthFull = false;
    a.complete();
    a.start('pt-BR', t.id);
    await sayAndSave(a, t, 'guardada');
    expect(server.sessionIdCalls()).toHaveLength(2);
    expect(server.soleSession().text).toBe(t.text);
  });

  it('a transcript replaced right after Stop: the stopped session still sends its own text, never the next one’s', async () => {
    const server = fakeServer();
    const a = engine();
    // The card's transcript, as the card hands it over (read by parts, cleared by Start).
    const store = new TranscriptStore();
    const snapshot = (transcript: string) => ({ transcript, text: store.textSource, segments: store.segments, durationSec: 1, language: 'pt-BR' as const });
    a.start('pt-BR', 'first');
    await settle();
    server.state.offline = true;
    store.append({ text: 'palavras da primeira', startMs: 0, endMs: 900 });
    a.update(snapshot('first'));
    a.complete();
    store.clear();
    a.start('pt-BR', 'second');
    store.append({ text: 'outra coisa, bem mais longa que a primeira', startMs: 0, endMs: 900 });
    a.update(snapshot('second'));
    server.state.offline = false;
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect([...server.sessions.values()].map((x) => [x.text, x.completed])).toEqual([
      ['palavras da primeira', true],
      ['outra coisa, bem mais longa que a primeira', false],
    ]);
  });

  it('drops a session the server no longer has (deleted) and keeps nothing queued', async () => {
    const { server, a, t } = await recording();
    server.sessions.clear();
    await sayAndSave(a, t, 'apagada');
    expect(readQueue()).toEqual([]);
  });
});

describe('autosave session key', () => {
  it('asks for the session id with the entry’s key, and a retry after a lost answer sends the same key: one session', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    server.state.lostAnswers = 1;
    a.start('pt-BR', t.id);
    await settle();
    // The server opened a session; the page never heard of it.
    expect(server.sessions.size).toBe(1);
    expect(a.sessionId()).toBeNull();

    await sayAndSave(a, t, 'depois da resposta perdida');
    const [first, retry] = server.sessionIdCalls();
    expect(first!.query.key).toBe(readQueue()[0]!.id);
    expect(retry!.query.key).toBe(first!.query.key);
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession().text).toBe('depois da resposta perdida');
    expect(a.sessionId()).toBe([...server.sessions.keys()][0]);
  });

  it('a reload before the session id came back: the next page load asks with the same key, and the text lands in that one session', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    server.state.lostAnswers = 1;
    a.start('pt-BR', t.id);
    a.update(t.say('dito antes do reload'));
    await settle();
    leavePage(a);

    const b = await nextPageLoad();
    b.update(t.say('e depois dele'));
    b.saveNow();
    await settle();
    const keys = server.sessionIdCalls().map((c) => c.query.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession().text).toBe('dito antes do reload e depois dele');
  });

  it('each new session has a key of its own', async () => {
    const server = fakeServer();
    const a = engine();
    a.start('pt-BR', 'first');
    await settle();
    a.start('pt-BR', 'second');
    await settle();
    const keys = server.sessionIdCalls().map((c) => c.query.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    expect(server.sessions.size).toBe(2);
  });
});

describe('autosave when the page goes away', () => {
  it('on pagehide sends the oldest unsent part that fits a keepalive request', async () => {
    const server = fakeServer();
    const a = engine();
    a.start('ru-RU', 'long');
    await settle();
    server.state.failSaves = 1000;
    // 200,000 Cyrillic characters (2 bytes each in UTF-8) are waiting.
    const long = 'Привет мир, как дела сегодня? '.repeat(6667).slice(0, 200_000);
    a.update({ transcript: 'long', text: long, segments: [], durationSec: 600, language: 'ru-RU' });
    await settle();
    server.calls.length = 0;
    server.state.failSaves = 0;

    window.dispatchEvent(new Event('pagehide'));
    await settle();
    const [keepalive] = server.calls;
    expect(keepalive).toMatchObject({ route: 'autosaveSave', keepalive: true });
    expect(keepalive!.body).toMatchObject({ offset: 0, language: 'ru-RU' });
    const bytes = new TextEncoder().encode(JSON.stringify(keepalive!.body)).length;
    expect(bytes).toBeLessThanOrEqual(KEEPALIVE_MAX_BYTES);
    expect((keepalive!.body!.text as string).length).toBeGreaterThan(10_000);
    // The rest waits to be sent.
    expect(readQueue()[0]!.length).toBe(long.length);
  });

  it('when the page goes hidden, sends with keepalive and keeps what the server confirmed', async () => {
    const { server, a, t } = await recording();
    a.update(t.say('antes de fechar a tampa'));
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    visibility.mockRestore();
    expect(server.saves()).toEqual([expect.objectContaining({ keepalive: true })]);
    expect(server.soleSession().text).toBe(t.text);
    await advance(1_000); // device storage is written at most once a second
    expect(readQueue()[0]).toMatchObject({ base: t.text.length, length: t.text.length });
  });
});

describe('autosave engine while shared live', () => {
  it('sends each change at once while live, no sooner than LIVE_SAVE_INTERVAL_MS after the last save, and goes back to the usual cadence when sharing stops', async () => {
    const { server, a, t } = await recording();
    // At most 100 saves a minute: under the save route's limit of 120.
    expect(LIVE_SAVE_INTERVAL_MS).toBe(600);
    a.setLive(true);
    await settle();
    // Changes said right after a save wait for the rest of the interval.
    for (const words of ['bom dia', 'a vocês', 'que vieram', 'hoje']) {
      a.update(t.say(words));
      const before = server.saves().length;
      await advance(LIVE_SAVE_INTERVAL_MS - 1);
      await settle();
      expect(server.saves()).toHaveLength(before);
      await advance(1);
      await settle();
      expect(server.saves()).toHaveLength(before + 1);
      expect(server.soleSession().text).toBe(t.text);
    }
    // Nothing new: the short cadence sends nothing.
    await advance(5 * LIVE_SAVE_INTERVAL_MS);
    await settle();
    expect(server.saves()).toHaveLength(4);
    // A change more than LIVE_SAVE_INTERVAL_MS after the last save goes at once (no time passes).
    a.update(t.say('agora'));
    await settle();
    expect(server.saves()).toHaveLength(5);
    expect(server.soleSession().text).toBe(t.text);

    a.setLive(false);
    a.update(t.say('sem partilha'));
    await advance(AUTOSAVE_INTERVAL_MS - 1);
    await settle();
    expect(server.saves()).toHaveLength(5);
    await advance(1);
    await settle();
    expect(server.saves()).toHaveLength(6);
    expect(server.soleSession().text).toBe(t.text);
  });

  it('sends what waits for the slow cadence as soon as sharing starts', async () => {
    const { server, a, t } = await recording();
    a.update(t.say('antes da partilha'));
    await settle();
    expect(server.saves()).toHaveLength(0);
    a.setLive(true);
    await settle();
    expect(server.saves()).toHaveLength(1);
    expect(server.soleSession().text).toBe('antes da partilha');
  });

  it('tells the running session id; completing the session clears it and ends the live cadence', async () => {
    const server = fakeServer();
    const a = engine();
    const t = () => a.sessionId();
    const seen: (string | null)[] = [];
    a.subscribe(() => seen.push(t()));
    expect(t()).toBeNull();
    a.start('pt-BR', 'first');
    expect(t()).toBeNull(); // asked for after the current task
    await settle();
    const id = [...server.sessions.keys()][0]!;
    expect(t()).toBe(id);
    a.setLive(true);
    a.complete();
    await settle();
    expect(t()).toBeNull();
    expect(seen).toContain(id);
    expect(seen.at(-1)).toBeNull();

    // The next session is not shared: a change waits for the usual cadence.
    const next = transcript();
    a.start('pt-BR', next.id);
    await settle();
    a.update(next.say('nova sessão'));
    await settle();
    expect(t()).not.toBeNull();
    expect(t()).not.toBe(id);
    const saves = server.saves().length;
    await advance(LIVE_SAVE_INTERVAL_MS * 3);
    await settle();
    expect(server.saves()).toHaveLength(saves);
  });
});
