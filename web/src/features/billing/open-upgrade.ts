/**
 * Opening the upgrade modal from anywhere: dispatch this window event (the billing
 * shell in the app layout listens once). Other features dispatch it directly, so
 * they need not import this feature:
 *
 *   window.dispatchEvent(new CustomEvent('open-upgrade'));
 */
export const OPEN_UPGRADE_EVENT = 'open-upgrade';

export function openUpgrade(): void {
  window.dispatchEvent(new CustomEvent(OPEN_UPGRADE_EVENT));
}

/** The modal opening by itself, not at a user's request: it never shows once a transcription has started. */
export function openUpgradeAutomatically(): void {
  window.dispatchEvent(new CustomEvent(OPEN_UPGRADE_EVENT, { detail: { automatic: true } }));
}
