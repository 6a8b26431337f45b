import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * Developer mode: a device flag (STORAGE_KEYS.devMode), set after a correct dev password,
 * that lets this browser past maintenance mode. Other tabs follow through storage events.
 */
const listeners = new Set<() => void>();

export const isDevMode = (): boolean => readStorage(STORAGE_KEYS.devMode) === 'true';

export function setDevMode(on: boolean): void {
  writeStorage(STORAGE_KEYS.devMode, on ? 'true' : null);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.devMode || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useDevMode(): boolean {
  return useSyncExternalStore(subscribe, isDevMode, () => false);
}
