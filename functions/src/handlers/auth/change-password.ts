import { CHANGE_PASSWORD_ATTEMPT_LIMIT, LOGIN_WINDOW_SECONDS } from '@app/shared/constants';
import { changePasswordResponse } from '@app/shared/schemas/auth';
import { clearRateLimit, hitRateLimit } from '../../db/rate-limits.ts';
import { changePassword } from '../../db/users.ts';
import { passwordChangedMail } from '../../domain/mail-copy.ts';
import { hashPassword, verifyPassword } from '../../domain/passwords.ts';
import { signToken } from '../../lib/auth.ts';
import { sessionCookie } from '../../lib/session-cookie.ts';
import { env } from '../../lib/env.ts';
import { badRequest, tooMany, unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { log, securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';
import { assertAcceptablePassword } from '../../lib/password-policy.ts';

const ATTEMPTS = { limit: CHANGE_PASSWORD_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };

/**
 * Every attempt is counted per account before the current password is checked (so a stolen
 * session cannot guess it faster than the limit), and a right one clears the count. The change
 * bumps tokenVersion, ending every session, and sets this session's fresh token (same session id
 * and sign-in time) in the session cookie, so only this device stays signed in; the user gets a notice mail in their language.
 */
export const handler = route('changePassword', async ({ body, user, session, sourceIp }) => {
  const attempts = await hitRateLimit('change-password', user.id, ATTEMPTS);
  if (!attempts.allowed) {
    securityEvent('password_change_rate_limited', { user_id: user.id, source_ip: sourceIp });
    throw tooMany('Too many attempts to change the password. Wait a moment and try again.', attempts.secondsLeft, 'change_password_rate_limited');
  }
  if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
    securityEvent('password_change_failed', { user_id: user.id, source_ip: sourceIp });
    throw badRequest('The current password is not correct.', 'wrong_current_password');
  }
  await assertAcceptablePassword(body.newPassword, [user.name, user.email]);
  const passwordHash = await hashPassword(body.newPassword, env().SCRYPT_LOG_N);
  if (!(await changePassword(user.id, passwordHash, user.tokenVersion))) {
    // A logout, reset or other change came first: this session has ended with it.
    throw unauthorized('Your session has expired. Sign in again.', 'session_expired');
  }
  await clearRateLimit('change-password', user.id);
  securityEvent('password_changed', { user_id: user.id, source_ip: sourceIp });
  const fresh = await signToken({ ...session, user: { id: user.id, tokenVersion: user.tokenVersion + 1 } });
  try {
    const resetLink = `${env().APP_URL}/forgot-password`;
    await sendMail({ to: user.email, ...passwordChangedMail(user.language, user.name, resetLink) });
  } catch (err) {
    // The password is changed either way: a lost notice must not cost this device its session.
    log.error('password-changed notice not sent', { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
  return new Reply(200, changePasswordResponse.parse({ ok: true }), { 'set-cookie': sessionCookie(fresh.token, fresh.expiresAt), 'cache-control': 'no-store' });
});
