import { SESSION_MAX_SECONDS, TOKEN_TTL_SECONDS } from '@app/shared/constants';

/**
 * The two limits of a session (docs/sessions.md), in seconds since the epoch. A token signed at
 * `now` expires TOKEN_TTL_SECONDS later (the idle timeout: a token is renewed while it is used),
 * but never after SESSION_MAX_SECONDS from the sign-in (the absolute lifetime).
 */
export const sessionExpiry = (authTime: number, now: number): number => Math.min(now + TOKEN_TTL_SECONDS, authTime + SESSION_MAX_SECONDS);

/**
 * Whether a token signed at `issuedAt` of a session that signed in at `authTime` may still be
 * used at `now` by the absolute lifetime (its own expiry, the idle timeout, is checked with its
 * signature). A sign-in time after the signing is no session of ours.
 */
export const sessionWithinLifetime = (authTime: number, issuedAt: number, now: number): boolean =>
  authTime <= issuedAt && now < authTime + SESSION_MAX_SECONDS;
