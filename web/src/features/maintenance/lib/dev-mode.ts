import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * Developer mode: a device flag (STORAGE_KEYS.devMode), set after a correct dev password,
 * that lets this browser past maintenance mode. Other tabs follow through storage events.
 * The bypass token earned with the password (STORAGE_KEYS.devBypass) goes with it: the API
 * client sends it so the API accepts this browser's writes during maintenance.
 */
const listeners = new Set<() => void>();

export const isDevMode = (): boolean => readStorage(STORAGE_KEYS.devMode) === 'true';

export function setDevBypassToken(token: string): void {
  writeStorage(STORAGE_KEYS.devBypass, token);
}

/** Turning dev mode off also drops the bypass token. */
export function setDevMode(on: boolean): void {
  writeStorage(STORAGE_KEYS.devMode, on ? 'true' : null);
  if (!on) writeStorage(STORAGE_KEYS.devBypass, null);
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
