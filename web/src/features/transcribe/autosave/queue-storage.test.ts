import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS } from '@app/shared/constants';
import { describe, expect, it } from 'vitest';
import { autosaveEngineFor, forgetAutosave, sendBeforeLogout } from './autosave-engine';
import {
  advance,
  browserOffline,
  crash,
  engine,
  fakeServer,
  leavePage,
  nextPageLoad,
  recording,
  sayAndSave,
  settle,
  signInAs,
  signOut,
  transcript,
  unsentText,
  setUpAutosaveTests,
} from './autosave-test-kit';
import { createRecoveryStore } from '../lib/recovery';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';
import { ORPHAN_TTL_MS, readQueue, STALE_OWNER_MS, wipeQueue, type QueueEntry } from './queue-storage';

setUpAutosaveTests();

const entry = (id: string, userId: string): QueueEntry => ({
  id, userId, sessionId: null, transcript: `t-${id}`, language: 'pt-BR', durationSec: 0, base: 0, length: id.length,
  sentDurationSec: 0, sentLanguage: null, stopped: false, recording: false, owner: null, touchedAt: 0, changedAt: 0,
});

describe('autosave queue in device storage', () => {
  it('reads a missing, damaged or foreign value as an empty queue, and skips entries that are not queue entries', () => {
    expect(readQueue()).toEqual([]);
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, '{not json');
    expect(readQueue()).toEqual([]);
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, '{"id":"x"}');
    expect(readQueue()).toEqual([]);
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify([entry('a', 'u1'), { id: 'b', userId: 'u1' }, null]));
    expect(readQueue()).toEqual([entry('a', 'u1')]);
    expect(readQueue(null)).toEqual([]);
  });

  it('wipes one user’s entries, and the key with the last of them', () => {
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify([entry('a', 'u1'), entry('b', 'u2'), entry('c', 'u1')]));
    wipeQueue('u1');
    expect(readQueue()).toEqual([entry('b', 'u2')]);
    wipeQueue('u2');
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('keeps text queued in device storage while offline and flushes it on "online"', async () => {
    const { server, a, t } = await recording();
    const browser = browserOffline();
    for (let i = 0; i < 24; i++) {
      a.update(t.say(`frase ${i}`));
      await advance(5_000); // two minutes of speech
    }
    await settle();
    expect(server.saves()).toHaveLength(0);
    const [queued] = readQueue();
    expect(queued).toMatchObject({ base: 0, length: t.text.length, userId: 'u1' });
    expect(await unsentText(queued!)).toBe(t.text);

    browser.back();
    await settle();
    expect(server.soleSession().text).toBe(t.text);
    await advance(1_000); // device storage is written at most once a second
    expect(readQueue()[0]).toMatchObject({ base: t.text.length, length: t.text.length });
  });

  it('a reload loses nothing: the next page load sends the queue and completes stopped sessions', async () => {
    const { server, a, t } = await recording();
    await sayAndSave(a, t, 'antes do corte');

    server.state.offline = true; // the requests of the last moments fail
    a.update(t.say('depois do corte'));
    a.complete();
    await settle();
    leavePage(a);
    expect(server.soleSession().text).toBe('antes do corte');
    expect(readQueue()[0]).toMatchObject({ base: 'antes do corte'.length, length: t.text.length, stopped: true, owner: null });
    expect(await unsentText(readQueue()[0]!)).toBe(' depois do corte');

    server.state.offline = false;
    await nextPageLoad();
    expect(server.soleSession()).toMatchObject({ text: 'antes do corte depois do corte', completed: true });
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('after a reload mid-session, the card resuming the same transcript continues the same session', async () => {
    const { server, a, t } = await recording();
    a.update(t.say('parte um'));
    leavePage(a);
    await settle();

    const b = await nextPageLoad();
    expect(server.soleSession()).toMatchObject({ text: 'parte um', completed: false });
    await advance(AUTOSAVE_MIN_GAP_MS + 1);
    b.update(t.say('parte dois'));
    b.complete();
    await settle();
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession()).toMatchObject({ text: 'parte um parte dois', completed: true });
  });

  it('the card resuming a restored transcript (start, then the whole text) continues the interrupted session', async () => {
    const { server, a, t } = await recording();
    a.update(t.say('antes do recarregamento'));
    leavePage(a);
    await settle();

    const b = await nextPageLoad();
    // Resume: the card opens an autosave session and hands over the whole restored text.
    b.start('pt-BR', t.id);
    b.update({ ...t.say('depois'), text: t.text });
    b.saveNow();
    b.complete();
    await settle();
    expect(server.sessionIdCalls()).toHaveLength(1);
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession()).toMatchObject({ text: 'antes do recarregamento depois', completed: true });

    // A new transcription after that is a new session.
    const fresh = transcript();
    b.start('pt-BR', fresh.id);
    b.update(fresh.say('outra coisa'));
    b.complete();
    await settle();
    expect(server.sessions.size).toBe(2);
  });

  it('does not take a live tab’s session, but adopts it once that tab stopped writing (crash)', async () => {
    const { server, a, t } = await recording();
    const browser = browserOffline();
    a.update(t.say('texto de uma aba'));
    await advance(1_000);
    // Crash: no pagehide, no more writes; the queue still names the dead tab as its owner.
    const stored = window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)!;
    expect(readQueue()[0]!.owner).not.toBeNull();
    crash(a);
    window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, stored);
    browser.back();

    const b = await nextPageLoad();
    expect(server.saves()).toHaveLength(0);

    await advance(STALE_OWNER_MS + AUTOSAVE_INTERVAL_MS);
    b.resumePending();
    await settle();
    expect(server.soleSession().text).toBe('texto de uma aba');
  });

  it('leaves other users’ queued sessions alone', async () => {
    const server = fakeServer();
    const a = engine('someone-else');
    a.start('pt-BR', transcript('someone-else').id);
    a.dispose();
    await settle();
    server.calls.length = 0;
    await nextPageLoad('u1');
    expect(server.calls).toHaveLength(0);
    expect(readQueue()).toHaveLength(1);
  });
});

describe('autosave queue belongs to its user', () => {
  it('user A’s queued text is never sent in user B’s session; it goes up in A’s once A signs in again', async () => {
    const { server, a, t } = await recording('u1');
    server.state.offline = true;
    await sayAndSave(a, t, 'texto de A');
    server.state.offline = false;
    server.calls.length = 0;

    // A's session ends and B signs in on the same device; A's engine is still running in this page.
    signInAs('u2');
    a.update(t.say('mais'));
    a.saveNow();
    window.dispatchEvent(new Event('online'));
    await advance(AUTOSAVE_INTERVAL_MS * 3);
    await nextPageLoad('u2');
    expect(server.calls).toEqual([]);
    expect(readQueue().find((e) => e.userId === 'u1')).toMatchObject({ base: 0, length: t.text.length });
    expect(await unsentText(readQueue().find((e) => e.userId === 'u1')!)).toBe(t.text);

    signInAs('u1');
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe(t.text);
    expect(server.calls.length).toBeGreaterThan(0);
    expect(server.calls.every((c) => c.session === 'u1')).toBe(true);
  });

  it('logout: the running session is completed and the queue sent in the user’s session, then only that user’s entries leave the device', async () => {
    const server = fakeServer();
    const other = engine('u2');
    other.start('pt-BR', transcript('u2').id); // another account's unsent session, left on this device
    other.dispose();
    const a = autosaveEngineFor('u1');
    expect(autosaveEngineFor('u1')).toBe(a);
    const t = transcript();
    a.start('pt-BR', t.id);
    await settle();
    server.state.offline = true;
    a.update(t.say('antes de sair'));
    a.saveNow();
    await a.idle();
    server.state.offline = false;

    await sendBeforeLogout('u1');
    expect(server.soleSession()).toMatchObject({ text: 'antes de sair', completed: true });
    signOut();
    forgetAutosave('u1');
    expect(readQueue().map((e) => e.userId)).toEqual(['u2']);

    // A result arriving while the page catches up with the logout queues nothing for the user who left.
    autosaveEngineFor('u1').start('pt-BR', t.id);
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
    a.start('pt-BR', t.id);
    await settle();
    server.state.offline = true;
    a.update(t.say('sem rede'));
    await sendBeforeLogout('u1');
    expect(readQueue()).toHaveLength(1);
    signOut();
    forgetAutosave('u1');
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
    await advance(AUTOSAVE_INTERVAL_MS);
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });
});

describe('autosave when the session ends in another tab', () => {
  it('a logout in another tab removed the user’s queue: this tab never writes it back', async () => {
    const { server, a, t } = await recording('u1');
    server.state.offline = true;
    a.update(t.say('texto que não subiu'));
    await advance(1_000);
    expect(readQueue()).toHaveLength(1);

    // The other tab logs out: the token goes, and so do the user's queued sessions.
    signOut();
    window.localStorage.removeItem(AUTOSAVE_QUEUE_KEY);
    a.update(t.say('mais'));
    await advance(AUTOSAVE_INTERVAL_MS * 2);
    leavePage(a);
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('a session that ended by itself (token refused) keeps the user’s queue on the device for their next sign-in', async () => {
    const { server, a, t } = await recording('u1');
    server.state.offline = true;
    a.update(t.say('guardado para depois'));
    await advance(1_000);

    signOut();
    await advance(AUTOSAVE_INTERVAL_MS * 2);
    leavePage(a);
    expect(readQueue()).toEqual([expect.objectContaining({ userId: 'u1', base: 0, length: t.text.length, owner: null })]);
    expect(await unsentText(readQueue()[0]!)).toBe(t.text);
  });
});

describe('one device copy of the unsent text, read by recovery and by the queue', () => {
  /** How many times `text` occurs in device storage (jsdom has no IndexedDB: all of it is in localStorage). */
  const copies = (text: string) =>
    Object.keys(window.localStorage).reduce((n, key) => n + (window.localStorage.getItem(key) ?? '').split(text).length - 1, 0);

  it('after results and a pagehide, the unsent text is on the device once, and the restore prompt and the next page load’s queue both read it', async () => {
    const { server, a, t } = await recording();
    server.state.offline = true;
    a.update(t.say('primeira frase'));
    a.update(t.say('segunda frase'));
    await advance(1_000);
    a.update(t.say('terceira frase'));
    leavePage(a);
    for (const words of ['primeira frase', 'segunda frase', 'terceira frase']) expect(copies(words)).toBe(1);
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).not.toContain('frase');

    // Recovery offers it back...
    expect((await createRecoveryStore().load('u1'))?.segments.map((s) => s.text)).toEqual(['primeira frase', 'segunda frase', 'terceira frase']);
    // ... and the queue sends it without a restore.
    server.state.offline = false;
    await nextPageLoad();
    expect(server.soleSession().text).toBe(t.text);
  });

  it('the restore prompt declined: the transcript is no longer offered, the queue still sends it, and then nothing of it is left', async () => {
    const { server, a, t } = await recording();
    server.state.offline = true;
    a.update(t.say('texto não enviado'));
    leavePage(a);

    createRecoveryStore().discard();
    expect(await createRecoveryStore().load('u1')).toBeNull();
    expect(copies('texto não enviado')).toBe(1);

    server.state.offline = false;
    await nextPageLoad();
    expect(server.soleSession().text).toBe(t.text);
    await settle();
    expect(copies('texto não enviado')).toBe(0);
  });

  it('confirmed, then declined: nothing of it is left', async () => {
    const { server, a, t } = await recording();
    server.state.offline = true;
    a.update(t.say('enviado depois'));
    leavePage(a);
    server.state.offline = false;
    await nextPageLoad();
    expect(server.soleSession().text).toBe(t.text);
    // Still offered for restore until declined.
    expect(copies('enviado depois')).toBe(1);
    createRecoveryStore().discard();
    expect(copies('enviado depois')).toBe(0);
  });

  it('a new transcription keeps the previous one’s unsent text until the queue has sent it', async () => {
    const { server, a, t } = await recording();
    server.state.offline = true;
    a.update(t.say('da primeira transcrição'));
    a.complete();
    await settle();
    // Start again at once: the first transcript's device copy is written, not dropped.
    const next = transcript();
    a.start('pt-BR', next.id);
    a.update(next.say('da segunda'));
    expect(await createRecoveryStore().load('u1')).toBeNull(); // the second has nothing written yet
    expect(copies('da primeira transcrição')).toBe(1);

    server.state.offline = false;
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect([...server.sessions.values()].map((s) => [s.text, s.completed])).toEqual([
      [t.text, true],
      [next.text, false],
    ]);
    expect(copies('da primeira transcrição')).toBe(0);
  });

  it('the queue reads text written to the device copy after its last write (a crash), and never text past what the device holds', async () => {
    const { server, a, t } = await recording();
    server.state.offline = true;
    a.update(t.say('dito antes da queda'));
    await advance(1_000);
    // A crash: the device copy has the text, the page never wrote again.
    crash(a);
    server.state.offline = false;
    await advance(STALE_OWNER_MS);
    const b = await nextPageLoad();
    b.resumePending();
    await settle();
    expect(server.soleSession().text).toBe(t.text);
  });
});

describe('entries the previous version of the app left on the device', () => {
  /** The server session the previous version opened and confirmed `said` of. */
  function openedBefore(server: ReturnType<typeof fakeServer>, said: string) {
    const sessionId = '01JAAAAAAAAAAAAAAAAAAAAA90';
    server.sessions.set(sessionId, { text: said, segments: [], completed: false, duration: 5, language: 'pt-BR' });
    return sessionId;
  }
  /** An entry as the previous version wrote it: the unsent text inline, from the server's confirmed length. */
  const previous = (fields: { userId?: string; sessionId: string | null; base: number; text: string; stopped: boolean; owner?: string; touchedAt?: number }) => ({
    id: 'previous-1', userId: 'u1', language: 'pt-BR', durationSec: 12,
    segments: [{ text: fields.text.trim(), startMs: 5_000, endMs: 12_000, at: fields.base + fields.text.length - fields.text.trim().length }],
    edge: fields.text.slice(-64), sentDurationSec: 5, sentLanguage: 'pt-BR', owner: null, touchedAt: Date.now() - 60_000, changedAt: Date.now() - 60_000,
    ...fields,
  });
  const leftBehind = (...entries: unknown[]) => window.localStorage.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify(entries));

  it('is read with its text as the entry’s inline tail, and written back so (never with the previous fields)', async () => {
    leftBehind(previous({ sessionId: null, base: 7, text: ' mais texto', stopped: false }));
    expect(readQueue()).toEqual([
      expect.objectContaining({
        id: 'previous-1', transcript: null, base: 7, length: 7 + ' mais texto'.length, recording: false,
        inline: { at: 7, text: ' mais texto', segments: [{ text: 'mais texto', startMs: 5_000, endMs: 12_000, at: 8 }] },
      }),
    ]);

    fakeServer().state.offline = true;
    await nextPageLoad();
    const [stored] = JSON.parse(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)!) as Record<string, unknown>[];
    expect(stored).toMatchObject({ transcript: null, inline: { at: 7, text: ' mais texto' } });
    expect(stored).not.toHaveProperty('text');
    expect(stored).not.toHaveProperty('edge');
  });

  it('a stopped one is sent once after the upgrade, from its base, then completed and dropped', async () => {
    const server = fakeServer();
    const sessionId = openedBefore(server, 'já salvo');
    leftBehind(previous({ sessionId, base: 'já salvo'.length, text: ' e ainda não salvo', stopped: true }));

    await nextPageLoad();
    expect(server.saves().map((c) => c.body)).toEqual([
      { sessionId, offset: 'já salvo'.length, text: ' e ainda não salvo', segments: [{ text: 'e ainda não salvo', startMs: 5_000, endMs: 12_000, at: 'já salvo '.length }], duration: 12, language: 'pt-BR' },
    ]);
    expect(server.soleSession()).toMatchObject({ text: 'já salvo e ainda não salvo', completed: true, duration: 12 });
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();

    const calls = server.calls.length;
    await nextPageLoad();
    expect(server.calls).toHaveLength(calls);
  });

  it('an interrupted one gets its session by its key, its text leaves the device once the server has it, and the orphan rule completes it later', async () => {
    const server = fakeServer();
    leftBehind(previous({ sessionId: null, base: 0, text: 'dito offline', stopped: false }));

    const b = await nextPageLoad();
    expect(server.sessionIdCalls().map((c) => c.query.key)).toEqual(['previous-1']);
    expect(server.soleSession()).toMatchObject({ text: 'dito offline', completed: false });
    await advance(1_000);
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).not.toContain('dito offline');
    expect(readQueue()).toEqual([expect.objectContaining({ id: 'previous-1', base: 'dito offline'.length, length: 'dito offline'.length })]);

    leavePage(b);
    await advance(ORPHAN_TTL_MS);
    await nextPageLoad();
    expect(server.sessions.size).toBe(1);
    expect(server.soleSession()).toMatchObject({ text: 'dito offline', completed: true });
    expect(window.localStorage.getItem(AUTOSAVE_QUEUE_KEY)).toBeNull();
  });

  it('one of another user is neither sent nor lost: it goes in that user’s own session when they sign in', async () => {
    const server = fakeServer();
    leftBehind(previous({ userId: 'u2', sessionId: null, base: 0, text: 'texto de outra conta', stopped: true }));

    const a = await nextPageLoad('u1');
    a.start('pt-BR', transcript().id); // this page's own queue writes next to it
    await settle();
    expect(server.saves()).toHaveLength(0);
    expect(readQueue().find((e) => e.userId === 'u2')?.inline?.text).toBe('texto de outra conta');

    signInAs('u2');
    await nextPageLoad('u2');
    const theirs = server.calls.filter((c) => c.session === 'u2');
    expect(theirs.map((c) => c.route)).toEqual(['autosaveSessionId', 'autosaveSave', 'autosaveComplete']);
    expect([...server.sessions.values()].find((s) => s.completed)?.text).toBe('texto de outra conta');
    expect(server.calls.filter((c) => c.session === 'u1').map((c) => c.route)).toEqual(['autosaveSessionId']);
    expect(readQueue().map((e) => e.userId)).toEqual(['u1']);
  });

  it('one a page of the previous version still runs is left to it until that page stops writing', async () => {
    const server = fakeServer();
    leftBehind(previous({ sessionId: null, base: 0, text: 'de uma aba antiga', stopped: true, owner: 'old-page', touchedAt: Date.now() }));

    const b = await nextPageLoad();
    expect(server.calls).toHaveLength(0);
    await advance(STALE_OWNER_MS + AUTOSAVE_INTERVAL_MS);
    b.resumePending();
    await settle();
    expect(server.soleSession()).toMatchObject({ text: 'de uma aba antiga', completed: true });
  });
});
