import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { DEV_BYPASS_TTL_SECONDS, TOKEN_RENEW_AFTER_SECONDS, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { getUser } from '../db/users.ts';
import { effectivePlan } from '../domain/plan.ts';
import type { User } from '../domain/users.ts';
import { forbidden, unauthorized } from './errors.ts';
import { secret } from './secrets.ts';

export const TOKEN_ISSUER = 'live-transcribe';
export const TOKEN_AUDIENCE = 'live-transcribe-web';
/** The maintenance bypass token's own audience: a session token is never a bypass token, nor the reverse. */
export const BYPASS_AUDIENCE = 'live-transcribe-dev-bypass';

async function key(): Promise<Uint8Array> {
  const value = await secret('tokenKey');
  if (!value) throw new Error('no token key: JWT_SECRET is unset');
  return new TextEncoder().encode(value);
}

/**
 * HS256 session token: sub = user id, tv = the user's tokenVersion. It lives at most
 * TOKEN_TTL_SECONDS; bumping tokenVersion (password reset, logout) ends all of the user's tokens.
 */
export async function signToken(user: Pick<User, 'id' | 'tokenVersion'>): Promise<string> {
  return new SignJWT({ tv: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
    .sign(await key());
}

export interface Session {
  user: User;
  /** When the presented token was signed (seconds since the epoch). */
  issuedAt: number;
}

const expired = () => unauthorized('Your session has expired. Sign in again.', 'session_expired');

/** The caller from a `Bearer` header: a valid token whose tokenVersion matches the user. */
export async function authenticateSession(header: string | undefined, requirePro: boolean): Promise<Session> {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header?.trim() ?? '');
  if (!match) throw unauthorized();
  let sub: string;
  let tv: unknown;
  let issuedAt: number;
  try {
    const { payload } = await jwtVerify(match[1]!, await key(), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat', 'iss', 'aud'],
      // Also ends tokens signed with a longer life before it was shortened.
      maxTokenAge: TOKEN_TTL_SECONDS,
    });
    sub = payload.sub!;
    tv = payload.tv;
    issuedAt = payload.iat!;
  } catch {
    throw expired();
  }
  const user = await getUser(sub);
  if (!user || user.tokenVersion !== tv) throw expired();
  if (requirePro && effectivePlan(user) !== 'pro') {
    throw forbidden('Only Pro users can do this. Upgrade to Pro to continue.', { code: 'requires_pro', requiresPro: true });
  }
  return { user, issuedAt };
}

export async function authenticate(header: string | undefined, requirePro: boolean): Promise<User> {
  return (await authenticateSession(header, requirePro)).user;
}

/** Sessions renew while used: a token signed more than TOKEN_RENEW_AFTER_SECONDS ago is replaced by a fresh one. */
export async function renewedToken(session: Session, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string | undefined> {
  if (nowSeconds - session.issuedAt < TOKEN_RENEW_AFTER_SECONDS) return undefined;
  return signToken(session.user);
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
