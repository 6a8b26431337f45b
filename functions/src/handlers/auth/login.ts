import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_SECONDS } from '@app/shared/constants';
import { normaliseEmail } from '@app/shared/schemas/common';
import { clearRateLimit, hitRateLimit, peekRateLimit } from '../../db/rate-limits.ts';
import { getUserByEmail } from '../../db/users.ts';
import { dummyHash, verifyPassword } from '../../domain/passwords.ts';
import { toPublicUser } from '../../domain/users.ts';
import { signToken } from '../../lib/auth.ts';
import { env } from '../../lib/env.ts';
import { tooMany, unauthorized } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

const SCOPE = 'login-failures';
const RULE = { limit: LOGIN_FAILURE_LIMIT, windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS };
const tooManyAttempts = (secondsLeft: number) =>
  tooMany('Too many failed sign-in attempts. Try again later or reset your password.', secondsLeft, 'login_locked');

export const handler = route('login', async ({ body }) => {
  const key = normaliseEmail(body.email);
  const gate = await peekRateLimit(SCOPE, key, RULE);
  if (!gate.allowed) throw tooManyAttempts(gate.secondsLeft);

  const user = await getUserByEmail(body.email);
  const ok = await verifyPassword(body.password, user?.passwordHash ?? (await dummyHash(env().SCRYPT_LOG_N)));
  if (!user || !ok) {
    const hit = await hitRateLimit(SCOPE, key, RULE);
    if (!hit.allowed) throw tooManyAttempts(hit.secondsLeft);
    throw unauthorized('Invalid email or password.', 'invalid_credentials');
  }
  await clearRateLimit(SCOPE, key);
  return { user: toPublicUser(user), token: await signToken(user) };
});
