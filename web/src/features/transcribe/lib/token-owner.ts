import { getToken } from '../../../lib/auth-token';

/**
 * Who the stored session token says the device is signed in as: its `sub` (the user id),
 * or null for a visitor (no token, or one that cannot be read). Device data (the recovery
 * copy, the autosave queue) is tagged with it, and a user's queued text is only ever sent
 * with that user's own token. The server still verifies the token; this only reads it.
 */
export function tokenOwner(token: string | null = getToken()): string | null {
  if (!token) return null;
  // Asked on every final result: the last token's answer is kept.
  if (last?.token !== token) last = { token, owner: ownerOf(token) };
  return last.owner;
}

let last: { token: string; owner: string | null } | undefined;

function ownerOf(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub: unknown = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' && sub ? sub : null;
  } catch {
    return null;
  }
}
