import { request } from '../../../lib/api';
import { isDevMode } from './dev-mode';

/** How long the maintenance check may take before the site is treated as open. */
export const MAINTENANCE_CHECK_TIMEOUT_MS = 5_000;

/** Whether the site is in maintenance mode (asked anonymously, never from a cache). Any failure (network, status, body, timeout) means no. */
export async function fetchMaintenanceMode(): Promise<boolean> {
  try {
    const { status, data } = await request('maintenanceMode', { asUser: null, cache: 'no-store', signal: AbortSignal.timeout(MAINTENANCE_CHECK_TIMEOUT_MS) });
    // The API names the flag `constructionMode`.
    return status === 200 && (data as { constructionMode?: unknown } | undefined)?.constructionMode === true;
  } catch {
    return false;
  }
}

let initial: Promise<boolean> | undefined;

/**
 * The first maintenance check of this page view. main.tsx starts it before React renders,
 * in parallel with the page chunk and the locale, so the gate rarely waits for it.
 * In developer mode there is nothing to check.
 */
export function initialMaintenanceCheck(): Promise<boolean> {
  initial ??= isDevMode() ? Promise.resolve(false) : fetchMaintenanceMode();
  return initial;
}

/** The longest the first reveal of the app waits for the page chunk (then its loader shows). */
export const OPEN_APP_WAIT_MS = 3_000;
let pageChunk: Promise<unknown> = Promise.resolve();

/** The first reveal of the app waits for this (the page chunk of the URL, started in main.tsx). */
export function openAppAfter(ready: Promise<unknown>): void {
  pageChunk = ready.catch(() => undefined);
}

export function initialPageReady(): Promise<unknown> {
  return Promise.race([pageChunk, new Promise((resolve) => setTimeout(resolve, OPEN_APP_WAIT_MS))]);
}

/** Tests: forget the first check. */
export function resetInitialMaintenanceCheck(): void {
  initial = undefined;
  pageChunk = Promise.resolve();
}
