import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from './storage';

/** The session token lives in device storage under STORAGE_KEYS.token. */
export const getToken = (): string | null => readStorage(STORAGE_KEYS.token);
export const setToken = (token: string): void => writeStorage(STORAGE_KEYS.token, token);
export const clearToken = (): void => writeStorage(STORAGE_KEYS.token, null);

type Listener = () => void;
const sessionEndListeners = new Set<Listener>();

/** Called when the server refuses the stored token: the token is dropped and listeners run. */
export function endSessionFromServer(): void {
  clearToken();
  for (const listener of sessionEndListeners) listener();
}

export function onSessionEnd(listener: Listener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}
