import {
  CAPTCHA_ACTIONS,
  LOGIN_ACCOUNT_CAPTCHA_AFTER,
  LOGIN_ATTEMPT_LIMIT,
  LOGIN_CAPTCHA_AFTER,
  LOGIN_WINDOW_SECONDS,
} from '@app/shared/constants';
import { normaliseEmail } from '@app/shared/schemas/common';
import { clearRateLimit, hitRateLimit } from '../../db/rate-limits.ts';
import { getUserByEmail } from '../../db/users.ts';
import { dummyHash, verifyPassword } from '../../domain/passwords.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { verifyCaptcha } from '../../lib/captcha.ts';
import { startAuthentication } from '../../lib/passkeys.ts';
import { env } from '../../lib/env.ts';
import { badRequest, tooMany, unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';

/** Attempts per account and client address (refused past LOGIN_ATTEMPT_LIMIT: only that address waits). */
const PER_ADDRESS = { limit: LOGIN_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };
/** Attempts per account from every address: only counted, never refused (it only asks for the bot check). */
const PER_ACCOUNT = { limit: Number.MAX_SAFE_INTEGER, windowSeconds: LOGIN_WINDOW_SECONDS };

/**
 * Every attempt is counted before the password is checked, so parallel guesses cannot
 * outrun the counters. Strangers cannot lock an account: past the thresholds the bot check
 * is required, and the right password with a valid bot-check token still signs in. Unknown
 * emails and wrong passwords get the same answers and the same counting.
 */
export const handler = route('login', async ({ body, sourceIp, viewerIp }) => {
  const email = normaliseEmail(body.email);
  const addressKey = `${email}|${sourceIp}`;
  const perAddress = await hitRateLimit('login-attempts', addressKey, PER_ADDRESS);
  if (!perAddress.allowed) {
    securityEvent('login_rate_limited', { source_ip: sourceIp });
    throw tooMany('Too many sign-in attempts. Wait a moment and try again, or reset your password.', perAddress.secondsLeft, 'login_rate_limited');
  }
  const perAccount = await hitRateLimit('login-account', email, PER_ACCOUNT);
  const needsCaptcha = perAddress.count > LOGIN_CAPTCHA_AFTER || (perAccount.allowed && perAccount.count > LOGIN_ACCOUNT_CAPTCHA_AFTER);
  if (needsCaptcha) {
    if (!body.recaptchaToken) {
      securityEvent('bot_check_demanded', { action: CAPTCHA_ACTIONS.login, source_ip: sourceIp });
      throw badRequest('Complete the bot check to sign in.', 'captcha_required');
    }
    await verifyCaptcha(body.recaptchaToken, viewerIp, CAPTCHA_ACTIONS.login);
  }

  const user = await getUserByEmail(body.email);
  const ok = await verifyPassword(body.password, user?.passwordHash ?? (await dummyHash(env().SCRYPT_LOG_N)));
  if (!user || !ok) {
    securityEvent('login_failed', { user_id: user?.id ?? null, source_ip: sourceIp });
    throw unauthorized('Invalid email or password.', 'invalid_credentials');
  }
  await clearRateLimit('login-attempts', addressKey);
  // The account requires a passkey: no session until the second step (passkeySignIn, recoveryCodeSignIn).
  if (user.passkeyRequired) return { secondFactor: await startAuthentication(user) };
  return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
});
