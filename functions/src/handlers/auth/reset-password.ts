import { consumeResetToken, getResetToken } from '../../db/reset-tokens.ts';
import { hashPassword } from '../../domain/passwords.ts';
import { hashResetToken } from '../../domain/reset-token.ts';
import { env } from '../../lib/env.ts';
import { badRequest } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

const invalid = () => badRequest('This reset link is invalid or has expired. Request a new one.', 'reset_invalid');

/** Single use: the token is spent in the same transaction that sets the password. */
export const handler = route('resetPassword', async ({ body }) => {
  const hash = hashResetToken(body.token);
  const token = await getResetToken(hash);
  if (!token) throw invalid();
  const passwordHash = await hashPassword(body.newPassword, env().SCRYPT_LOG_N);
  if (!(await consumeResetToken(hash, token, passwordHash))) throw invalid();
  return { ok: true as const };
});
