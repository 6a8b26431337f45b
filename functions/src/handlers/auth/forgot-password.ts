import { CAPTCHA_ACTIONS, FORGOT_PASSWORD_WINDOW_SECONDS } from '@app/shared/constants';
import { normaliseEmail } from '@app/shared/schemas/common';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { putResetToken } from '../../db/reset-tokens.ts';
import { getUserByEmail } from '../../db/users.ts';
import { resetPasswordMail } from '../../domain/mail-copy.ts';
import { newResetToken } from '../../domain/reset-token.ts';
import { passwordResetAddress } from '../../domain/users.ts';
import { verifyCaptcha } from '../../lib/captcha.ts';
import { env } from '../../lib/env.ts';
import { tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';

const SENT = 'Check your email for the password reset link.';

/** Same reply for every email, registered or not; one request per hour per email. */
export const handler = route('forgotPassword', async ({ body, viewerIp, sourceIp }) => {
  await verifyCaptcha(body.recaptchaToken, viewerIp, CAPTCHA_ACTIONS.forgotPassword);
  const limit = await hitRateLimit('forgot-password', normaliseEmail(body.email), {
    limit: 1,
    windowSeconds: FORGOT_PASSWORD_WINDOW_SECONDS,
  });
  if (!limit.allowed) {
    securityEvent('password_reset_rate_limited', { source_ip: sourceIp });
    throw tooMany('You can only request a password reset once per hour.', limit.secondsLeft, 'reset_rate_limited');
  }
  const user = await getUserByEmail(body.email);
  securityEvent('password_reset_requested', { user_id: user?.id ?? null, source_ip: sourceIp });
  if (user) {
    const { token, hash } = newResetToken();
    await putResetToken(hash, user.id, user.tokenVersion);
    // The token rides in the fragment: browsers never send it to a server nor in a Referer.
    const link = `${env().APP_URL}/reset-password#${token}`;
    const copy = resetPasswordMail(body.language ?? user.language, user.name, link);
    // Only to a verified address, or the one the account was created with (domain/users.ts).
    await sendMail({ to: passwordResetAddress(user), ...copy });
  }
  return { ok: true as const, message: SENT };
});
