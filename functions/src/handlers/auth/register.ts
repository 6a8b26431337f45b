import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { createUser, EmailTakenError } from '../../db/users.ts';
import { hashPassword } from '../../domain/passwords.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { verifyCaptcha } from '../../lib/captcha.ts';
import { env } from '../../lib/env.ts';
import { conflict } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { assertAcceptablePassword } from '../../lib/password-policy.ts';

export const handler = route('register', async ({ body, viewerIp }) => {
  await verifyCaptcha(body.recaptchaToken, viewerIp, CAPTCHA_ACTIONS.register);
  await assertAcceptablePassword(body.password, [body.name, body.email]);
  const passwordHash = await hashPassword(body.password, env().SCRYPT_LOG_N);
  try {
    const user = await createUser({ name: body.name, email: body.email, passwordHash, language: body.language ?? 'en' });
    return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
  } catch (err) {
    if (err instanceof EmailTakenError) throw conflict('An account with this email already exists.', 'email_taken');
    throw err;
  }
});
