import { describe, expect, it } from 'vitest';
import type { Autosave } from '../autosave/use-autosave';
import { DeferredAutosave } from './deferred-autosave';

function recorder() {
  const calls: string[] = [];
  const listeners = new Set<() => void>();
  let sessionId: string | null = null;
  const target: Autosave = {
    start: (l) => calls.push(`start:${l}`),
    update: (s) => calls.push(`update:${s.text}`),
    saveNow: () => calls.push('saveNow'),
    complete: () => calls.push('complete'),
    setLive: (on) => calls.push(`live:${on}`),
    sessionId: () => sessionId,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  /** The target's session gets an id (or ends) and says so. */
  const setSession = (id: string | null) => {
    sessionId = id;
    for (const listener of listeners) listener();
  };
  return { calls, target, setSession, listeners };
}

const snap = (text: string) => ({ text, segments: [], durationSec: 1, language: 'en-US' as const });

describe('DeferredAutosave', () => {
  it('keeps calls made before the autosave code loads and replays them in order (latest update only)', () => {
    const deferred = new DeferredAutosave();
    deferred.start('pt-BR');
    deferred.update(snap('a'));
    deferred.update(snap('a b'));
    deferred.saveNow();
    deferred.update(snap('a b c'));
    const { calls, target } = recorder();
    deferred.attach(target);
    expect(calls).toEqual(['start:pt-BR', 'update:a b', 'saveNow', 'update:a b c']);
    deferred.complete();
    expect(calls.at(-1)).toBe('complete');
  });

  it('drops everything for a visitor', () => {
    const deferred = new DeferredAutosave();
    deferred.start('en-US');
    deferred.setWanted(false);
    deferred.update(snap('x'));
    const { calls, target } = recorder();
    deferred.attach(target);
    expect(calls).toEqual([]);
  });

  it('replays setLive like the other calls, and passes on the attached session id and its changes', () => {
    const deferred = new DeferredAutosave();
    const seen: (string | null)[] = [];
    deferred.subscribe(() => seen.push(deferred.sessionId()));
    deferred.setLive(true);
    expect(deferred.sessionId()).toBeNull();
    const { calls, target, setSession, listeners } = recorder();
    deferred.attach(target);
    expect(calls).toEqual(['live:true']);
    setSession('01JAAAAAAAAAAAAAAAAAAAAAAA');
    setSession(null);
    expect(seen).toEqual([null, '01JAAAAAAAAAAAAAAAAAAAAAAA', null]);
    // Signed out: the target is let go, and its changes no longer reach the card.
    setSession('01JBBBBBBBBBBBBBBBBBBBBBBB');
    deferred.setWanted(false);
    expect(deferred.sessionId()).toBeNull();
    expect(listeners.size).toBe(0);
  });
});
