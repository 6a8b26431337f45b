import { LOGIN_WINDOW_SECONDS, RECOVERY_CODE_ATTEMPT_LIMIT } from '@app/shared/constants';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { countRecoveryCodesLeft, useRecoveryCode } from '../../db/recovery-codes.ts';
import { getUser } from '../../db/users.ts';
import { hashRecoveryCode } from '../../domain/recovery-codes.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { badRequest, tooMany } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { openSecondFactor } from '../../lib/passkeys.ts';

const ATTEMPTS = { limit: RECOVERY_CODE_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };

/**
 * POST /api/auth/recovery-code: ends a password sign-in's second step with a recovery code. Tries
 * are counted per account before the check; a wrong code leaves the step open; a right code is
 * spent (each works once) and its use recorded; then the step ends and the session cookie is set,
 * as for a password.
 */
export const handler = route('recoveryCodeSignIn', async ({ body, sourceIp }) => {
  const step = await openSecondFactor(body.flow);
  const attempts = await hitRateLimit('recovery-code', step.userId, ATTEMPTS);
  if (!attempts.allowed) throw tooMany('Too many recovery codes tried. Wait a moment and try again.', attempts.secondsLeft, 'recovery_code_rate_limited');
  if (!(await useRecoveryCode(step.userId, hashRecoveryCode(step.userId, body.code)))) {
    securityEvent('recovery_code_failed', { user_id: step.userId, source_ip: sourceIp });
    throw badRequest('This recovery code is not right, or was already used.', 'recovery_code_invalid');
  }
  const user = (await step.spend()) ? await getUser(step.userId) : undefined;
  if (!user) throw badRequest('This sign-in has expired. Sign in again.', 'passkey_challenge_invalid');
  securityEvent('recovery_code_used', { user_id: user.id, source_ip: sourceIp, codes_left: await countRecoveryCodesLeft(user.id) });
  return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
});
