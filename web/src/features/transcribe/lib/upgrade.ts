/**
 * Every Pro hint of the card opens the upgrade modal. The billing feature
 * listens for this window event (features do not import each other).
 */
export function requestUpgrade(): void {
  window.dispatchEvent(new CustomEvent('open-upgrade'));
}
