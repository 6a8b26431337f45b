import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS, STORAGE_KEYS } from '@app/shared/constants';
import { routes } from '@app/shared/routes';
import { DELTA_MAX_CHARS, type Segment } from '@app/shared/schemas/transcriptions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autosaveEngineFor, createAutosaveEngine, forgetAutosave, sendBeforeLogout, type AutosaveEngine } from './autosave-engine';
import { DELTA_CHUNK_CHARS, KEEPALIVE_MAX_BYTES } from './delta';
import { readQueue, STALE_OWNER_MS } from './queue-storage';
import { RETRY_BACKOFF_MAX_MS } from './transport';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';

/** A fake of the three autosave routes with the server's delta rules. */
interface Call {
  path: string;
  method: string;
  body: Record<string, unknown> | undefined;
  keepalive: boolean;
  auth: string | undefined;
}
function fakeServer() {
  const sessions = new Map<string, { text: string; segments: Segment[]; completed: boolean; duration: number; language: string }>();
  const calls: Call[] = [];
  const state = { offline: false, failSaves: 0, n: 0, maintenance: false };
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ path: String(input), method: init.method ?? 'GET', body, keepalive: init.keepalive === true, auth: headers.authorization });
    if (state.offline) throw new TypeError('Failed to fetch');
    const json = (status: number, data: unknown) => new Response(JSON.stringify(data), { status });
    if (state.maintenance) return json(503, { error: 'Under maintenance', code: 'maintenance' });
    if (String(input) === routes.autosaveSessionId.path) {
      const id = `01JAAAAAAAAAAAAAAAAAAAAA${String(state.n++).padStart(2, '0')}`;
      sessions.set(id, { text: '', segments: [], completed: false, duration: 0, language: 'en-US' });
      return json(200, { sessionId: id });
    }
    const s = sessions.get(String(body?.sessionId));
    if (!s) return json(404, { error: 'Unknown session', code: 'not_found' });
    if (String(input) === routes.autosaveComplete.path) {
      s.completed = true;
      return json(200, { ok: true });
    }
    if (state.failSaves > 0) {
      state.failSaves--;
      return json(503, { error: 'down' });
    }
    const offset = body!.offset as number;
    const text = body!.text as string;
    // Segments: no more text than the delta, each found in it after the previous one, or 400.
    const segments = body!.segments as Segment[];
    if (segments.reduce((n, seg) => n + seg.text.length, 0) > text.length) return json(400, { error: 'too much segment text', code: 'invalid_input' });
    const placed: { seg: Segment; at: number }[] = [];
    let cursor = 0;
    for (const seg of segments.filter((x) => x.text)) {
      const at = text.indexOf(seg.text, cursor);
      if (at < 0) return json(400, { error: 'a segment does not match the text', code: 'invalid_segments' });
      placed.push({ seg, at: offset + at });
      cursor = at + seg.text.length;
    }
    const end = s.text.length;
    if (offset > end) return json(409, { error: 'gap', code: 'autosave_gap', length: end });
    // A late duplicate (ending before the stored text does) changes nothing; any other delta, with
    // new text or not (a retry, a duration or language change), sets duration and language.
    if (offset + text.length < end) return json(200, { length: end });
    s.text += text.slice(end - offset);
    s.segments.push(...placed.filter((p) => p.at >= end).map((p) => p.seg));
    s.duration = body!.duration as number;
    s.language = body!.language as string;
    return json(200, { length: s.text.length });
  });
  vi.stubGlobal('fetch', fetchFn);
  const saves = () => calls.filter((c) => c.path === routes.autosaveSave.path);
  return { sessions, calls, state, saves, soleSession: () => [...sessions.values()][0]! };
}

/** The card's view: a transcript built from final segments on a session clock. */
function transcript() {
  let text = '';
  const segments: Segment[] = [];
  let clock = 0;
  return {
    say(words: string) {
      const piece = text ? ` ${words}` : words;
      segments.push({ text: words, startMs: clock, endMs: clock + 1000 });
      clock += 1000;
      text += piece;
      return { text, segments: [...segments], durationSec: clock / 1000, language: 'pt-BR' as const };
    },
    get text() {
      return text;
    },
  };
}

/** A session token as the server signs it: what matters to the client is `sub`, the user id. */
const tokenOf = (userId: string) => `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: userId })).replace(/=+$/, '')}.signature`;
const signInAs = (userId: string) => window.localStorage.setItem(STORAGE_KEYS.token, tokenOf(userId));

let engines: AutosaveEngine[] = [];
function engine(userId = 'u1') {
  const e = createAutosaveEngine({ userId });
  engines.push(e);
  return e;
}

const advance = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
};
const settle = async () => {
  for (const e of engines) await e.idle();
  await vi.advanceTimersByTimeAsync(0);
  for (const e of engines) await e.idle();
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2025-03-10T12:00:00Z'));
  signInAs('u1');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const e of engines) e.dispose();
  engines = [];
});

describe('autosave engine', () => {
  it('gets a session id on start and sends the token', async () => {
    const server = fakeServer();
    engine().start('pt-BR');
    await settle();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ path: routes.autosaveSessionId.path, method: 'GET', auth: `Bearer ${tokenOf('u1')}` });
  });

  it('saves on a text change only when more than 10 s passed since the last save, and every 30 s', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();

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
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
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
      { text: 'quatro', startMs: 3000, endMs: 4000 },
      { text: 'cinco', startMs: 4000, endMs: 5000 },
    ]);
    expect(server.soleSession().text).toBe('um dois três quatro cinco');
  });

  it('resends from the length a 409 gives', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('primeira parte'));
    a.saveNow();
    await settle();
    // The server lost the last characters (say, a replaced text): the next delta is a gap.
    server.soleSession().text = 'primeira';
    a.update(t.say('segunda parte'));
    a.saveNow();
    await settle();

    const [, gap, resend] = server.saves().map((c) => c.body!);
    expect(gap).toMatchObject({ offset: 'primeira parte'.length, text: ' segunda parte' });
    expect(resend).toMatchObject({ offset: 'primeira'.length, text: ' parte segunda parte' });
    expect(server.soleSession().text).toBe('primeira parte segunda parte');
  });

  it('completes on stop after a final save, and a late final result still lands in that session', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('fim da reunião'));
    a.complete();
    await settle();
    const session = server.soleSession();
    expect(session).toMatchObject({ text: 'fim da reunião', completed: true, duration: 1 });
    expect(server.calls.at(-1)?.path).toBe(routes.autosaveComplete.path);
    expect(readQueue()).toEqual([]);

    // Chrome delivers a last result after stop().
    a.update(t.say('obrigado'));
    await settle();
    expect(server.sessions.size).toBe(1);
    expect(session.text).toBe('fim da reunião obrigado');
    expect(readQueue()).toEqual([]);
  });

  it('retries a failed save later without losing text', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.failSaves = 1;
    a.update(t.say('algo importante'));
    a.saveNow();
    await settle();
    expect(server.soleSession().text).toBe('');
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe('algo importante');
    expect(console.warn).toHaveBeenCalled();
  });

  it('keeps text queued in device storage while offline and flushes it on "online"', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();

    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    for (let i = 0; i < 24; i++) {
      a.update(t.say(`frase ${i}`));
      await advance(5_000); // two minutes of speech
    }
    await settle();
    expect(server.saves()).toHaveLength(0);
    const [queued] = readQueue();
    expect(queued).toMatchObject({ base: 0, text: t.text, userId: 'u1' });

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.soleSession().text).toBe(t.text);
    await advance(1_000); // device storage is written at most once a second
    expect(readQueue()[0]).toMatchObject({ base: t.text.length, text: '' });
  });

  it('a reload loses nothing: the next page load sends the queue and completes stopped sessions', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('antes do corte'));
    a.saveNow();
    await settle();

    server.state.offline = true; // the requests of the last moments fail
    a.update(t.say('depois do corte'));
    a.complete();
    await settle();
    window.dispatchEvent(new Event('pagehide'));
    a.dispose();
    expect(server.soleSession().text).toBe('antes do corte');
    expect(readQueue()[0]).toMatchObject({ base: 'antes do corte'.length, text: ' depois do corte', stopped: true, owner: null });

    // The next page load.
    server.state.offline = false;
    const b = engine();
    b.resumePending();
    await settle();
    expect(server.soleSession()).toMatchObject({ text: 'antes do corte depois do corte', completed: true });
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('after a reload mid-session, the card resuming the same transcript continues the same session', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('parte um'));
    window.dispatchEvent(new Event('pagehide'));
    a.dispose();
    await settle();

    const b = engine();
    b.resumePending();
    await settle();
    expect(server.soleSession()).toMatchObject({ text: 'parte um', completed: false });
    await advance(AUTOSAVE_MIN_GAP_MS + 1);
    b.update(t.say('parte dois'));
    b.complete();
    await settle();
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession()).toMatchObject({ text: 'parte um parte dois', completed: true });
  });

  it('the card resuming a restored transcript (start, then the whole text) continues the interrupted session', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('antes do recarregamento'));
    window.dispatchEvent(new Event('pagehide'));
    a.dispose();
    await settle();

    const b = engine();
    b.resumePending();
    await settle();
    // Resume: the card opens an autosave session and hands over the whole restored text.
    b.start('pt-BR');
    b.update({ ...t.say('depois'), text: t.text });
    b.saveNow();
    b.complete();
    await settle();
    expect(server.calls.filter((c) => c.path === routes.autosaveSessionId.path)).toHaveLength(1);
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession()).toMatchObject({ text: 'antes do recarregamento depois', completed: true });

    // A new transcription after that is a new session.
    const fresh = transcript();
    b.start('pt-BR');
    b.update(fresh.say('outra coisa'));
    b.complete();
    await settle();
    expect(server.sessions.size).toBe(2);
  });

  it('does not take a live tab’s session, but adopts it once that tab stopped writing (crash)', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    a.update(t.say('texto de uma aba'));
    await advance(1_000);
    // Crash: no pagehide, no more writes; the queue still names the dead tab as its owner.
    const stored = window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)!;
    expect(readQueue()[0]!.owner).not.toBeNull();
    a.dispose();
    engines = [];
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, stored);
    onLine.mockReturnValue(true);

    const b = engine();
    b.resumePending();
    await settle();
    expect(server.saves()).toHaveLength(0);

    await advance(STALE_OWNER_MS + AUTOSAVE_INTERVAL_MS);
    b.resumePending();
    await settle();
    expect(server.soleSession().text).toBe('texto de uma aba');
  });

  it('on pagehide sends the oldest unsent part that fits a keepalive request', async () => {
    const server = fakeServer();
    const a = engine();
    a.start('ru-RU');
    await settle();
    server.state.failSaves = 1000;
    // 200,000 Cyrillic characters (2 bytes each in UTF-8) are waiting.
    const long = 'Привет мир, как дела сегодня? '.repeat(6667).slice(0, 200_000);
    a.update({ text: long, segments: [], durationSec: 600, language: 'ru-RU' });
    await settle();
    server.calls.length = 0;
    server.state.failSaves = 0;

    window.dispatchEvent(new Event('pagehide'));
    await settle();
    const [keepalive] = server.calls;
    expect(keepalive).toMatchObject({ path: routes.autosaveSave.path, keepalive: true });
    expect(keepalive!.body).toMatchObject({ offset: 0, language: 'ru-RU' });
    const bytes = new TextEncoder().encode(JSON.stringify(keepalive!.body)).length;
    expect(bytes).toBeLessThanOrEqual(KEEPALIVE_MAX_BYTES);
    expect((keepalive!.body!.text as string).length).toBeGreaterThan(10_000);
    // The rest waits in device storage.
    expect(readQueue()[0]!.base + readQueue()[0]!.text.length).toBe(long.length);
  });

  it('when the page goes hidden, sends with keepalive and keeps what the server confirmed', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('antes de fechar a tampa'));
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    visibility.mockRestore();
    expect(server.saves()).toEqual([expect.objectContaining({ keepalive: true })]);
    expect(server.soleSession().text).toBe(t.text);
    await advance(1_000); // device storage is written at most once a second
    expect(readQueue()[0]).toMatchObject({ base: t.text.length, text: '' });
  });

  it('saveNow sends a duration or language change without new text, and the server records it', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
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
    a.start('en-US');
    await settle();
    const words = Array.from({ length: 40_000 }, (_, i) => `word${i}`);
    const segments = words.map((w, i) => ({ text: w, startMs: i * 100, endMs: i * 100 + 90 }));
    a.update({ text: words.join(' '), segments, durationSec: 4000, language: 'en-US' });
    a.saveNow();
    await settle();
    const saves = server.saves();
    expect(saves.length).toBeGreaterThan(1);
    for (const s of saves) expect((s.body!.text as string).length).toBeLessThanOrEqual(DELTA_CHUNK_CHARS);
    expect(server.soleSession().text).toBe(words.join(' '));
    // Cut between segments: every segment reached the server.
    expect(server.soleSession().segments).toHaveLength(words.length);
  });

  it('gets a session id later when the first request fails, and never loses the text meanwhile', async () => {
    const server = fakeServer();
    server.state.offline = true;
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    a.update(t.say('sem rede no começo'));
    await settle();
    expect(server.sessions.size).toBe(0);
    server.state.offline = false;
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe('sem rede no começo');
  });

  it('drops a session the server no longer has (deleted) and keeps nothing queued', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.sessions.clear();
    a.update(t.say('apagada'));
    a.saveNow();
    await settle();
    expect(readQueue()).toEqual([]);
  });

  it('leaves other users’ queued sessions alone', async () => {
    const server = fakeServer();
    const a = engine('someone-else');
    a.start('pt-BR');
    a.dispose();
    await settle();
    server.calls.length = 0;
    const b = engine('u1');
    b.resumePending();
    await settle();
    expect(server.calls).toHaveLength(0);
    expect(readQueue()).toHaveLength(1);
  });
});

describe('autosave queue belongs to its user', () => {
  it('user A’s queued text is never sent with user B’s token; it goes up with A’s once A signs in again', async () => {
    const server = fakeServer();
    const a = engine('u1');
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.offline = true;
    a.update(t.say('texto de A'));
    a.saveNow();
    await settle();
    server.state.offline = false;
    server.calls.length = 0;

    // A's session ends and B signs in on the same device; A's engine is still running in this page.
    signInAs('u2');
    a.update(t.say('mais'));
    a.saveNow();
    window.dispatchEvent(new Event('online'));
    await advance(AUTOSAVE_INTERVAL_MS * 3);
    const b = engine('u2');
    b.resumePending();
    await settle();
    expect(server.calls).toEqual([]);
    expect(readQueue().find((e) => e.userId === 'u1')).toMatchObject({ base: 0, text: t.text });

    signInAs('u1');
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe(t.text);
    expect(server.calls.length).toBeGreaterThan(0);
    expect(server.calls.every((c) => c.auth === `Bearer ${tokenOf('u1')}`)).toBe(true);
  });

  it('logout: the running session is completed and the queue sent with the user’s token, then only that user’s entries leave the device', async () => {
    const server = fakeServer();
    const other = engine('u2');
    other.start('pt-BR'); // another account's unsent session, left on this device
    other.dispose();
    const a = autosaveEngineFor('u1');
    expect(autosaveEngineFor('u1')).toBe(a);
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.offline = true;
    a.update(t.say('antes de sair'));
    a.saveNow();
    await a.idle();
    server.state.offline = false;

    await sendBeforeLogout('u1');
    expect(server.soleSession()).toMatchObject({ text: 'antes de sair', completed: true });
    window.localStorage.removeItem(STORAGE_KEYS.token);
    forgetAutosave('u1');
    expect(readQueue().map((e) => e.userId)).toEqual(['u2']);

    // A result arriving while the page catches up with the logout queues nothing for the user who left.
    autosaveEngineFor('u1').start('pt-BR');
    autosaveEngineFor('u1').update(t.say('depois'));
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(readQueue().map((e) => e.userId)).toEqual(['u2']);
    expect(server.sessions.size).toBe(1);
  });

  it('logout wipes the user’s queued text even when it could not be sent', async () => {
    const server = fakeServer();
    const a = autosaveEngineFor('u1');
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.offline = true;
    a.update(t.say('sem rede'));
    await sendBeforeLogout('u1');
    expect(readQueue()).toHaveLength(1);
    window.localStorage.removeItem(STORAGE_KEYS.token);
    forgetAutosave('u1');
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
    await advance(AUTOSAVE_INTERVAL_MS);
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });
});

describe('autosave while the API refuses writes for maintenance (503)', () => {
  it('keeps the unsent text queued, backs off, and sends it once maintenance ends', async () => {
    const server = fakeServer();
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    await settle();
    a.update(t.say('antes'));
    a.saveNow();
    await settle();
    expect(server.soleSession().text).toBe('antes');

    server.state.maintenance = true;
    server.calls.length = 0;
    for (let i = 0; i < 60; i++) {
      a.update(t.say(`frase ${i}`));
      await advance(10_000); // ten minutes of speech
    }
    a.complete();
    await settle();
    // Nothing confirmed, nothing dropped, the session not completed.
    expect(server.soleSession()).toMatchObject({ text: 'antes', completed: false });
    expect(readQueue()).toEqual([expect.objectContaining({ base: 'antes'.length, text: t.text.slice('antes'.length), stopped: true })]);
    // Backed off: a try on each text change after the 10-second gap would be 30 requests or more.
    expect(server.calls.length).toBeGreaterThanOrEqual(3);
    expect(server.calls.length).toBeLessThanOrEqual(6);
    expect(console.warn).toHaveBeenCalledWith('[autosave]', expect.stringContaining('maintenance'));

    server.state.maintenance = false;
    await advance(RETRY_BACKOFF_MAX_MS + AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession()).toMatchObject({ text: t.text, completed: true });
    expect(readQueue()).toEqual([]);
  });

  it('a session started during maintenance gets its id and sends its text once maintenance ends', async () => {
    const server = fakeServer();
    server.state.maintenance = true;
    const a = engine();
    const t = transcript();
    a.start('pt-BR');
    a.update(t.say('começou na manutenção'));
    await advance(AUTOSAVE_INTERVAL_MS * 4);
    await settle();
    expect(server.sessions.size).toBe(0);
    expect(readQueue()[0]).toMatchObject({ sessionId: null, base: 0, text: t.text });

    server.state.maintenance = false;
    await advance(RETRY_BACKOFF_MAX_MS + AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe(t.text);
  });
});

describe('autosave when the session ends in another tab', () => {
  it('a logout in another tab removed the user’s queue: this tab never writes it back', async () => {
    const server = fakeServer();
    const a = engine('u1');
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.offline = true;
    a.update(t.say('texto que não subiu'));
    await advance(1_000);
    expect(readQueue()).toHaveLength(1);

    // The other tab logs out: the token goes, and so do the user's queued sessions.
    window.localStorage.removeItem(STORAGE_KEYS.token);
    window.localStorage.removeItem(AUTOSAVE_QUEUE_KEY);
    a.update(t.say('mais'));
    await advance(AUTOSAVE_INTERVAL_MS * 2);
    window.dispatchEvent(new Event('pagehide'));
    a.dispose();
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('a session that ended by itself (token refused) keeps the user’s queue on the device for their next sign-in', async () => {
    const server = fakeServer();
    const a = engine('u1');
    const t = transcript();
    a.start('pt-BR');
    await settle();
    server.state.offline = true;
    a.update(t.say('guardado para depois'));
    await advance(1_000);

    window.localStorage.removeItem(STORAGE_KEYS.token);
    await advance(AUTOSAVE_INTERVAL_MS * 2);
    window.dispatchEvent(new Event('pagehide'));
    a.dispose();
    expect(readQueue()).toEqual([expect.objectContaining({ userId: 'u1', base: 0, text: t.text, owner: null })]);
  });
});
