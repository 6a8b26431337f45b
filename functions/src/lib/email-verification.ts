import type { UiLanguage } from '@app/shared/constants';
import { putVerifyToken } from '../db/verify-tokens.ts';
import { verifyEmailMail } from '../domain/mail-copy.ts';
import { newResetToken } from '../domain/reset-token.ts';
import type { User } from '../domain/users.ts';
import { env } from './env.ts';
import { sendMail } from './mail.ts';

/**
 * Mails the user a verification link for their current address: a fresh token (32 random bytes,
 * stored as its SHA-256, as a reset token is) in the link's fragment, `/verify-email#<token>`, so
 * no server log or Referer sees it.
 */
export async function sendVerificationLink(user: Pick<User, 'id' | 'name' | 'email' | 'language'>, language: UiLanguage = user.language): Promise<void> {
  const { token, hash } = newResetToken();
  await putVerifyToken(hash, user.id, user.email);
  await sendMail({ to: user.email, ...verifyEmailMail(language, user.name, `${env().APP_URL}/verify-email#${token}`) });
}
