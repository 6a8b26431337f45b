import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from './storage';

/**
 * The session itself is the API's HttpOnly session cookie, which no page script can read. The
 * page keeps only who it belongs to (STORAGE_KEYS.sessionUser, a user id, never a credential):
 * whether to ask the server for the user at startup, whose device data is whose, and other
 * tabs' sign-ins and sign-outs (storage events).
 */
export const getSessionUser = (): string | null => readStorage(STORAGE_KEYS.sessionUser);
export const setSessionUser = (userId: string): void => writeStorage(STORAGE_KEYS.sessionUser, userId);
export const clearSessionUser = (): void => writeStorage(STORAGE_KEYS.sessionUser, null);

/** The session token an earlier version kept in device storage, until it is moved into the cookie (lib/auth.ts). */
export const getLegacyToken = (): string | null => readStorage(STORAGE_KEYS.legacyToken);
export const clearLegacyToken = (): void => writeStorage(STORAGE_KEYS.legacyToken, null);

type Listener = () => void;
const sessionEndListeners = new Set<Listener>();

/** Called when the server refuses the session: the device forgets it and listeners run. */
export function endSessionFromServer(): void {
  clearSessionUser();
  for (const listener of sessionEndListeners) listener();
}

export function onSessionEnd(listener: Listener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}
