import { VERIFY_RESEND_LIMIT, VERIFY_RESEND_WINDOW_SECONDS } from '@app/shared/constants';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { sendVerificationLink } from '../../lib/email-verification.ts';
import { conflict, tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * POST /api/auth/verify-email/resend: mails the caller a new verification link, at most
 * VERIFY_RESEND_LIMIT times in VERIFY_RESEND_WINDOW_SECONDS (429 past it); an address already
 * verified is 409 already_verified and sends nothing.
 */
export const handler = route('resendVerification', async ({ user }) => {
  if (user.emailVerifiedAt !== undefined) throw conflict('Your email address is already verified.', 'already_verified');
  const limit = await hitRateLimit('verify-email', user.id, { limit: VERIFY_RESEND_LIMIT, windowSeconds: VERIFY_RESEND_WINDOW_SECONDS });
  if (!limit.allowed) throw tooMany('You have asked for several links already. Wait a while and try again.', limit.secondsLeft, 'verify_rate_limited');
  await sendVerificationLink(user);
  return { ok: true as const };
});
