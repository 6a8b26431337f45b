import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { RecognitionEngine } from '../engine/recognition-engine';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import type { RecoveredTranscript, RecoveryStore } from './recovery';
import { TranscriptionController, type Notice } from './transcription-controller';
import { fakeAutosave } from '../autosave/testing/fake-autosave';

let clock = 0;
let notices: Notice[];
let calls: string[];
let updates: { text: string; segments: readonly Segment[]; durationSec: number; language: RecognitionLanguage }[];
let recoveryLog: string[];
let limit: number | null;
let owner: string | null;

function memoryRecovery(saved: RecoveredTranscript | null = null): RecoveryStore {
  return {
    begin: (meta) => recoveryLog.push(`begin:${meta.language}:${meta.userId}`),
    adopt: (r) => recoveryLog.push(`adopt:${r.segments.length}`),
    append: (s) => recoveryLog.push(`append:${s.text}`),
    setDuration: () => undefined,
    flush: async () => undefined,
    flushSync: (interim) => recoveryLog.push(`flushSync:${interim}`),
    pageShown: () => undefined,
    discard: () => recoveryLog.push('discard'),
    detach: () => recoveryLog.push('detach'),
    load: async (owner) => (saved?.meta.userId === owner ? saved : null),
  };
}

function makeController(options: { recovery?: RecoveryStore; language?: RecognitionLanguage } = {}) {
  const recovery = options.recovery ?? memoryRecovery();
  return new TranscriptionController({
    Recognition: FakeRecognition,
    loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: () => recovery }),
    loadAutosave: async (userId) => ({
      ...fakeAutosave(userId),
      start: (language) => calls.push(`start:${language}`),
      update: (snapshot) => {
        calls.push('update');
        updates.push({ ...snapshot, text: snapshot.text.slice(0) });
      },
      saveNow: () => calls.push('saveNow'),
      complete: () => calls.push('complete'),
    }),
    notify: (n) => notices.push(n),
    limitMs: () => limit,
    owner: () => owner,
    now: () => clock,
    language: options.language ?? 'en-US',
  });
}

async function tick(ms: number) {
  clock += ms;
  await vi.advanceTimersByTimeAsync(ms);
}

const rec = () => FakeRecognition.current;

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
  clock = 0;
  notices = [];
  calls = [];
  updates = [];
  recoveryLog = [];
  limit = null;
  // Signed in: the autosave runs (a visitor's transcript is never sent).
  owner = 'user-a';
});
afterEach(() => FakeRecognition.reset());

async function started(c: TranscriptionController) {
  c.start();
  await vi.advanceTimersByTimeAsync(0);
  expect(FakeRecognition.instances.length).toBeGreaterThan(0);
}

describe('TranscriptionController', () => {
  it('start: recording, autosave session, device copy (tagged with its user); finals reach the store, recovery and autosave', async () => {
    owner = 'user-a';
    const c = makeController();
    await started(c);
    expect(c.getSnapshot().status).toBe('recording');
    expect(calls).toEqual(['start:en-US']);
    expect(recoveryLog).toEqual(['begin:en-US:user-a']);
    await tick(1500);
    rec().interim('hel');
    expect(c.store.interim).toBe('hel');
    rec().final('hello');
    rec().final('world');
    expect(c.store.text).toBe('hello world');
    expect(recoveryLog).toEqual(['begin:en-US:user-a', 'append:hello', 'append:world']);
    // The same append-only array every time, growing: no copy per result.
    expect(updates).toHaveLength(2);
    expect(updates[0]!.segments).toBe(updates[1]!.segments);
    expect(updates[1]!).toMatchObject({ text: 'hello world', durationSec: 2, language: 'en-US' });
  });

  it('pause saves once after the last result; resume continues; stop completes after the last result', async () => {
    const c = makeController();
    await started(c);
    rec().interim('before pause');
    c.pause();
    expect(c.getSnapshot().status).toBe('paused');
    await vi.advanceTimersByTimeAsync(0);
    expect(c.store.text).toBe('before pause');
    expect(calls).toEqual(['start:en-US', 'update', 'saveNow']);
    c.resume();
    expect(c.getSnapshot().status).toBe('recording');
    expect(FakeRecognition.instances).toHaveLength(2);
    rec().interim('last words');
    const stopped = c.stop();
    expect(c.getSnapshot().status).toBe('stopped');
    await stopped;
    expect(c.store.text).toBe('before pause last words');
    expect(calls.slice(-2)).toEqual(['update', 'complete']);
  });

  it('clear empties text and timer, completes autosave and drops the device copy', async () => {
    const c = makeController();
    await started(c);
    await tick(3000);
    rec().final('something');
    c.clear();
    expect(c.getSnapshot().status).toBe('ready');
    expect(c.store.isEmpty).toBe(true);
    expect(c.elapsedMs()).toBe(0);
    expect(calls.at(-1)).toBe('complete');
    expect(recoveryLog.at(-1)).toBe('discard');
  });

  it('a new start completes the previous autosave session and clears the text', async () => {
    const c = makeController();
    await started(c);
    rec().final('old text');
    await c.stop();
    c.start();
    expect(c.store.isEmpty).toBe(true);
    expect(calls.filter((x) => x.startsWith('start')).length).toBe(2);
    expect(calls.filter((x) => x === 'complete').length).toBe(1);
  });

  it('stops a visitor at the limit, with the time-limit notice; pauses do not count', async () => {
    limit = 60_000;
    const c = makeController();
    await started(c);
    await tick(30_000);
    c.pause();
    await tick(100_000);
    c.resume();
    await tick(29_750);
    expect(c.getSnapshot().status).toBe('recording');
    await tick(500);
    expect(c.getSnapshot().status).toBe('stopped');
    expect(notices).toEqual([{ kind: 'time-limit' }]);
  });

  it('a fatal error stops with a notice; with no text it goes back to ready', async () => {
    const c = makeController();
    await started(c);
    rec().error('not-allowed');
    expect(notices).toEqual([{ kind: 'error', code: 'not-allowed' }]);
    expect(c.getSnapshot().status).toBe('ready');
    await started(c);
    rec().final('some text');
    rec().error('audio-capture');
    expect(c.getSnapshot().status).toBe('stopped');
    expect(calls.at(-1)).toBe('complete');
  });

  it('network: shows reconnecting, then pauses when retries run out; Resume continues', async () => {
    const c = makeController();
    await started(c);
    rec().final('kept');
    rec().error('network');
    rec().end();
    expect(c.getSnapshot().reconnecting).toEqual({ attempt: 1, max: 5 });
    for (const delay of [500, 1000, 2000, 4000, 8000]) {
      await tick(delay);
      rec().error('network');
      rec().end();
    }
    expect(c.getSnapshot().status).toBe('paused');
    expect(c.getSnapshot().reconnecting).toBeNull();
    expect(notices).toEqual([{ kind: 'error', code: 'network' }]);
    const before = FakeRecognition.instances.length;
    c.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances.length).toBe(before + 1);
    rec().final('back');
    // 15 s of retries on the session clock: more than the default paragraph silence (2 s).
    expect(c.store.text).toBe('kept\n\nback');
  });

  it('restores a transcript paused, continues its clock and opens a new autosave session on resume', async () => {
    const saved: RecoveredTranscript = {
      meta: { id: 'x', userId: 'user-a', language: 'pt-BR', startedAt: '2025-05-01T10:00:00.000Z', durationMs: 42_000 },
      segments: [
        { text: 'olá', startMs: 1000, endMs: 2000 },
        { text: 'mundo', startMs: 40_000, endMs: 42_000 },
      ],
    };
    const c = makeController({ recovery: memoryRecovery(saved) });
    window.localStorage.setItem('transcribe.recovery.active', '1');
    expect(await c.loadRecovery('user-b')).toBeNull();
    expect(await c.loadRecovery(null)).toBeNull();
    const found = await c.loadRecovery('user-a');
    expect(found).toEqual(saved);
    c.restore(found!);
    expect(c.getSnapshot()).toMatchObject({ status: 'paused', language: 'pt-BR', restored: true });
    expect(c.store.text).toBe('olá mundo');
    expect(c.elapsedMs()).toBe(42_000);
    expect(recoveryLog).toEqual(['adopt:2']);
    c.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['start:pt-BR', 'update']);
    expect(rec().lang).toBe('pt-BR');
    rec().interim('de');
    await tick(1000);
    rec().final('de novo');
    expect(c.store.segments.at(-1)).toEqual({ text: 'de novo', startMs: 42_000, endMs: 43_000 });
  });

  it('release (the signed-in user changed): the transcript leaves the card, listening stops, the device copy is kept for its owner', async () => {
    owner = 'user-a';
    const c = makeController();
    await started(c);
    const listening = rec();
    await tick(2000);
    listening.final('private words');
    owner = null;
    c.release();
    expect(c.getSnapshot()).toMatchObject({ status: 'ready', sessionLanguage: null, restored: false });
    expect(c.store.isEmpty).toBe(true);
    expect(c.elapsedMs()).toBe(0);
    expect(recoveryLog).toEqual(['begin:en-US:user-a', 'append:private words', 'detach']);
    expect(calls.at(-1)).toBe('complete');
    // A late result of the aborted recognition lands nowhere.
    listening.final('late');
    expect(c.store.isEmpty).toBe(true);
    expect(recoveryLog.at(-1)).toBe('detach');
    // The next transcription is the new owner's.
    await started(c);
    expect(recoveryLog.at(-1)).toBe('begin:en-US:null');
  });

  it('when the recovery code cannot load, loadRecovery rejects to its caller and start reports start-failed', async () => {
    window.localStorage.setItem('transcribe.recovery.active', '1');
    const c = new TranscriptionController({
      Recognition: FakeRecognition,
      loadRuntime: () => Promise.reject(new Error('chunk failed')),
      notify: (n) => notices.push(n),
      limitMs: () => null,
      owner: () => null,
      language: 'en-US',
    });
    await expect(c.loadRecovery(null)).rejects.toThrow('chunk failed');
    // Start then reports it as a notice and logs the cause; the card stays usable.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(notices).toEqual([{ kind: 'error', code: 'start-failed' }]);
    expect(logged).toHaveBeenCalledWith('[transcribe]', new Error('chunk failed'));
    expect(c.getSnapshot().status).toBe('ready');
  });

  it('a start that throws once its code has loaded reports start-failed and logs why, never an unhandled rejection', async () => {
    const recovery = memoryRecovery();
    const refused = new Error('device storage refused');
    recovery.begin = () => {
      throw refused;
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const c = makeController({ recovery });
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(notices).toEqual([{ kind: 'error', code: 'start-failed' }]);
    expect(logged).toHaveBeenCalledWith('[transcribe]', refused);
    expect(c.getSnapshot().status).toBe('ready');
    expect(FakeRecognition.instances).toHaveLength(0);
  });

  it('loads no recovery code when nothing was left to restore', async () => {
    const load = vi.fn(async () => ({ RecognitionEngine, createRecoveryStore: () => memoryRecovery() }));
    const c = new TranscriptionController({
      Recognition: FakeRecognition,
      loadRuntime: load,
      notify: () => undefined,
      limitMs: () => null,
      owner: () => null,
      language: 'en-US',
    });
    expect(await c.loadRecovery(null)).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('pagehide writes the interim text with the unwritten tail', async () => {
    const c = makeController();
    await started(c);
    rec().interim('half a sen');
    c.persistNow();
    expect(recoveryLog.at(-1)).toBe('flushSync:half a sen');
  });

  it('a pause before the engine has loaded never starts it', async () => {
    const c = makeController();
    c.start();
    c.pause();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances).toHaveLength(0);
    c.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances).toHaveLength(1);
  });

  it('language changes only between sessions; Chinese joins segments without spaces', async () => {
    const c = makeController();
    c.setLanguage('zh-CN');
    await started(c);
    c.setLanguage('es-ES');
    expect(c.getSnapshot().language).toBe('zh-CN');
    rec().final('你好');
    rec().final('世界');
    expect(c.store.text).toBe('你好世界');
  });
});
