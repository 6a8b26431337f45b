/*
 * What measurement may see of an address. A live link's code lets anyone read someone's speech
 * and a reset link's token takes over an account: neither page is measured at all, and no
 * address reaches a third party with a code, a token, a query (a checkout id) or a fragment.
 */

/**
 * Pages nothing measures: a live captions page (its code is in the address, its text is someone's
 * speech), a password reset and an email verification link (their tokens are).
 */
export const isUnmeasuredPath = (pathname: string): boolean => /^\/(live|reset-password|verify-email)(\/|$)/.test(pathname);

/** The address as measurement may record it: secrets in the path replaced by a placeholder, no query or fragment. */
export function measuredUrl(href: string): string {
  const url = new URL(href);
  const path = url.pathname.replace(/^\/live\/[^/]+/, '/live/:code').replace(/^\/reset-password\/[^/]+/, '/reset-password/:token');
  return `${url.origin}${path}`;
}
