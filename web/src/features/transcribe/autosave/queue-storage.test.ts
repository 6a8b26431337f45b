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
  tokenOf,
  transcript,
  setUpAutosaveTests,
} from './autosave-test-kit';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';
import { readQueue, STALE_OWNER_MS, wipeQueue, type QueueEntry } from './queue-storage';

setUpAutosaveTests();

const entry = (id: string, userId: string): QueueEntry => ({
  id, userId, sessionId: null, language: 'pt-BR', durationSec: 0, base: 0, text: id, segments: [], edge: id,
  sentDurationSec: 0, sentLanguage: null, stopped: false, owner: null, touchedAt: 0, changedAt: 0,
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
    expect(queued).toMatchObject({ base: 0, text: t.text, userId: 'u1' });

    browser.back();
    await settle();
    expect(server.soleSession().text).toBe(t.text);
    await advance(1_000); // device storage is written at most once a second
    expect(readQueue()[0]).toMatchObject({ base: t.text.length, text: '' });
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
    expect(readQueue()[0]).toMatchObject({ base: 'antes do corte'.length, text: ' depois do corte', stopped: true, owner: null });

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
    b.start('pt-BR');
    b.update({ ...t.say('depois'), text: t.text });
    b.saveNow();
    b.complete();
    await settle();
    expect(server.sessionIdCalls()).toHaveLength(1);
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
    a.start('pt-BR');
    a.dispose();
    await settle();
    server.calls.length = 0;
    await nextPageLoad('u1');
    expect(server.calls).toHaveLength(0);
    expect(readQueue()).toHaveLength(1);
  });
});

describe('autosave queue belongs to its user', () => {
  it('user A’s queued text is never sent with user B’s token; it goes up with A’s once A signs in again', async () => {
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
    signOut();
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
    expect(readQueue()).toEqual([expect.objectContaining({ userId: 'u1', base: 0, text: t.text, owner: null })]);
  });
});
