import { consumeResetToken, getResetToken } from '../../db/reset-tokens.ts';
import { getUser } from '../../db/users.ts';
import { hashPassword } from '../../domain/passwords.ts';
import { hashResetToken } from '../../domain/reset-token.ts';
import { env } from '../../lib/env.ts';
import { badRequest } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { assertAcceptablePassword } from '../../lib/password-policy.ts';
import { securityEvent } from '../../lib/log.ts';

function invalid(sourceIp: string) {
  securityEvent('password_reset_refused', { source_ip: sourceIp });
  return badRequest('This reset link is invalid or has expired. Request a new one.', 'reset_invalid');
}

/** Single use: the token is spent in the same transaction that sets the password. */
export const handler = route('resetPassword', async ({ body, sourceIp }) => {
  const hash = hashResetToken(body.token);
  const token = await getResetToken(hash);
  if (!token) throw invalid(sourceIp);
  const user = await getUser(token.userId);
  await assertAcceptablePassword(body.newPassword, user ? [user.name, user.email] : []);
  const passwordHash = await hashPassword(body.newPassword, env().SCRYPT_LOG_N);
  if (!(await consumeResetToken(hash, token, passwordHash))) throw invalid(sourceIp);
  securityEvent('password_reset', { user_id: token.userId, source_ip: sourceIp });
  return { ok: true as const };
});
