import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { createUser, EmailTakenError } from '../../db/users.ts';
import { hashPassword } from '../../domain/passwords.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { verifyCaptcha } from '../../lib/captcha.ts';
import { env } from '../../lib/env.ts';
import { conflict } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { sendVerificationLink } from '../../lib/email-verification.ts';
import { log } from '../../lib/log.ts';
import { assertAcceptablePassword } from '../../lib/password-policy.ts';

/** Creates the account, signs it in, and mails a link that verifies its address. */
export const handler = route('register', async ({ body, viewerIp }) => {
  await verifyCaptcha(body.recaptchaToken, viewerIp, CAPTCHA_ACTIONS.register);
  await assertAcceptablePassword(body.password, [body.name, body.email]);
  const passwordHash = await hashPassword(body.password, env().SCRYPT_LOG_N);
  try {
    const user = await createUser({ name: body.name, email: body.email, passwordHash, language: body.language ?? 'en' });
    try {
      await sendVerificationLink(user);
    } catch (err) {
      // The account exists either way: the banner offers to send the link again.
      log.error('verification link not sent', { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
    }
    return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
  } catch (err) {
    if (err instanceof EmailTakenError) throw conflict('An account with this email already exists.', 'email_taken');
    throw err;
  }
});
