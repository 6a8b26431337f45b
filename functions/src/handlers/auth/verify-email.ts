import { consumeVerifyToken, getVerifyToken } from '../../db/verify-tokens.ts';
import { hashResetToken } from '../../domain/reset-token.ts';
import { badRequest } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

const INVALID = 'This verification link is invalid or has expired. Ask for a new one from the banner.';

/**
 * POST /api/auth/verify-email {token}: spends a verification link's token, once; the address it
 * was mailed to is verified while it is still the account's. Unknown, used or expired: 400.
 */
export const handler = route('verifyEmail', async ({ body }) => {
  const hash = hashResetToken(body.token);
  const token = await getVerifyToken(hash);
  if (!token || !(await consumeVerifyToken(hash, token))) throw badRequest(INVALID, 'verify_link_invalid');
  return { ok: true as const };
});
