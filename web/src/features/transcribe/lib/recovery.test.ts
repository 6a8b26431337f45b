import { describe, expect, it, vi } from 'vitest';
import { createRecoveryStore } from './recovery';
import { hasRecoveryMarker } from './recovery-marker';

/* jsdom has no IndexedDB: this is the localStorage store (Chromium's IndexedDB path runs in the e2e reload test). */
describe('recovery (device storage)', () => {
  const meta = { id: 't1', language: 'es-ES' as const, startedAt: '2025-05-01T10:00:00.000Z' };

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
    expect(await next.load()).toEqual({
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
    expect(await createRecoveryStore().load()).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await createRecoveryStore().load())?.segments.map((s) => s.text)).toEqual(['uno']);
  });

  it('discard (saved, cleared) leaves nothing to restore; corrupt data is ignored', async () => {
    const store = createRecoveryStore();
    store.begin(meta);
    store.append({ text: 'uno', startMs: 0, endMs: 500 });
    store.discard();
    expect(hasRecoveryMarker()).toBe(false);
    expect(await createRecoveryStore().load()).toBeNull();
    window.localStorage.setItem('transcribe.recovery', '{"meta":{"id":1}}');
    expect(await createRecoveryStore().load()).toBeNull();
  });
});
