import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from '../../../lib/storage';

/*
 * Cookie consent. Nothing is measured before consent: the measurement code (analytics.ts)
 * loads once the cookie notice is accepted, or on a later visit that has consent.
 */
const listeners = new Set<() => void>();

export const hasConsent = (): boolean => readStorage(STORAGE_KEYS.cookiesAccepted) === 'true';

export function useConsent(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasConsent,
    () => false,
  );
}

/**
 * The visitor accepts the cookie notice: remembered, then the visit is recorded and the
 * configured scripts load. Resolves to whether a record was sent (false if the code could not load).
 */
export function acceptCookies(): Promise<boolean> {
  writeStorage(STORAGE_KEYS.cookiesAccepted, 'true');
  for (const listener of listeners) listener();
  return import('./analytics').then(
    (analytics) => analytics.measure(),
    () => false,
  );
}
