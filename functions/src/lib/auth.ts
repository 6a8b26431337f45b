import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { DEV_BYPASS_TTL_SECONDS, SESSION_COOKIE, TOKEN_RENEW_AFTER_SECONDS, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { isSessionRevoked } from '../db/revoked-sessions.ts';
import { getUser } from '../db/users.ts';
import { effectivePlan } from '../domain/plan.ts';
import { sessionExpiry, sessionWithinLifetime } from '../domain/sessions.ts';
import type { User } from '../domain/users.ts';
import { forbidden, unauthorized } from './errors.ts';
import { secret } from './secrets.ts';
import { sessionCookie } from './session-cookie.ts';

export const TOKEN_ISSUER = 'live-transcribe';
export const TOKEN_AUDIENCE = 'live-transcribe-web';
/** The maintenance bypass token's own audience: a session token is never a bypass token, nor the reverse. */
export const BYPASS_AUDIENCE = 'live-transcribe-dev-bypass';

async function key(): Promise<Uint8Array> {
  const value = await secret('tokenKey');
  if (!value) throw new Error('no token key: JWT_SECRET is unset');
  return new TextEncoder().encode(value);
}

/** What a session token says: the user, their tokenVersion, the session's id and when it signed in. */
export interface SessionClaims {
  user: Pick<User, 'id' | 'tokenVersion'>;
  /** The session's random id (the `sid` claim): a logout refuses it from then on (db/revoked-sessions.ts). */
  sid: string;
  /** When the session signed in, seconds since the epoch (the `auth_time` claim): renewals keep it. */
  authTime: number;
}

/** A new session's claims: a fresh id, signed in now. */
export const newSession = (user: Pick<User, 'id' | 'tokenVersion'>, now = nowSeconds()): SessionClaims => ({
  user,
  sid: randomBytes(16).toString('base64url'),
  authTime: now,
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * HS256 session token: sub = user id, tv = the user's tokenVersion, sid, auth_time. It expires
 * TOKEN_TTL_SECONDS after it is signed (the idle timeout), and never later than SESSION_MAX_SECONDS
 * after auth_time (the absolute lifetime). Bumping tokenVersion (password change or reset, sign
 * out everywhere) ends all of the user's sessions; a logout ends its own sid.
 */
export async function signToken(session: SessionClaims, now = nowSeconds()): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = sessionExpiry(session.authTime, now);
  const token = await new SignJWT({ tv: session.user.tokenVersion, sid: session.sid, auth_time: session.authTime })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(session.user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(await key());
  return { token, expiresAt };
}

/** A new session for a user who just signed in: the session cookie that carries it. */
export async function startSession(user: Pick<User, 'id' | 'tokenVersion'>): Promise<string> {
  const { token, expiresAt } = await signToken(newSession(user));
  return sessionCookie(token, expiresAt);
}

export interface Session {
  user: User;
  /** When the presented token was signed (seconds since the epoch). */
  issuedAt: number;
  sid: string;
  authTime: number;
}

const expired = () => unauthorized('Your session has expired. Sign in again.', 'session_expired');

/**
 * The session token of a request: a `Bearer` header (scripts calling the API choose it on each
 * call; no page of the site sends one, and no other site can make a browser send one), else the
 * session cookie (what browsers send). Undefined when neither is there.
 */
export function presentedToken(headers: Record<string, string | undefined>, cookies: Record<string, string>): string | undefined {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(headers.authorization?.trim() ?? '');
  return match?.[1] ?? (cookies[SESSION_COOKIE] || undefined);
}

/** The caller of a token: a valid token of a live session (not ended, not past either limit) whose tokenVersion matches the user. */
export async function authenticateSession(token: string | undefined, requirePro: boolean): Promise<Session> {
  if (!token) throw unauthorized();
  let claims: { sub: string; tv: unknown; sid: string; authTime: number; issuedAt: number };
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat', 'iss', 'aud', 'sid', 'auth_time'],
      // Also ends tokens signed with a longer life before it was shortened.
      maxTokenAge: TOKEN_TTL_SECONDS,
    });
    const { sid, auth_time: authTime } = payload;
    if (typeof sid !== 'string' || typeof authTime !== 'number') throw new Error('malformed session claims');
    claims = { sub: payload.sub!, tv: payload.tv, sid, authTime, issuedAt: payload.iat! };
  } catch {
    throw expired();
  }
  if (!sessionWithinLifetime(claims.authTime, claims.issuedAt, nowSeconds())) throw expired();
  const [user, revoked] = await Promise.all([getUser(claims.sub), isSessionRevoked(claims.sid)]);
  if (!user || revoked || user.tokenVersion !== claims.tv) throw expired();
  if (requirePro && effectivePlan(user) !== 'pro') {
    throw forbidden('Only Pro users can do this. Upgrade to Pro to continue.', { code: 'requires_pro', requiresPro: true });
  }
  return { user, issuedAt: claims.issuedAt, sid: claims.sid, authTime: claims.authTime };
}

/**
 * The user of a token of an earlier version (before sessions had an id and a sign-in time, kept
 * in device storage): valid, younger than TOKEN_TTL_SECONDS and of the user's tokenVersion. Only
 * the route that moves such a session into the cookie accepts one.
 */
export async function authenticateLegacyToken(token: string | undefined): Promise<User> {
  if (!token) throw unauthorized();
  let sub: string;
  let tv: unknown;
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat', 'iss', 'aud'],
      maxTokenAge: TOKEN_TTL_SECONDS,
    });
    // A current session token is not exchanged: its session is already in the cookie.
    if (payload.sid !== undefined || payload.auth_time !== undefined) throw new Error('not a legacy token');
    sub = payload.sub!;
    tv = payload.tv;
  } catch {
    throw expired();
  }
  const user = await getUser(sub);
  if (!user || user.tokenVersion !== tv) throw expired();
  return user;
}

/**
 * Sessions renew while used: a token signed more than TOKEN_RENEW_AFTER_SECONDS ago is replaced
 * by a fresh one of the same session (same sid and auth_time, so the absolute lifetime holds).
 */
export async function renewedToken(session: Session, now = nowSeconds()): Promise<{ token: string; expiresAt: number } | undefined> {
  if (now - session.issuedAt < TOKEN_RENEW_AFTER_SECONDS) return undefined;
  return signToken(session, now);
}

/** Binds a bypass token to the dev password it was earned with: setting a new password ends every bypass. */
const passwordTag = (devPasswordHash: string) => createHash('sha256').update(devPasswordHash).digest('base64url').slice(0, 16);

/** The maintenance bypass token, given for a correct dev password; it lives DEV_BYPASS_TTL_SECONDS. */
export async function signBypassToken(devPasswordHash: string): Promise<string> {
  return new SignJWT({ pw: passwordTag(devPasswordHash) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(BYPASS_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${DEV_BYPASS_TTL_SECONDS}s`)
    .sign(await key());
}

/** Whether `token` is an unexpired bypass token earned with the current dev password. */
export async function isValidBypassToken(token: string | undefined, devPasswordHash: string | undefined): Promise<boolean> {
  if (!token || !devPasswordHash || token.length > 2048) return false;
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: BYPASS_AUDIENCE,
      requiredClaims: ['exp', 'iss', 'aud'],
    });
    return payload.pw === passwordTag(devPasswordHash);
  } catch {
    return false;
  }
}
