import { describe, expect, it } from 'vitest';
import type { Autosave } from '../autosave/use-autosave';
import { DeferredAutosave } from './deferred-autosave';

function recorder() {
  const calls: string[] = [];
  const target: Autosave = {
    start: (l) => calls.push(`start:${l}`),
    update: (s) => calls.push(`update:${s.text}`),
    saveNow: () => calls.push('saveNow'),
    complete: () => calls.push('complete'),
  };
  return { calls, target };
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
});
