/**
 * The password-reset link carries its token in the fragment (`/reset-password#<token>`;
 * links sent before used the path, `/reset-password/<token>`). The token never stays in the
 * address: it is moved into memory before the app or any third-party script starts, so no
 * analytics, session recording or Referer ever sees it. The reset page sends no referrer.
 */
export const RESET_PATH = '/reset-password';

let held: string | undefined;

/** The token in an address of the reset page, or undefined. */
export function resetTokenInUrl(pathname: string, hash: string): string | undefined {
  if (pathname === RESET_PATH || pathname === `${RESET_PATH}/`) return hash.length > 1 ? hash.slice(1) : undefined;
  if (!pathname.startsWith(`${RESET_PATH}/`)) return undefined;
  try {
    return decodeURIComponent(pathname.slice(RESET_PATH.length + 1));
  } catch {
    return '';
  }
}

export function holdResetToken(token: string): void {
  held = token;
}

/** The token taken from the link, until the reset succeeds. */
export function heldResetToken(): string | undefined {
  return held;
}

export function forgetResetToken(): void {
  held = undefined;
}

/** Asks the browser to send no Referer from this page; returns the undo. */
export function sendNoReferrer(): () => void {
  const existing = document.head.querySelector<HTMLMetaElement>('meta[name="referrer"][data-reset-page]');
  if (existing) return () => existing.remove();
  const meta = document.createElement('meta');
  meta.name = 'referrer';
  meta.content = 'no-referrer';
  meta.dataset.resetPage = '';
  document.head.prepend(meta);
  return () => meta.remove();
}

/** At start-up, before anything else runs: moves a reset token from the address into memory. */
export function moveResetTokenOutOfUrl(): void {
  const token = resetTokenInUrl(window.location.pathname, window.location.hash);
  if (token === undefined) return;
  holdResetToken(token);
  sendNoReferrer();
  window.history.replaceState(window.history.state, '', RESET_PATH);
}
