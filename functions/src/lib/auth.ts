import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { getUser, type User } from '../db/users.ts';
import { effectivePlan } from '../domain/plan.ts';
import { forbidden, unauthorized } from './errors.ts';
import { secrets } from './secrets.ts';

export const TOKEN_ISSUER = 'live-transcribe';
export const TOKEN_AUDIENCE = 'live-transcribe-web';

async function key(): Promise<Uint8Array> {
  return new TextEncoder().encode((await secrets()).jwtSecret);
}

/** HS256 session token: sub = user id, tv = the user's tokenVersion. */
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

/** The caller from a `Bearer` header: a valid token whose tokenVersion matches the user. */
export async function authenticate(header: string | undefined, requirePro: boolean): Promise<User> {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header?.trim() ?? '');
  if (!match) throw unauthorized();
  let sub: string;
  let tv: unknown;
  try {
    const { payload } = await jwtVerify(match[1]!, await key(), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iss', 'aud'],
    });
    sub = payload.sub!;
    tv = payload.tv;
  } catch {
    throw unauthorized('Your session has expired. Sign in again.', 'session_expired');
  }
  const user = await getUser(sub);
  if (!user || user.tokenVersion !== tv) throw unauthorized('Your session has expired. Sign in again.', 'session_expired');
  if (requirePro && effectivePlan(user) !== 'pro') {
    throw forbidden('Only Pro users can do this. Upgrade to Pro to continue.', { code: 'requires_pro', requiresPro: true });
  }
  return user;
}
