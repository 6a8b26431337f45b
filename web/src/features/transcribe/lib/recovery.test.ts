import { describe, expect, it, vi } from 'vitest';
import { createRecoveryStore, forgetRecovery, readTranscript, releaseTranscript } from './recovery';
import { hasRecoveryMarker } from './recovery-marker';

/** requestIdleCallback under the test's control: `run()` is the browser becoming idle. */
function idleTime() {
  const callbacks = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => {
    callbacks.set(next, cb);
    return next++;
  });
  vi.stubGlobal('cancelIdleCallback', (id: number) => callbacks.delete(id));
  return {
    waiting: () => callbacks.size,
    run: () => {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const cb of due) cb();
    },
  };
}

/* jsdom has no IndexedDB: this is the localStorage store (Chromium's IndexedDB path runs in the e2e reload test). */
describe('recovery (device storage)', () => {
  const meta = { id: 't1', userId: null, language: 'es-ES' as const, startedAt: '2025-05-01T10:00:00.000Z' };

  it('keeps segments and, at pagehide, the interim text; a new page gets them back', async () => {
    vi.useFakeTimers();
    const store = createRecoveryStore();
    store.begin(meta);
    expect(hasRecoveryMarker()).toBe(true);
    store.append({ text: 'hola', startMs: 100, endMs: 900 });
    store.append({ text: 'mundo', startMs: 1000, endMs: 1800 });
    store.setDuration(2500);
    store.flushSync('y más');
    const next = createRecoveryStore();
    expect(await next.load(null)).toEqual({
      meta: { ...meta, durationMs: 2500 },
      segments: [
        { text: 'hola', startMs: 100, endMs: 900 },
        { text: 'mundo', startMs: 1000, endMs: 1800 },
        { text: 'y más', startMs: 1800, endMs: 2500 },
      ],
    });
  });

  it('writes appended segments within a second, without pagehide', async () => {
    vi.useFakeTimers();
    const store = createRecoveryStore();
    store.begin(meta);
    store.append({ text: 'uno', startMs: 0, endMs: 500 });
    expect(await createRecoveryStore().load(null)).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await createRecoveryStore().load(null))?.segments.map((s) => s.text)).toEqual(['uno']);
  });

  it('results only queue: device storage is written once per batch, in idle time, never on the result path', async () => {
    vi.useFakeTimers();
    const idle = idleTime();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    try {
      const store = createRecoveryStore();
      store.begin(meta);
      setItem.mockClear();
      for (let i = 0; i < 30; i++) store.append({ text: `w${i}`, startMs: i * 100, endMs: i * 100 + 90 });
      expect(setItem).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1000);
      // Due, but waiting for idle time.
      expect(setItem).not.toHaveBeenCalled();
      expect(idle.waiting()).toBe(1);
      idle.run();
      expect(setItem).toHaveBeenCalledTimes(1);
      expect((await createRecoveryStore().load(null))?.segments).toHaveLength(30);
    } finally {
      setItem.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it('nothing lost: a page that goes away before the batched write keeps every segment and the interim text', async () => {
    vi.useFakeTimers();
    const idle = idleTime();
    try {
      const store = createRecoveryStore();
      store.begin(meta);
      store.append({ text: 'primero', startMs: 0, endMs: 500 });
      await vi.advanceTimersByTimeAsync(1000);
      idle.run();
      // These two wait for the next batch when the page goes away.
      store.append({ text: 'segundo', startMs: 600, endMs: 900 });
      store.append({ text: 'tercero', startMs: 1000, endMs: 1400 });
      await vi.advanceTimersByTimeAsync(1000);
      expect(idle.waiting()).toBe(1);
      store.flushSync('y el resto');
      expect((await createRecoveryStore().load(null))?.segments.map((s) => s.text)).toEqual(['primero', 'segundo', 'tercero', 'y el resto']);
      // The synchronous write replaced the one waiting for idle time.
      expect(idle.waiting()).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('discard (saved, cleared) leaves nothing to restore; corrupt data is ignored', async () => {
    const store = createRecoveryStore();
    store.begin(meta);
    store.append({ text: 'uno', startMs: 0, endMs: 500 });
    store.discard();
    expect(hasRecoveryMarker()).toBe(false);
    expect(await createRecoveryStore().load(null)).toBeNull();
    window.localStorage.setItem('transcribe.recovery', '{"meta":{"id":1}}');
    expect(await createRecoveryStore().load(null)).toBeNull();
  });
});

describe('recovery belongs to who recorded it', () => {
  const recordAs = (userId: string | null, text: string) => {
    const store = createRecoveryStore();
    store.begin({ id: `t-${text}`, userId, language: 'en-US', startedAt: '2025-05-01T10:00:00.000Z' });
    store.append({ text, startMs: 0, endMs: 500 });
    store.flushSync('');
    return store;
  };
  const textFor = async (owner: string | null) => (await createRecoveryStore().load(owner))?.segments.map((s) => s.text) ?? null;

  it('user A’s transcript is offered to A only: never to user B, never to a visitor', async () => {
    recordAs('user-a', 'secret of A');
    expect(await textFor('user-a')).toEqual(['secret of A']);
    expect(await textFor('user-b')).toBeNull();
    expect(await textFor(null)).toBeNull();
  });

  it('a visitor’s transcript is offered to visitors, not to a signed-in user', async () => {
    recordAs(null, 'visitor words');
    expect(await textFor(null)).toEqual(['visitor words']);
    expect(await textFor('user-a')).toBeNull();
  });

  it('a copy written before transcripts were tagged (no owner) is offered to no one', async () => {
    window.localStorage.setItem(
      'transcribe.recovery',
      JSON.stringify({ meta: { id: 'old', language: 'en-US', startedAt: '2025-05-01T10:00:00.000Z', durationMs: 500 }, from: 0, segments: [{ text: 'old', startMs: 0, endMs: 500 }], interim: '' }),
    );
    expect(await textFor(null)).toBeNull();
    expect(await textFor('user-a')).toBeNull();
  });

  it('logout (forgetRecovery) stops a store still recording for that user and removes the copy', async () => {
    vi.useFakeTimers();
    const store = recordAs('user-a', 'first');
    await forgetRecovery('user-a');
    expect(hasRecoveryMarker()).toBe(false);
    expect(window.localStorage.getItem('transcribe.recovery')).toBeNull();
    // Late results of the session being recorded write nothing back.
    store.append({ text: 'late', startMs: 500, endMs: 900 });
    store.setDuration(2000);
    await vi.advanceTimersByTimeAsync(2000);
    store.flushSync('interim');
    expect(window.localStorage.getItem('transcribe.recovery')).toBeNull();
    expect(await textFor('user-a')).toBeNull();
  });

  it('logout of one user leaves a copy recorded by someone else (a visitor, another account)', async () => {
    recordAs(null, 'visitor words');
    await forgetRecovery('user-a');
    expect(await textFor(null)).toEqual(['visitor words']);
    recordAs('user-b', 'words of B');
    await forgetRecovery('user-a');
    expect(await textFor('user-b')).toEqual(['words of B']);
  });

  it('detach (the signed-in user changed): what was pending is kept for its owner; nothing more is written', async () => {
    vi.useFakeTimers();
    const store = recordAs('user-a', 'one');
    store.append({ text: 'two', startMs: 500, endMs: 900 });
    store.detach();
    store.append({ text: 'three', startMs: 900, endMs: 1200 });
    await vi.advanceTimersByTimeAsync(2000);
    store.flushSync('four');
    store.pageShown();
    expect(await textFor('user-a')).toEqual(['one', 'two']);
  });

  it('detach after a logout in another tab removed the copy writes nothing back', async () => {
    vi.useFakeTimers();
    const store = recordAs('user-a', 'one');
    store.append({ text: 'two', startMs: 500, endMs: 900 });
    // The other tab's logout: the copy and its marker are gone.
    window.localStorage.removeItem('transcribe.recovery');
    window.localStorage.removeItem('transcribe.recovery.active');
    store.detach();
    await vi.advanceTimersByTimeAsync(2000);
    expect(window.localStorage.getItem('transcribe.recovery')).toBeNull();
    expect(await textFor('user-a')).toBeNull();
  });
});

describe('the device copy the autosave queue reads', () => {
  const meta = (id: string) => ({ id, userId: 'u1', language: 'pt-BR' as const, startedAt: '2025-05-01T10:00:00.000Z' });
  /** The autosave queue says it still reads `transcript` (text of it the server lacks). */
  const queued = (transcript: string) =>
    window.localStorage.setItem(
      'autosave_queue',
      JSON.stringify([{ id: 'e1', userId: 'u1', sessionId: null, transcript, language: 'pt-BR', durationSec: 1, base: 0, length: 9, sentDurationSec: 0, sentLanguage: null, stopped: true, recording: false, owner: null, touchedAt: 0, changedAt: 0 }]),
    );

  it('gives the final segments without the interim text, whether the transcript is offered or not', async () => {
    const store = createRecoveryStore();
    store.begin(meta('r1'));
    store.append({ text: 'uno', startMs: 0, endMs: 500 });
    store.append({ text: 'dos', startMs: 500, endMs: 900 });
    store.flushSync('y tres');
    expect((await readTranscript('r1'))?.segments.map((s) => s.text)).toEqual(['uno', 'dos']);
    expect(await readTranscript('other')).toBeNull();
  });

  it('a transcript the queue still reads stays when another begins or the prompt is declined, unoffered; released, it goes', async () => {
    const store = createRecoveryStore();
    store.begin(meta('q1'));
    store.append({ text: 'unsent', startMs: 0, endMs: 500 });
    queued('q1');
    store.begin(meta('q2'));
    store.discard();
    expect(await createRecoveryStore().load('u1')).toBeNull();
    expect((await readTranscript('q1'))?.segments.map((s) => s.text)).toEqual(['unsent']);

    // Still read by the queue: kept.
    await releaseTranscript('q1');
    expect(await readTranscript('q1')).not.toBeNull();
    window.localStorage.removeItem('autosave_queue');
    await releaseTranscript('q1');
    expect(await readTranscript('q1')).toBeNull();
    expect(window.localStorage.getItem('transcribe.recovery')).toBeNull();
  });

  it('without the queue, a new transcription or a discard leaves nothing of the one before', async () => {
    const store = createRecoveryStore();
    store.begin(meta('w1'));
    store.append({ text: 'gone', startMs: 0, endMs: 500 });
    store.begin(meta('w2'));
    expect(await readTranscript('w1')).toBeNull();
    store.discard();
    expect(window.localStorage.getItem('transcribe.recovery')).toBeNull();
  });

  it('an offered transcript is not released', async () => {
    const store = createRecoveryStore();
    store.begin(meta('o1'));
    store.append({ text: 'offered', startMs: 0, endMs: 500 });
    store.flushSync('');
    store.detach();
    await releaseTranscript('o1');
    expect((await createRecoveryStore().load('u1'))?.segments.map((s) => s.text)).toEqual(['offered']);
  });

  it('logout removes every transcript of that user, offered or kept for the queue, and no one else’s', async () => {
    const store = createRecoveryStore();
    store.begin(meta('l1'));
    store.append({ text: 'kept for the queue', startMs: 0, endMs: 500 });
    queued('l1');
    store.begin({ ...meta('l2'), userId: 'u2' });
    store.append({ text: 'of another user', startMs: 0, endMs: 500 });
    store.flushSync('');
    await forgetRecovery('u1');
    expect(await readTranscript('l1')).toBeNull();
    expect((await createRecoveryStore().load('u2'))?.segments.map((s) => s.text)).toEqual(['of another user']);
  });
});
