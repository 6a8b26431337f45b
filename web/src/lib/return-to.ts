/**
 * "Log in, then come back here": a page that sends a visitor to /login passes where they were in
 * the navigation state; the login page returns there. Only in-app paths are followed.
 */
export interface ReturnState {
  from?: string;
}

export const returnState = (location: { pathname: string; search: string }): ReturnState => ({ from: `${location.pathname}${location.search}` });

/** Where to go after logging in: the page the visitor came from, or home. */
export function returnPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as ReturnState).from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  const path = from.split('?')[0]!;
  // Never back to an auth page (a loop) or the password-reset link.
  if (['/login', '/register', '/forgot-password'].includes(path) || path.startsWith('/reset-password')) return '/';
  return from;
}
