/**
 * Opening the upgrade modal from anywhere: this window event, which the billing shell in the
 * app layout listens for. Any feature can ask for the modal without importing billing.
 */
export const OPEN_UPGRADE_EVENT = 'open-upgrade';

export function openUpgrade(): void {
  window.dispatchEvent(new CustomEvent(OPEN_UPGRADE_EVENT));
}

/** The modal opening by itself, not at a user's request: it never shows once a transcription has started. */
export function openUpgradeAutomatically(): void {
  window.dispatchEvent(new CustomEvent(OPEN_UPGRADE_EVENT, { detail: { automatic: true } }));
}
