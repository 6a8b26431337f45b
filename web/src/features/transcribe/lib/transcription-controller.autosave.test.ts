import { STORAGE_KEYS } from '@app/shared/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/render';
import type { AutosaveEngine } from '../autosave/autosave-engine';
import { forgetAutosave } from '../autosave/autosave-engine';
import { fakeAutosave } from '../autosave/testing/fake-autosave';
import { RecognitionEngine } from '../engine/recognition-engine';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import type { RecoveryStore } from './recovery';
import { TranscriptionController } from './transcription-controller';

/** The controller's one seam with the autosave: the engine it loads itself, for signed-in users only. */

const noRecovery: RecoveryStore = {
  begin() {},
  adopt() {},
  append() {},
  setDuration() {},
  flush: async () => undefined,
  flushSync() {},
  pageShown() {},
  discard() {},
  detach() {},
  load: async () => null,
};

/** An engine recording the calls it gets, and a load the test resolves when it wants. */
function autosaveOf(userId: string) {
  const calls: string[] = [];
  const engine = Object.assign(fakeAutosave(userId), {
    start: (language: string) => void calls.push(`start:${language}`),
    update: (s: Parameters<AutosaveEngine['update']>[0]) => void calls.push(`update:${s.text.slice(0)}`),
    saveNow: () => void calls.push('saveNow'),
    complete: () => void calls.push('complete'),
    setLive: (on: boolean) => void calls.push(`live:${on}`),
  });
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  const load = vi.fn(async () => {
    await ready;
    return engine;
  });
  return { calls, engine, load, loaded };
}

function controller(owner: () => string | null, loadAutosave?: (userId: string) => Promise<AutosaveEngine>) {
  return new TranscriptionController({
    Recognition: FakeRecognition,
    loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: () => noRecovery }),
    loadAutosave,
    notify: () => undefined,
    limitMs: () => null,
    owner,
    language: 'en-US',
  });
}

const rec = () => FakeRecognition.current;

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
});
afterEach(() => FakeRecognition.reset());

describe('the transcription controller and the autosave engine', () => {
  it('a session opened while the engine loads starts with the transcript so far once it has loaded, then the calls go straight to it', async () => {
    const a = autosaveOf('u1');
    const c = controller(() => 'u1', a.load);
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    rec().final('a');
    rec().final('b');
    c.pause();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls).toEqual([]);

    a.loaded();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls).toEqual(['start:en-US', 'update:a b', 'saveNow']);
    expect(a.load).toHaveBeenCalledTimes(1);
    c.resume();
    rec().final('c');
    await c.stop();
    expect(a.calls.slice(3)).toEqual(['update:a b c', 'complete']);
  });

  it('a session opened and closed while the engine loads is still sent, then completed', async () => {
    const a = autosaveOf('u1');
    const c = controller(() => 'u1', a.load);
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    rec().final('quick');
    await c.stop();
    a.loaded();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls).toEqual(['start:en-US', 'update:quick', 'complete']);
  });

  it('a visitor never loads the engine', async () => {
    const a = autosaveOf('u1');
    const c = controller(() => null, a.load);
    c.prefetch().catch(() => undefined);
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    rec().final('not for the server');
    c.setLive(true);
    await c.stop();
    c.resumeAutosave(null);
    a.loaded();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.load).not.toHaveBeenCalled();
    expect(a.calls).toEqual([]);
  });

  it('passes setLive on, tells the engine’s session id in its snapshot, and lets go of the engine when the signed-in user changes', async () => {
    let owner: string | null = 'u1';
    const a = autosaveOf('u1');
    const c = controller(() => owner, a.load);
    const seen: (string | null)[] = [];
    c.subscribe(() => seen.push(c.getSnapshot().sessionId));
    a.loaded();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    c.setLive(true);
    expect(a.calls).toEqual(['start:en-US', 'live:true']);
    a.engine.setSession('01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(c.getSnapshot().sessionId).toBe('01JAAAAAAAAAAAAAAAAAAAAAAA');
    a.engine.setSession(null);
    expect(seen).toContain('01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(seen.at(-1)).toBeNull();

    // Signed out: the engine is let go, and its changes no longer reach the card.
    a.engine.setSession('01JBBBBBBBBBBBBBBBBBBBBBBB');
    owner = null;
    c.release();
    expect(c.getSnapshot().sessionId).toBeNull();
    expect(a.engine.listeners.size).toBe(0);
  });

  it('sends what earlier pages left queued only when there is some: the engine loads for it, not otherwise', async () => {
    const a = autosaveOf('u1');
    const c = controller(() => 'u1', a.load);
    c.resumeAutosave('u1');
    expect(a.load).not.toHaveBeenCalled();
    window.localStorage.setItem('autosave_queue', '[]');
    const resumed = vi.spyOn(a.engine, 'resumePending');
    c.resumeAutosave('u1');
    a.loaded();
    await vi.advanceTimersByTimeAsync(0);
    expect(resumed).toHaveBeenCalledTimes(1);
  });
});

describe('the autosave of a signed-in user, end to end', () => {
  afterEach(() => forgetAutosave('hook-user'));

  it('drives the real engine: session id, the text said, completion on stop', async () => {
    vi.useRealTimers();
    // Signed in as that user.
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'hook-user');
    const calls = mockFetch((call) => {
      if (call.route === 'autosaveSessionId' && call.query.key) return json(200, { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
      if (call.route === 'autosaveSave') {
        const body = call.body as { offset: number; text: string };
        return json(200, { length: body.offset + body.text.length });
      }
      return json(200, { ok: true });
    });
    const c = controller(() => 'hook-user');
    c.start();
    await vi.waitFor(() => expect(calls.some((call) => call.route === 'autosaveSessionId')).toBe(true));
    expect(c.getSnapshot().sessionId).toBe('01JAAAAAAAAAAAAAAAAAAAAAAA');
    rec().final('hello world');
    await c.stop();
    await vi.waitFor(() => expect(calls.some((call) => call.route === 'autosaveComplete')).toBe(true));
    expect(calls.find((call) => call.route === 'autosaveSave')?.body).toMatchObject({ offset: 0, text: 'hello world', language: 'en-US' });
    expect(calls.every((call) => call.signedInAs === 'hook-user')).toBe(true);
  });
});
