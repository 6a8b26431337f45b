import { CHANGE_PASSWORD_ATTEMPT_LIMIT, LOGIN_WINDOW_SECONDS } from '@app/shared/constants';
import { normaliseEmail } from '@app/shared/schemas/common';
import { deleteAccountItems, endSessionsForDeletion } from '../../db/accounts.ts';
import { hitRateLimit, rateLimitKey } from '../../db/rate-limits.ts';
import { accountDeletedMail } from '../../domain/mail-copy.ts';
import { verifyPassword } from '../../domain/passwords.ts';
import { badRequest, tooMany, unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { log, securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';
import { signedByPasskey } from '../../lib/passkeys.ts';
import { clearedSessionCookie } from '../../lib/session-cookie.ts';
import { cancelSubscription, expireCheckoutSession, localCustomerId } from '../../lib/stripe.ts';

const ATTEMPTS = { limit: CHANGE_PASSWORD_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };

/**
 * POST /api/me/delete: deletes the caller's account after their password, or a passkey of theirs
 * (a passwordless ceremony's answer, which must name this user). Attempts count in the
 * password change's window (both guess the current password), before the check. Then, in order:
 * the Stripe subscriptions that still run end at once and an open checkout closes (a Stripe
 * failure stops here, with nothing deleted); every session ends; every item of the user leaves the
 * table (db/accounts.ts); a confirmation goes to their address in their language; the answer
 * clears this browser's session cookie.
 */
export const handler = route('deleteAccount', async ({ body, user, sourceIp }) => {
  const attempts = await hitRateLimit('change-password', user.id, ATTEMPTS);
  if (!attempts.allowed) {
    securityEvent('account_delete_rate_limited', { user_id: user.id, source_ip: sourceIp });
    throw tooMany('Too many attempts. Wait a moment and try again.', attempts.secondsLeft, 'change_password_rate_limited');
  }
  if ('password' in body) {
    if (!(await verifyPassword(body.password, user.passwordHash))) {
      securityEvent('account_delete_failed', { user_id: user.id, source_ip: sourceIp });
      throw badRequest('The password is not correct.', 'wrong_current_password');
    }
  } else if (!(await signedByPasskey(body.passkey.flow, body.passkey.credential, user.id)).verified) {
    securityEvent('account_delete_failed', { user_id: user.id, source_ip: sourceIp });
    throw badRequest('This passkey is not one of your account, or could not be verified.', 'passkey_refused');
  }
  const running = Object.entries(user.subscriptions ?? {}).filter(([, s]) => s.status === 'active');
  const customerId = user.stripeCustomerId ?? localCustomerId(user.id);
  for (const [id] of running) await cancelSubscription({ id, customerId, userId: user.id });
  if (user.checkoutId) await expireCheckoutSession(user.checkoutId);
  if (!(await endSessionsForDeletion(user.id))) throw unauthorized('Your session has expired. Sign in again.', 'session_expired');
  const items = await deleteAccountItems(user, [rateLimitKey('login-attempts', `${normaliseEmail(user.email)}|${sourceIp}`)]);
  securityEvent('account_deleted', { user_id: user.id, source_ip: sourceIp, items, subscriptions_cancelled: running.length });
  try {
    await sendMail({ to: user.email, ...accountDeletedMail(user.language, user.name, running.length > 0) });
  } catch (err) {
    log.error('account-deleted confirmation not sent', { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
  return new Reply(200, { ok: true as const }, { 'set-cookie': clearedSessionCookie() });
});
