import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { readStorage, writeStorage } from '../../../lib/storage';
import { isUnmeasuredPath } from './measured-url';

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
 * The visitor accepts the cookie notice: remembered, then measured. Resolves to whether a
 * record was sent.
 */
export function acceptCookies(): Promise<boolean> {
  writeStorage(STORAGE_KEYS.cookiesAccepted, 'true');
  for (const listener of listeners) listener();
  return measure();
}

/**
 * With consent, loads the measurement code, then the configured scripts load and today's visit
 * is recorded. Resolves to whether a record was sent (false without consent, or if the code
 * could not load: analytics never get in the user's way).
 */
export function measure(): Promise<boolean> {
  if (!hasConsent() || isUnmeasuredPath(window.location.pathname)) return Promise.resolve(false);
  measuring = true;
  return import('./analytics').then(
    (analytics) => analytics.measure(),
    () => false,
  );
}

/** Whether measure() ran on this page load (its code is loading or loaded). */
let measuring = false;

/** The app moved to another page: measurement, if it runs, follows (measured-url.ts). */
export function pageChanged(): void {
  if (measuring) void import('./analytics').then((analytics) => analytics.pageChanged(), () => undefined);
}
